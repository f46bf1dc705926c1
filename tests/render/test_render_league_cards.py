"""The league cards say what they are: the round card names its stage, a DNF or
DSQ reason is drawn whole (wrapped under the driver, never cut with "…"), and the standings card
has one column per round with the dropped rounds struck through and the ranking rule in its footer,
in the reader's language."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from PIL import Image

from bot.engine.core.text import msg
from bot.i18n import render
from bot.render.fonts import font
from bot.render.options import RenderOptions
from bot.render.table import CELL_PAD, MAX_LINES, ROW_H, layout, table_image, wrap
from bot.services.images import table_spec, table_view
from bot.services.league.points import Classified, RoundScore
from bot.services.league.round_close import Judged, results_table, standings_table
from bot.services.league.round_kit import specials_text
from bot.store.leagues import League

LANGS = ("en", "fr", "de")
#: a steward's reason of 96 characters: longer than any column of the table
REASON = "Drove the whole special with a co-driver who was not on the entry list, and ignored the marshal"
#: the longest reason a steward may give (MAX_REASON)
LONGEST = ("Ignored the red flag at the split, overtook the course car, then argued with the marshals at the "
           "finish line for ten minutes and refused to hand in the time card; see the stewards' log of round 2")


def round_card(reason: str = REASON, stage: str = "pinewood-sprint"):
    classified = [Classified(1, "Ana Silva", "classified", 1, 190, 0, 25, 0, gap_s=0),
                  Classified(2, "Ivo Petrov", "dnf", None, None, 0, 0, 0, "abandoned"),
                  Classified(3, "Jürgen Kraus", "dsq", None, None, 0, 0, 0, reason)]
    return results_table("Sunday Cup — round 2", specials_text([stage]), classified, Judged({}, {}, []), "ab" * 16)


def detail_lines(lay, row: int) -> list[str]:
    return [t.text for t in sorted((t for t in lay.texts if t.row == row and t.col == -1), key=lambda t: t.line)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("reason", [REASON, LONGEST])
def test_a_disqualification_reason_is_drawn_whole_on_wrapped_lines(lang, reason):
    options = RenderOptions(lang=lang)
    lay = layout(round_card(reason), options)
    lines = detail_lines(lay, 2)
    assert 2 <= len(lines) <= MAX_LINES
    assert not any(line.endswith("…") for line in lines)
    assert " ".join(lines) == reason  # every word drawn, in order
    band = next(b for b in lay.bands if b.index == 2)
    assert band.box[3] - band.box[1] >= ROW_H + 2 * 30  # the row grew to hold the lines
    for t in (t for t in lay.texts if t.row == 2 and t.col == -1):
        x0, y0, x1, y1 = t.box
        assert t.font.getlength(t.text) <= (x1 - x0) - 2 * CELL_PAD
        assert band.box[1] <= y0 and y1 <= band.box[3]  # inside its row, under the row's cells
    statuses = {t.col: t.text for t in lay.texts if t.row == 2 and t.col >= 0}
    assert statuses[2] == render(msg("league.dsq"), lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_dnf_row_says_why_in_the_readers_words(lang):
    lay = layout(round_card(), RenderOptions(lang=lang))
    expected = {"en": "abandoned", "fr": "course interrompue", "de": "abgebrochen"}[lang]
    assert expected in " ".join(detail_lines(lay, 1)).lower()


@pytest.mark.parametrize("lang", LANGS)
def test_the_round_card_names_its_stage_under_the_title(lang):
    view = round_card(stage="frozen-lakes")
    subtitle = render(view.subtitle, lang)
    assert "Frozen Lakes" in subtitle
    assert {"en": "3 drivers", "fr": "3 pilotes", "de": "3 Fahrer"}[lang] in subtitle


def test_a_word_longer_than_three_lines_is_cut_only_at_the_end_of_the_third():
    f = font(22)
    lines = wrap("Seed " + "3f9a" * 300, f, 500)
    assert len(lines) == MAX_LINES and lines[-1].endswith("…")
    assert all(f.getlength(line) <= 500 for line in lines)
    assert wrap("short", f, 500) == ["short"]


LEAGUE = League(id=1, guild_id=1, name="Sunday Cup", channel_id=1, timezone="UTC", points=[25, 18, 15],
                best_rounds=2, ruleset="standard", modules={}, dice="personal", language="en", organiser_role=None,
                created_by=1, created_at="2026-11-23T08:00:00+00:00")


def season():
    """Three rounds (ids 11, 12, 13 are rounds 1, 2, 3): Ana wins 1 and 3 and is 3rd in 2, Ben the
    reverse; only the best 2 rounds count, so each drops a round."""
    ana, ben = (1, "Ana Silva"), (2, "Ben Okafor")
    return [RoundScore(11, *ana, 1, 200, 25, 0), RoundScore(11, *ben, 3, 230, 15, 0),
            RoundScore(12, *ana, 3, 220, 15, 0), RoundScore(12, *ben, 1, 210, 25, 0),
            RoundScore(13, *ana, 1, 205, 25, 0), RoundScore(13, *ben, 2, 215, 18, 0)]


@pytest.mark.parametrize("lang", LANGS)
def test_the_standings_card_has_a_column_per_round_and_strikes_the_dropped_ones(lang):
    view = standings_table(LEAGUE, season(), {11: 1, 12: 2, 13: 3})
    heads = [render(c.label, lang) for c in view.columns]
    letter = {"en": "R", "fr": "M", "de": "L"}[lang]
    assert heads[2:5] == [f"{letter}1", f"{letter}2", f"{letter}3"]
    ana, ben = view.rows
    assert ana.cells[1:6] == ("Ana Silva", "25", "15", "25", "50") and ana.struck == (3,)
    assert ben.cells[1:6] == ("Ben Okafor", "15", "25", "18", "43") and ben.struck == (2,)
    lay = layout(view, RenderOptions(lang=lang))
    struck = {(t.row, t.col) for t in lay.texts if t.struck}
    assert struck == {(0, 3), (1, 2)}


def test_a_struck_cell_is_drawn_with_a_line_through_its_number():
    view = standings_table(LEAGUE, season(), {11: 1, 12: 2, 13: 3})
    plain_view = view.model_copy(update={"rows": tuple(r.model_copy(update={"struck": ()}) for r in view.rows)})
    lay = layout(view)
    cell = next(t for t in lay.texts if t.row == 0 and t.col == 3)
    a, b = table_image(view), table_image(plain_view)
    x0, y0, x1, y1 = cell.box
    left, _, right, _ = cell.font.getbbox(cell.text, anchor=cell.anchor)
    cy = round(cell.xy[1])
    beside = [(x, cy) for x in (round(cell.xy[0] + left) - 3, round(cell.xy[0] + right) + 3)]  # past the digits
    for x, y in beside:
        assert _dark(a, x, y) and not _dark(b, x, y)
    other = next(t for t in lay.texts if t.row == 0 and t.col == 2)  # a counted round: no line
    assert a.crop(other.box).tobytes() == b.crop(other.box).tobytes()


def _dark(img: Image.Image, x: int, y: int) -> bool:
    return any(sum(img.getpixel((x, y + dy))) < 450 for dy in (-1, 0, 1))


@pytest.mark.parametrize("lang", LANGS)
def test_the_standings_footer_states_the_ranking_rule_whole(lang):
    view = standings_table(LEAGUE, season(), {11: 1, 12: 2, 13: 3})
    lay = layout(view, RenderOptions(lang=lang))
    note = " ".join(t.text for t in sorted((t for t in lay.texts if t.row == -2), key=lambda t: t.line))
    assert not note.endswith("…")
    words = {"en": ("best 2 rounds", "struck through", "more wins", "2nd places", "total time"),
             "fr": ("2 meilleures manches", "barrées", "plus de victoires", "2es places", "temps total"),
             "de": ("besten 2 Läufe", "durchgestrichen", "mehr Siege", "2. Plätze", "Gesamtzeit")}[lang]
    for word in words:
        assert word in note, (word, note)


def test_when_every_round_counts_nothing_is_struck_and_the_footer_says_so():
    view = standings_table(replace(LEAGUE, best_rounds=None), season(), {11: 1, 12: 2, 13: 3})
    assert all(row.struck == () for row in view.rows)
    assert render(view.note, "en").startswith("Every round counts. Ties: more wins")
    assert [row.cells[5] for row in view.rows] == ["65", "58"]


@pytest.mark.parametrize("lang", LANGS)
def test_a_dnf_reason_stays_in_the_readers_words_through_the_outbox_spec(lang):
    """The card travels as a spec (the outbox, the console's --out): its reasons keep their keys."""
    view = table_view(json.loads(json.dumps(table_spec(round_card(), "results.png"))))
    lay = layout(view, RenderOptions(lang=lang))
    expected = {"en": "abandoned", "fr": "course interrompue", "de": "abgebrochen"}[lang]
    assert " ".join(detail_lines(lay, 1)) == expected
    assert " ".join(detail_lines(lay, 2)) == REASON
