"""The stage preview posted when a rally is created: the whole stage, its figures and legends.

No cars, so the whole stage is drawn (taller if needed) with, below it, the stage's figures and
each zone's damage legend (black dice lost per terrain, RULES A12.1) with terrain swatches. The
words (figures, terrains, "snow side") are in `options.lang`; a legend too long for one line wraps.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engine.rallyman.stages.model import Stage, Terrain
from bot.render import palette as P
from bot.render.fonts import BOARD_FONT_PX, font
from bot.render.header import draw_header, header_texts
from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.rallyman.layout import board_layout
from bot.render.rallyman.static_layer import static_layer
from bot.render.textbox import TextBox, fit_box
from bot.render.words import counted, word

ZONE_ROW_H = 84     # a zone's title and one line of terrain swatches
LEGEND_LINE_H = 36  # each further line of swatches, when the terrain words do not fit one line
SWATCH = 24
GAP = 4  # a text's cell begins this far before the text (a glyph may overhang its start)


@dataclass(frozen=True)
class Legend:
    """The legends under the map: texts (zone titles, terrain words), swatches, total height."""

    texts: tuple[TextBox, ...]
    swatches: tuple[tuple[tuple[float, float, float, float], P.RGB], ...]
    height: int


def preview_image(stage: Stage, options: RenderOptions | None = None) -> Image.Image:
    options = options or DEFAULT_OPTIONS
    layout = board_layout(stage, options, preview=True)
    static = static_layer(stage, layout, frozenset(stage.snow_zones), options)
    top = layout.map_top + static.height
    legend = legends(stage, top, options)
    canvas = Image.new("RGB", (options.width, top + legend.height), P.PANEL_BG)
    canvas.paste(static, (0, layout.map_top))
    draw_header(canvas, stage.title, 0, stage_facts(stage, options.lang), layout.header_h, options)
    d = ImageDraw.Draw(canvas)
    for box, colour in legend.swatches:
        d.rectangle(box, fill=colour, outline=P.ROAD_EDGE, width=1)
    for t in legend.texts:
        t.draw(d)
    return canvas


def preview_texts(stage: Stage, options: RenderOptions | None = None) -> list[TextBox]:
    """The header's and the legends' texts of the preview, each with its cell (for the tests)."""
    options = options or DEFAULT_OPTIONS
    layout = board_layout(stage, options, preview=True)
    top = layout.map_top + layout.static_size[1]
    return (header_texts(stage.title, 0, stage_facts(stage, options.lang), options.width, layout.header_h, options)
            + list(legends(stage, top, options).texts))


def stage_facts(stage: Stage, lang: str = "en") -> str:
    """"34 spaces · 4 corners · 5 bumps · 2 shortcuts · 1 split", in `lang`."""
    counts = {"spaces": stage.length, **stage.counts()}
    return " · ".join(counted("fact_" + key, n, lang) for key, n in counts.items())


def legends(stage: Stage, top: int, options: RenderOptions) -> Legend:
    """Each zone's title, then its terrains as swatch + "forest 1" (black dice lost there, A12.1),
    wrapped onto more lines when a language's words are too long for one."""
    px, lang, w = options.px, options.lang, options.width
    small = font(px(BOARD_FONT_PX))
    texts: list[TextBox] = []
    swatches: list[tuple[tuple[float, float, float, float], P.RGB]] = []
    y = top + px(10)
    for letter in stage.zone_order:
        zone = stage.zones[letter]
        snowy = letter in stage.snow_zones
        legend = zone.legend_snow if snowy else zone.legend_dry
        title = f"{zone.letter} · {zone.name}" + (f"  {word('snow_side', lang)}" if snowy else "")
        texts.append(fit_box(title, (px(20 - GAP), y, w - px(20 - GAP), y + px(44)), px(26), P.PANEL_TEXT, bold=True,
                             pad=px(GAP), top=y + px(6), what=f"zone {letter} title"))
        x: float = px(20)
        cy = y + px(58)
        s = px(SWATCH)
        for terrain in Terrain:
            if terrain not in legend:
                continue
            label = f"{word('terrain.' + terrain.value, lang)} {legend[terrain]}"
            item_w = s + px(6) + small.getlength(label)
            if x > px(20) and x + item_w > w - px(20):  # next line
                x, cy = px(20), cy + px(LEGEND_LINE_H)
            colour = P.TERRAIN[terrain]
            if snowy:
                colour = P.mix(colour, P.WHITE, P.SNOW_BLEACH)
            swatches.append(((x, cy - s / 2, x + s, cy + s / 2), colour))
            right = min(x + item_w + px(2), w - px(20)) + px(GAP)  # a word wider than a whole line is cut
            cell = (x + s + px(6 - GAP), cy - px(LEGEND_LINE_H) / 2, right, cy + px(LEGEND_LINE_H) / 2)
            texts.append(fit_box(label, cell, px(BOARD_FONT_PX), P.PANEL_TEXT, pad=px(GAP),
                                 what=f"zone {letter} {terrain.value}"))
            x += item_w + px(18)
        y = cy - px(58) + px(ZONE_ROW_H)
    return Legend(tuple(texts), tuple(swatches), y - top + px(26))
