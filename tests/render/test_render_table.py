"""The league table image: one titled ranking table for round results, season standings
and the world scratch ranking. Texts stay in their cells whatever the names, the asker's row stands
out, DNF rows are grey, skipped ranks show a "⋯" row, and the image travels as an outbox spec."""

from __future__ import annotations

import json

import pytest
from PIL import Image, ImageChops
from render_helpers import decode

from bot.render import palette as P
from bot.render import render_table
from bot.render.options import RenderOptions
from bot.render.table import (
    CELL_PAD,
    GAP_H,
    GAP_MARK,
    HEAD_ROW_H,
    HEADER_H,
    MAX_LINES,
    MAX_ROWS,
    NOTE_H,
    PAD_BOTTOM,
    ROW_H,
    TableRow,
    TableView,
    layout,
    plain,
    table_image,
)
from bot.services.images import default_renderer, draw, image_name, table_spec

PNG = b"\x89PNG\r\n\x1a\n"
ROUND_COLUMNS = (("#", "r", 0.7), ("Driver", "l", 5), ("Time", "r", 1.6), ("Gap", "r", 1.6),
                 ("Penalty", "r", 1.4), ("Points", "r", 1.2))
LONG_NAME = "Sébastien Ødegaard-" + "x" * 981  # 1,000 characters


def round_results(name: str = "Jürgen Kraus", **kw) -> TableView:
    """Round results of a league: three finishers, the second one is `name`, a DNF last."""
    rows = (
        TableRow(cells=("1", "Ana Silva", "4:10", "", "", "25 +3")),
        TableRow(cells=("2", name, "4:30", "+0:20", "+10s", "18")),
        TableRow(cells=("3", "Kari Nyström", "4:41", "+0:31", "", "15")),
        TableRow(cells=("—", "Ivo Petrov", "DNF: roll-over", "", "", "0"), muted=True),
    )
    return TableView(title="Spring Cup — Round 3", subtitle="Pinewood Sprint · 4 drivers",
                     columns=ROUND_COLUMNS, rows=kw.pop("rows", rows), **kw)


def cell(lay, row: int, col: int):
    return next(t for t in lay.texts if t.row == row and t.col == col)


def assert_inside_its_cell(t) -> None:
    """The text's ink box (same font, same anchor) lies within its cell, padding included sideways."""
    x0, y0, x1, y1 = t.box
    left, top, right, bottom = t.font.getbbox(t.text, anchor=t.anchor)
    pad = CELL_PAD  # default options: design px
    assert t.font.getlength(t.text) <= (x1 - x0) - 2 * pad, (t.row, t.col, t.text)
    assert x0 + pad - 1 <= t.xy[0] + left and t.xy[0] + right <= x1 - pad + 1, (t.row, t.col, t.text)
    assert y0 <= t.xy[1] + top and t.xy[1] + bottom <= y1, (t.row, t.col, t.text)


def changed_box(a: Image.Image, b: Image.Image):
    """The bounding box of the pixels that differ between two images of the same size."""
    assert a.size == b.size
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox()


def within(inner, outer) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


# -- texts never leave their cells -------------------------------------------------------------------

def test_a_thousand_character_name_is_cut_with_an_ellipsis_inside_its_cell():
    lay = layout(round_results(LONG_NAME))
    name = cell(lay, 1, 1)
    assert name.text.startswith("Sébastien Ødegaard-x") and name.text.endswith("…")
    assert_inside_its_cell(name)
    # the picture: only the name's own cell differs from the same table with a short name
    box = changed_box(table_image(round_results(LONG_NAME)), table_image(round_results("Jo")))
    assert box is not None and within(box, name.box)


def test_sixty_rows_of_overlong_texts_all_stay_inside_their_cells():
    wide = "Ŵ" * 300
    rows = tuple(TableRow(cells=(str(i + 1) * 40, f"{i} {LONG_NAME}", wide, "+" + "9" * 200, "Ç" * 90, "Ü" * 50),
                          highlight=i == 41, muted=i > 55, gap_before=i == 40) for i in range(MAX_ROWS))
    view = round_results(rows=rows, note="Seed " + "3f9a" * 300 + " — verify with python -m bot verify")
    lay = layout(view)
    bodies = [t for t in lay.texts if t.row >= 0]
    assert len(bodies) == MAX_ROWS * len(ROUND_COLUMNS)
    assert all(t.text.endswith("…") for t in bodies)  # every one was too long, every one is marked as cut
    for t in lay.texts:  # column heads, cells, the gap marker and the footer note
        assert_inside_its_cell(t)
    note = [t for t in lay.texts if t.row == -2 and t.text != GAP_MARK]  # the note wraps, its last line is cut
    assert note[0].text.startswith("Seed") and len(note) == MAX_LINES and note[-1].text.endswith("…")


def test_a_text_whose_ink_hangs_past_its_end_is_clipped_to_its_cell():
    """A Hebrew point after a Latin letter is drawn ~20 px past the text's end, more than the cell's
    padding: in a right-aligned column it must not paint the neighbouring cell."""
    def table(text: str) -> TableView:
        return TableView(title="T", columns=(("#", "r", 1), ("Driver", "r", 3), ("Points", "r", 1)),
                         rows=(("1", text, "25"),))
    name = "Ana\u05c1\u05c1"
    box = changed_box(table_image(table(name)), table_image(table("")))
    assert box is not None and within(box, cell(layout(table(name)), 0, 1).box)


# -- what the table refuses ----------------------------------------------------------------------------

def test_a_row_with_the_wrong_number_of_cells_is_refused_naming_the_row():
    rows = (("1", "Ana", "4:10", "", "", "25"), ("2", "Bo", "4:30", "", "", "18"), ("3", "Cy", "4:41"))
    with pytest.raises(ValueError, match=r"row 2 has 3 cells, the table has 6 columns"):
        TableView(title="T", columns=ROUND_COLUMNS, rows=rows)


def test_more_than_sixty_rows_are_refused():
    rows = tuple(TableRow(cells=(str(i), "n", "", "", "", "")) for i in range(MAX_ROWS + 1))
    with pytest.raises(ValueError, match="at most 60"):
        TableView(title="T", columns=ROUND_COLUMNS, rows=rows)


@pytest.mark.parametrize("text", ["Ana\nSilva", "Ana\tSilva", "Ana\x00", "Ana\u202eavliS", "line\u2028break"])
def test_cells_that_are_not_one_line_of_plain_text_are_refused(text):
    with pytest.raises(ValueError, match="not plain text"):
        round_results(text)
    cleaned = round_results(plain(text))  # callers clean user names with plain()
    assert cell(layout(cleaned), 1, 1).text == plain(text) != text


def test_cells_must_be_text():
    with pytest.raises(ValueError):
        TableView(title="T", columns=(("#", "r", 1),), rows=((7,),))


# -- what the reader sees -------------------------------------------------------------------------------

def scratch_ranking(asker_rank: int = 42) -> TableView:
    """World scratch ranking: the top 10, a gap, then the asker's neighbourhood with the asker highlighted."""
    top = [TableRow(cells=(str(r), f"Driver {r}", f"Server {r % 3}", f"3:{r:02d}", f"+0:{r - 1:02d}"))
           for r in range(1, 11)]
    near = [TableRow(cells=(str(r), "Me" if r == asker_rank else f"Driver {r}", "Home", f"4:{r - 40:02d}",
                            f"+1:{r - 40:02d}"), highlight=r == asker_rank, gap_before=r == asker_rank - 2)
            for r in range(asker_rank - 2, asker_rank + 3)]
    return TableView(title="Pinewood Sprint — world ranking", columns=(("#", "r", 1), ("Driver", "l", 4),
                     ("Server", "l", 3), ("Time", "r", 1.5), ("Gap", "r", 1.5)), rows=tuple(top + near))


def test_the_askers_row_has_its_own_background_and_a_bar_on_its_left():
    view = scratch_ranking()
    lay = layout(view)
    img = table_image(view)
    rows = [b for b in lay.bands if b.kind == "row"]
    margin_x = img.width - 4  # the right margin: background only, never text

    def background(band):
        return img.getpixel((margin_x, (band.box[1] + band.box[3]) // 2))

    def left_edge(band):
        return img.getpixel((2, (band.box[1] + band.box[3]) // 2))
    (me,) = [b for b in rows if b.highlight]
    assert view.rows[me.index].cells[1] == "Me"
    assert all(background(b) != background(me) for b in rows if b is not me)
    assert left_edge(me) == P.BLACK and all(left_edge(b) != P.BLACK for b in rows if b is not me)


def dark_pixels(img: Image.Image, box) -> int:
    data = img.crop(box).convert("RGB").tobytes()
    return sum(1 for r, g, b in zip(data[0::3], data[1::3], data[2::3]) if r < 60 and g < 60 and b < 60)


def test_a_dnf_row_prints_grey_where_finishers_print_black():
    lay = layout(round_results())
    img = table_image(round_results())
    finisher, dnf = (next(b for b in lay.bands if b.index == i) for i in (2, 3))
    assert dark_pixels(img, finisher.box) > 100
    assert dark_pixels(img, dnf.box) == 0


def test_skipped_ranks_show_a_marker_row_before_the_askers_neighbourhood():
    view = scratch_ranking()
    lay = layout(view)
    kinds = [("gap" if b.kind == "gap" else view.rows[b.index].cells[0]) for b in lay.bands]
    assert kinds == [str(r) for r in range(1, 11)] + ["gap", "40", "41", "42", "43", "44"]
    gap = next(b for b in lay.bands if b.kind == "gap")
    img = table_image(view)
    assert any(t.text == GAP_MARK and within(t.box, gap.box) for t in lay.texts)
    mark = img.crop(gap.box).convert("RGB")
    assert mark.getcolors(1 << 16) is not None and len(mark.getcolors(1 << 16)) > 1  # something is drawn there


def test_columns_share_the_width_by_their_weights_and_align_as_asked():
    view = TableView(title="Season standings", columns=(("Driver", "l", 3), ("Points", "r", 1)),
                     rows=(("Ana Silva", "7"),))
    lay = layout(view)
    name, points = cell(lay, 0, 0), cell(lay, 0, 1)
    name_w, points_w = name.box[2] - name.box[0], points.box[2] - points.box[0]
    assert abs(name_w - 3 * points_w) <= 3
    img = table_image(view)
    ink = [x for x in range(points.box[0], points.box[2])
           if dark_pixels(img, (x, points.box[1], x + 1, points.box[3]))]
    assert points.box[2] - CELL_PAD - 4 <= max(ink) and min(ink) > points.box[2] - CELL_PAD - 40  # right-aligned
    ink = [x for x in range(name.box[0], name.box[2]) if dark_pixels(img, (x, name.box[1], x + 1, name.box[3]))]
    assert min(ink) <= name.box[0] + CELL_PAD + 4  # left-aligned


def test_png_decodes_at_phone_width_and_as_tall_as_its_rows():
    view = scratch_ranking()
    img = decode(render_table(view))
    assert img.mode == "P" and img.width == 1080  # a palette PNG (bot.render.encode)
    assert img.height == HEADER_H + HEAD_ROW_H + ROW_H * len(view.rows) + GAP_H + PAD_BOTTOM
    noted = decode(render_table(view.model_copy(update={"note": "Seed 3f9a — verify"})))
    assert noted.height == img.height + NOTE_H
    half = decode(render_table(view, RenderOptions(width=540)))
    assert half.width == 540 and abs(half.height - img.height / 2) <= 20


def test_an_empty_table_still_draws_its_title_and_heads():
    view = TableView(title="Season standings", subtitle="No round played yet",
                     columns=(("#", "r", 1), ("Driver", "l", 5), ("Points", "r", 2)))
    img = decode(render_table(view))
    assert img.height == HEADER_H + HEAD_ROW_H + ROW_H + PAD_BOTTOM
    assert [t.text for t in layout(view).texts if t.row == -1] == ["#", "Driver", "Points"]


# -- the outbox spec --------------------------------------------------------------------------------------

def test_a_table_spec_survives_the_outbox_and_draws_a_png_under_its_own_name():
    spec = json.loads(json.dumps(table_spec(scratch_ranking(), name="scratch.png")))  # outbox rows are JSON
    png = draw(default_renderer(), spec)
    assert png.startswith(PNG) and decode(png).size == decode(render_table(scratch_ranking())).size
    assert image_name(spec) == "scratch.png"
    assert image_name(table_spec(round_results())) == "standings.png"


@pytest.mark.parametrize("name", ["../../etc/passwd.png", "Standings.png", "a.png/../b.png", "x.png\n", "x.PNG",
                                  ".png", "a b.png", "x" * 80 + ".png", 5, None])
def test_a_hostile_image_name_in_a_stored_spec_falls_back_to_the_default(name):
    spec = dict(table_spec(round_results()), name=name)
    assert image_name(spec) == "standings.png"
    assert image_name({"kind": "board", "state": "{}", "name": name}) == "board.png"
    if isinstance(name, str):
        with pytest.raises(ValueError, match="image name"):
            table_spec(round_results(), name=name)


def test_a_tampered_table_spec_is_refused_rather_than_drawn_wrong():
    spec = table_spec(round_results())
    spec["table"]["rows"][1]["cells"] = ["2", "Bo"]
    with pytest.raises(ValueError, match="row 1"):
        draw(default_renderer(), spec)
