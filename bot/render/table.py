"""One titled ranking table for every league image: round results, season standings,
world scratch ranking.

The caller says what the table holds (`TableView`: title, column heads with their alignment and
relative width, rows of plain-text cells, flags per row); this module only lays it out and draws it,
so the three league images look alike and none of them needs its own drawing code. Any text may be
a message (`Msg`, `Listed`: the view keeps it as one); it is shown in the image's language
(`RenderOptions.lang`) when the table is laid out.

- `layout(view, options)`: pure geometry — every band (row, "⋯" gap marker) and every text with its
  box and the text as fitted into it. Tests check the geometry here, the drawing uses nothing else.
- `table_image(view, options)`: the picture. Every text is fitted into its cell with an ellipsis and
  is drawn clipped to its cell, so a hostile name (1,000 characters, a tower of combining accents)
  never spills into a neighbour.

Free text is not cut on one line: a row's `detail` (why a driver is out: a steward's
reason for a DSQ, up to 200 characters) and the footer `note` (the ranking rule) wrap onto up to
MAX_LINES lines, the row or footer growing to hold them; only what is longer still ends in "…".
A row's `struck` cells (a dropped round of the standings) are drawn with a line through them.

A highlighted row (the asker's own line of the world ranking) has the board's "active" colour and a
black bar on its left edge, so it is not marked by colour alone; muted rows (DNF, DSQ) print grey.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal

from PIL import Image, ImageDraw, ImageFont
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    field_validator,
    model_validator,
)

from bot.engine.core.text import Listed, Msg
from bot.render import palette as P
from bot.render.drawing import drawable
from bot.render.fonts import MIN_FONT_PX, fit_text, font
from bot.render.header import draw_header
from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.words import text as shown

#: a longer table would not be readable on a phone (and a ranking shows top N + a neighbourhood)
MAX_ROWS = 60
MAX_COLUMNS = 12
#: longest text of any field: generous (names are cut with "…" anyway), but bounded
MAX_TEXT = 4000
#: drawn in the row that `gap_before` inserts (rows skipped between the top N and the asker's rank)
GAP_MARK = "⋯"
#: drawn when a table has no row yet (a season before its first round)
EMPTY_MARK = "—"

# design measures at 1080 px wide (scaled by RenderOptions.px)
HEADER_H = 112
HEAD_ROW_H = 44
ROW_H = 52
GAP_H = 36
NOTE_H = 44
LINE_H = 30     # one wrapped line of a row's detail or of the note
MAX_LINES = 3   # a detail or a note wraps onto at most this many lines
PAD_X = 16      # left and right margin of the table
CELL_PAD = 10   # space between a cell's edge and its text
PAD_BOTTOM = 12
BODY_PX = 26
HIGHLIGHT_BAR = 8

# bidirectional overrides and isolates could reorder the text around a name; none is plain text
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_NOT_PLAIN = frozenset({"Cc", "Cs", "Zl", "Zp"})  # controls (\n, \t, NUL), lone surrogates, line breaks


def _keep_message(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """A message (`Msg`, `Listed`) stays one, so the table is drawn in its reader's language."""
    if isinstance(value, (Msg, Listed)):
        return value
    return handler(value)


#: a table's text: plain, or a message shown in the image's language when the table is drawn
Text = Annotated[str, WrapValidator(_keep_message)]


def _bad_char(text: str) -> str | None:
    for ch in text:
        if ch in _BIDI or unicodedata.category(ch) in _NOT_PLAIN:
            return ch
    return None


def _plain_checked(text: str, what: str) -> str:
    bad = _bad_char(text)
    if bad is not None:
        raise ValueError(f"{what}: character U+{ord(bad):04X} is not plain text (one line, no control codes)")
    if len(text) > MAX_TEXT:
        raise ValueError(f"{what}: {len(text)} characters, at most {MAX_TEXT}")
    return text


def plain(text: str) -> str:
    """`text` made acceptable as a cell: control codes, line breaks and bidi overrides become spaces,
    and it is cut to MAX_TEXT characters. For callers that put user-chosen names in a table. A
    message that is already plain stays a message (it is shown in the reader's language)."""
    if isinstance(text, (Msg, Listed)) and len(text) <= MAX_TEXT and _bad_char(text) is None:
        return text
    cleaned = "".join(" " if (ch in _BIDI or unicodedata.category(ch) in _NOT_PLAIN) else ch for ch in text)
    return cleaned[:MAX_TEXT]


class Column(BaseModel):
    """A column: its head, how its cells align (l, c, r) and its width relative to the others.

    Also accepted as a triple `(label, align, weight)`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    label: Text
    align: Literal["l", "c", "r"] = "l"
    weight: float = Field(default=1.0, gt=0, le=100, description="relative width; widths share the image width")

    @model_validator(mode="before")
    @classmethod
    def _from_triple(cls, data: Any) -> Any:
        if isinstance(data, list | tuple):
            return dict(zip(("label", "align", "weight"), data))
        return data

    @field_validator("label")
    @classmethod
    def _plain_label(cls, value: str) -> str:
        return _plain_checked(value, "column label")


class TableRow(BaseModel):
    """One line of the table. Also accepted as a bare sequence of cell texts.

    - `highlight`: the asker's own row (drawn in the active colour, bold, with a bar on the left);
    - `muted`: a row out of the ranking (DNF, DSQ), printed grey;
    - `gap_before`: a "⋯" marker row comes before it (ranks skipped);
    - `detail`: free text under the cells, from the second column to the right edge, wrapped
      (why a driver is out of the round);
    - `struck`: the indices of cells drawn struck through (a round dropped from the standings).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    cells: tuple[Text, ...]
    highlight: bool = False
    muted: bool = False
    gap_before: bool = False
    detail: Text = ""
    struck: tuple[int, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _from_cells(cls, data: Any) -> Any:
        if isinstance(data, list | tuple):
            return {"cells": data}
        return data

    @field_validator("cells")
    @classmethod
    def _plain_cells(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for i, cell in enumerate(value):
            _plain_checked(cell, f"cell {i}")
        return value

    @field_validator("detail")
    @classmethod
    def _plain_detail(cls, value: str) -> str:
        return _plain_checked(value, "detail")


class TableView(BaseModel):
    """What a league table image shows: a title bar, column heads, up to MAX_ROWS rows, a footer note."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    title: Text
    subtitle: Text = Field(default="", description="one line under the title, e.g. the league and round")
    columns: tuple[Column, ...] = Field(min_length=1, max_length=MAX_COLUMNS)
    rows: tuple[TableRow, ...] = Field(default=(), max_length=MAX_ROWS)
    note: Text = Field(default="", description="footer text (wrapped), e.g. the seed to verify the round with")

    @field_validator("title", "subtitle", "note")
    @classmethod
    def _plain_text(cls, value: str) -> str:
        return _plain_checked(value, "title, subtitle or note")

    @model_validator(mode="after")
    def _cells_match_columns(self) -> TableView:
        for i, row in enumerate(self.rows):
            if len(row.cells) != len(self.columns):
                raise ValueError(f"row {i} has {len(row.cells)} cells, the table has {len(self.columns)} columns")
            if any(not 0 <= c < len(self.columns) for c in row.struck):
                raise ValueError(f"row {i} strikes a cell the table does not have")
        return self


# -- layout ------------------------------------------------------------------------------------------

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Band:
    """A horizontal strip of the table: a data row (`index` into view.rows) or a gap marker (-1)."""

    index: int
    box: Box
    kind: Literal["row", "gap"]
    highlight: bool = False
    muted: bool = False


@dataclass(frozen=True)
class Placed:
    """A text as drawn: its cell `box` (the text never leaves it), the `text` after fitting, its font,
    and the anchor point. `row` is the data row index, -1 for a column head, -2 for the other texts."""

    row: int
    col: int
    box: Box
    text: str
    size: int
    bold: bool
    xy: tuple[float, float]
    anchor: str
    ink: P.RGB
    struck: bool = False
    line: int = 0  # which line of a wrapped text (a row's detail: col -1; the note: row -2, col 0)

    @property
    def font(self) -> ImageFont.FreeTypeFont:
        return font(self.size, self.bold)


@dataclass(frozen=True)
class TableLayout:
    width: int
    height: int
    header_h: int
    head_box: Box
    bands: tuple[Band, ...]
    texts: tuple[Placed, ...]
    note_box: Box | None


def column_edges(view: TableView, options: RenderOptions) -> list[tuple[int, int]]:
    """(left, right) of each column: the weights share the width inside the margins."""
    left, right = options.px(PAD_X), options.width - options.px(PAD_X)
    total = sum(c.weight for c in view.columns)
    edges, acc = [left], 0.0
    for c in view.columns:
        acc += c.weight
        edges.append(left + round((right - left) * acc / total))
    edges[-1] = right
    return list(zip(edges[:-1], edges[1:]))


def fit(text: str, f: ImageFont.FreeTypeFont, max_width: float) -> str:
    """`text` cut with an ellipsis to fit `max_width`, like fonts.fit_text but by binary search, so a
    1,000-character name costs a dozen measures instead of a thousand. A cell too narrow for even one
    letter shows "…" alone (something was there), or nothing when not even that fits."""
    if f.getlength(text) <= max_width:
        return text
    lo, hi = 0, len(text) - 1  # the longest prefix that fits with its ellipsis is text[:lo]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if f.getlength(text[:mid] + "…") <= max_width:
            lo = mid
        else:
            hi = mid - 1
    # kerning makes width only nearly monotonic in length: fit_text trims what still sticks out
    if lo == 0:
        return "…" if f.getlength("…") <= max_width else ""
    return fit_text(text[:lo].rstrip() + "…", f, max_width)


def wrap(text: str, f: ImageFont.FreeTypeFont, max_width: float, max_lines: int = MAX_LINES) -> list[str]:
    """`text` broken into at most `max_lines` lines that each fit `max_width`: at spaces, or inside
    a word too long for a line; only what still does not fit ends the last line with "…"."""
    lines: list[str] = []
    rest = " ".join(text.split())
    while rest and len(lines) < max_lines - 1:
        if f.getlength(rest) <= max_width:
            break
        head = fit(rest, f, max_width)[:-1]  # the longest prefix that fits with room for "…"
        cut = head.rfind(" ")
        if cut > 0 and rest[len(head):len(head) + 1] != " ":
            head = head[:cut]  # break at the last space that fits, not inside a word
        if not head.strip():
            break
        lines.append(head.rstrip())
        rest = rest[len(head):].lstrip()
    if rest or not lines:
        lines.append(fit(rest, f, max_width))
    return lines


def _place(text: str, box: Box, align: str, size: int, bold: bool, ink: P.RGB, row: int, col: int,
           options: RenderOptions) -> Placed:
    x0, y0, x1, y1 = box
    pad = options.px(CELL_PAD)
    f = font(size, bold)
    fitted = fit(drawable(f, plain(shown(text, options.lang))), f, max(0, x1 - x0 - 2 * pad))
    cy = (y0 + y1) / 2
    xy: tuple[float, float]
    if align == "r":
        xy, anchor = (x1 - pad, cy), "rm"
    elif align == "c":
        xy, anchor = ((x0 + x1) / 2, cy), "mm"
    else:
        xy, anchor = (x0 + pad, cy), "lm"
    return Placed(row, col, box, fitted, size, bold, xy, anchor, ink)


def _place_lines(text: str, box: Box, size: int, ink: P.RGB, row: int, col: int,
                 options: RenderOptions) -> list[Placed]:
    """`text` wrapped in the width of `box`, from its top: one left-aligned `Placed` per line,
    each in its own strip of LINE_H."""
    x0, y0, x1, _ = box
    pad, line_h = options.px(CELL_PAD), options.px(LINE_H)
    lines = wrap(drawable(font(size), plain(shown(text, options.lang))), font(size), max(0, x1 - x0 - 2 * pad))
    return [Placed(row, col, (x0, y0 + i * line_h, x1, y0 + (i + 1) * line_h), line, size, False,
                   (x0 + pad, y0 + (i + 0.5) * line_h), "lm", ink, line=i) for i, line in enumerate(lines)]


def _detail_height(text: str, width: int, options: RenderOptions) -> int:
    if not text:
        return 0
    pad = options.px(CELL_PAD)
    lines = wrap(plain(shown(text, options.lang)), font(options.px(MIN_FONT_PX)), max(0, width - 2 * pad))
    return len(lines) * options.px(LINE_H)


def layout(view: TableView, options: RenderOptions | None = None) -> TableLayout:
    """Where every band and every text of the table goes, and the texts as fitted in their cells."""
    options = options or DEFAULT_OPTIONS
    px, w = options.px, options.width
    cols = column_edges(view, options)
    texts: list[Placed] = []
    y = px(HEADER_H)
    head_box = (0, y, w, y + px(HEAD_ROW_H))
    for c, ((x0, x1), column) in enumerate(zip(cols, view.columns)):
        texts.append(_place(column.label, (x0, head_box[1], x1, head_box[3]), column.align, px(MIN_FONT_PX), True,
                            P.PANEL_MUTED, -1, c, options))
    y = head_box[3]
    bands: list[Band] = []
    body = px(BODY_PX)
    for i, row in enumerate(view.rows):
        if row.gap_before:
            bands.append(Band(-1, (0, y, w, y + px(GAP_H)), "gap"))
            texts.append(_place(GAP_MARK, (0, y, w, y + px(GAP_H)), "c", body, True, P.PANEL_MUTED, -2, 0, options))
            y += px(GAP_H)
        detail_x0 = cols[1][0] if len(cols) > 1 else cols[0][0]
        detail_h = _detail_height(row.detail, w - px(PAD_X) - detail_x0, options)
        box = (0, y, w, y + px(ROW_H) + detail_h)
        bands.append(Band(i, box, "row", row.highlight, row.muted))
        ink = P.PANEL_MUTED if row.muted else P.PANEL_TEXT
        for c, ((x0, x1), column) in enumerate(zip(cols, view.columns)):
            cell_ = _place(row.cells[c], (x0, y, x1, y + px(ROW_H)), column.align, body, row.highlight, ink,
                           i, c, options)
            texts.append(replace(cell_, struck=True) if c in row.struck else cell_)
        if detail_h:
            texts += _place_lines(row.detail, (detail_x0, y + px(ROW_H) - px(CELL_PAD), w - px(PAD_X), box[3]),
                                  px(MIN_FONT_PX), ink, i, -1, options)
        y = box[3]
    if not view.rows:
        texts.append(_place(EMPTY_MARK, (0, y, w, y + px(ROW_H)), "c", body, False, P.PANEL_MUTED, -2, 0, options))
        y += px(ROW_H)
    note_box = None
    if view.note:
        left, right = px(PAD_X), w - px(PAD_X)
        lines = _place_lines(view.note, (left, y + px(NOTE_H - LINE_H) // 2, right, y + px(NOTE_H)), px(MIN_FONT_PX),
                             P.PANEL_MUTED, -2, 0, options)
        note_box = (0, y, w, max(y + px(NOTE_H), lines[-1].box[3] + px(NOTE_H - LINE_H) // 2))
        texts += lines
        y = note_box[3]
    return TableLayout(w, y + px(PAD_BOTTOM), px(HEADER_H), head_box, tuple(bands), tuple(texts), note_box)


# -- drawing -----------------------------------------------------------------------------------------

def _draw_clipped(img: Image.Image, t: Placed) -> None:
    """Draw `t` through a mask the size of its cell: whatever the glyphs, no pixel lands outside."""
    x0, y0, x1, y1 = t.box
    if not t.text or x1 <= x0 or y1 <= y0:
        return
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    mask_draw = ImageDraw.Draw(mask)
    mask_draw.text((t.xy[0] - x0, t.xy[1] - y0), t.text, font=t.font, fill=255, anchor=t.anchor)
    if t.struck:  # a line through the text, a little wider than it
        a, _, b, _ = t.font.getbbox(t.text, anchor=t.anchor)
        left, right = t.xy[0] - x0 + a - t.size * 0.2, t.xy[0] - x0 + b + t.size * 0.2
        cy = t.xy[1] - y0
        mask_draw.line((left, cy, right, cy), fill=255, width=max(2, round(t.size / 10)))
    img.paste(t.ink, t.box, mask)


def table_image(view: TableView, options: RenderOptions | None = None) -> Image.Image:
    """The table as an RGB image `options.width` wide, as tall as its rows."""
    options = options or DEFAULT_OPTIONS
    lay = layout(view, options)
    px = options.px
    img = Image.new("RGB", (lay.width, lay.height), P.PANEL_BG)
    draw_header(img, view.title, 0, view.subtitle, lay.header_h, options)
    d = ImageDraw.Draw(img)
    d.line((px(PAD_X), lay.head_box[3] - 1, lay.width - px(PAD_X), lay.head_box[3] - 1), fill=P.PANEL_MUTED,
           width=max(1, px(2)))
    zebra = 0
    for band in lay.bands:
        x0, y0, x1, y1 = band.box
        if band.kind == "gap":
            d.rectangle((x0, y0, x1 - 1, y1 - 1), fill=P.PANEL_BG)
            continue
        bg = P.PANEL_ACTIVE if band.highlight else (P.PANEL_ALT if zebra % 2 else P.PANEL_BG)
        zebra += 1
        d.rectangle((x0, y0, x1 - 1, y1 - 1), fill=bg)
        if band.highlight:
            d.rectangle((x0, y0, x0 + px(HIGHLIGHT_BAR) - 1, y1 - 1), fill=P.BLACK)
    if lay.note_box is not None:
        d.line((px(PAD_X), lay.note_box[1], lay.width - px(PAD_X), lay.note_box[1]), fill=P.PANEL_ALT,
               width=max(1, px(2)))
    for t in lay.texts:
        _draw_clipped(img, t)
    return img

