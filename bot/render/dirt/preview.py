"""The preview of a DIRT stage: the whole stage with its figures (speed limits, slides, shortcuts,
jumps, one-lane points, start and finish), its facts in the header, a legend of the figures under
it and the "provisional rules" band (B13). Every word in `options.lang`.

The map is the static layer of the preview's layout (kept like a board's, so a second preview of
the stage costs an encode).
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.dirt.stages.model import DirtStage, SpaceKind
from bot.render import palette as P
from bot.render.dirt import colours as C
from bot.render.dirt.labels import draw_labels
from bot.render.dirt.layout import board_layout
from bot.render.dirt.panel import BAND_H, draw_provisional
from bot.render.dirt.static_layer import static_layer
from bot.render.drawing import dashed, text_centered
from bot.render.fonts import BOARD_FONT_PX, font
from bot.render.header import draw_header
from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.textbox import TextBox, fit_box
from bot.render.words import counted, word

ROW_H = 56
LEGEND = ("limit", "slide", "shortcut", "jump", "narrow")
#: each legend entry's word (tests check every language has each)
LEGEND_WORDS = {"limit": "dirt_legend_limit", "slide": "dirt_legend_slide", "shortcut": "dirt_legend_shortcut",
                "jump": "dirt_legend_jump", "narrow": "dirt_legend_narrow"}
GLYPH_W = 84


def facts(stage: DirtStage, lang: str) -> str:
    """"14 tiles · 6 corners · 1 shortcut"."""
    corners = sum(1 for t in stage.tiles if t.kind != "straight")
    shortcuts = sum(1 for s in stage.spaces if s.kind is SpaceKind.SHORTCUT)
    return " · ".join([counted("dirt_tiles", len(stage.tiles), lang), counted("fact_corners", corners, lang),
                       counted("dirt_shortcuts", shortcuts, lang)])


def legend_texts(top: int, options: RenderOptions) -> list[TextBox]:
    """The legend's words, one entry per line, each fitted to the room right of its glyph."""
    px = options.px
    out = []
    for i, entry in enumerate(LEGEND):
        y = top + px(ROW_H) * i
        out.append(fit_box(word(LEGEND_WORDS[entry], options.lang), (px(GLYPH_W + 24), y, options.width - px(12),
                                                                       y + px(ROW_H)),
                           px(BOARD_FONT_PX), P.PANEL_TEXT, min_size=px(BOARD_FONT_PX), pad=px(6),
                           what=f"legend {entry}"))
    return out


def _glyph(d: ImageDraw.ImageDraw, entry: str, cx: float, cy: float, options: RenderOptions) -> None:
    px = options.px
    if entry == "limit":
        r = px(19)
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=C.LIMIT_FACE, outline=C.LIMIT_RING, width=px(4))
        text_centered(d, (cx, cy), "4", font(px(BOARD_FONT_PX), bold=True), P.BLACK)
    elif entry == "slide":
        box = [(cx - px(34), cy - px(18)), (cx + px(34), cy - px(18)), (cx + px(34), cy + px(18)),
               (cx - px(34), cy + px(18))]
        d.polygon(box, fill=C.GRAVEL)
        for a, b in zip(box, box[1:] + box[:1]):
            dashed(d, a, b, C.SLIDE_LINE, px(3), px(6))
        dashed(d, (cx, cy - px(18)), (cx, cy + px(18)), C.SLIDE_LINE, px(3), px(6))
    elif entry == "shortcut":
        r = px(19)
        d.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=r * 0.3, fill=C.LIMIT_FACE, outline=C.SHORTCUT,
                            width=px(4))
        text_centered(d, (cx, cy), "2", font(px(BOARD_FONT_PX), bold=True), P.BLACK)
    elif entry == "jump":
        d.line([(cx - px(34), cy), (cx + px(34), cy)], fill=C.JUMP, width=px(10))
        dashed(d, (cx - px(34), cy), (cx + px(34), cy), P.BLACK, px(10), px(9))
    else:  # a one-lane point: the road narrows to one lane
        d.polygon([(cx - px(38), cy - px(18)), (cx - px(14), cy - px(9)), (cx + px(38), cy - px(9)),
                   (cx + px(38), cy + px(9)), (cx - px(14), cy + px(9)), (cx - px(38), cy + px(18))],
                  fill=C.GRAVEL, outline=C.ROAD_EDGE)


def preview_image(stage: DirtStage, options: RenderOptions | None = None) -> Image.Image:
    """The whole stage, its facts, a legend and the provisional-rules band, as an RGB image."""
    options = options or DEFAULT_OPTIONS
    px = options.px
    layout = board_layout(stage, options, preview=True)
    legend_top = layout.map_top + layout.map_size[1] + px(10)
    band_top = legend_top + px(ROW_H) * len(LEGEND) + px(10)
    img = Image.new("RGB", (options.width, band_top + px(BAND_H)), P.PANEL_BG)
    img.paste(static_layer(stage, layout, options), (0, layout.map_top))
    d = ImageDraw.Draw(img)
    draw_labels(d, stage, layout.frame.shifted(0, layout.map_top), options,
                (0, layout.map_top, layout.map_size[0], layout.map_top + layout.map_size[1]))
    for i, entry in enumerate(LEGEND):
        _glyph(d, entry, px(12 + GLYPH_W / 2), legend_top + px(ROW_H) * (i + 0.5), options)
    for t in legend_texts(legend_top, options):
        t.draw(d)
    draw_header(img, stage.title, 0, facts(stage, options.lang), layout.header_h, options)
    draw_provisional(d, band_top, options)
    return img
