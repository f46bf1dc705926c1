"""The stage preview posted when a rally is created: the whole stage, its figures and legends.

No cars, so the whole stage is drawn (taller if needed) with, below it, the stage's figures and
each zone's damage legend (black dice lost per terrain, RULES A12.1) with terrain swatches.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.stage_model import Stage, Terrain
from bot.render import palette as P
from bot.render.fonts import MIN_FONT_PX, fit_text, font
from bot.render.layout import board_layout
from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.panel import draw_header
from bot.render.static_layer import static_layer
from bot.render.words import LABELS_COUNTED

ZONE_ROW_H = 84


def preview_image(stage: Stage, options: RenderOptions | None = None) -> Image.Image:
    options = options or DEFAULT_OPTIONS
    px = options.px
    layout = board_layout(stage, options, preview=True)
    static = static_layer(stage, layout, frozenset(stage.snow_zones), options)
    legend_h = px(20) + px(ZONE_ROW_H) * len(stage.zone_order) + px(16)
    canvas = Image.new("RGB", (options.width, layout.map_top + static.height + legend_h), P.PANEL_BG)
    canvas.paste(static, (0, layout.map_top))
    facts = stage_facts(stage)
    draw_header(canvas, stage.title, 0, facts, layout.header_h, options)
    _legends(canvas, stage, layout.map_top + static.height + px(10), options)
    return canvas


def stage_facts(stage: Stage) -> str:
    """"34 spaces · 4 corners · 5 bumps · 2 shortcuts · 1 split"."""
    counts = {"spaces": stage.length, **stage.counts()}
    return " · ".join(f"{n} {LABELS_COUNTED['fact_' + key][0 if n == 1 else 1]}" for key, n in counts.items())


def _legends(canvas: Image.Image, stage: Stage, y: int, options: RenderOptions) -> None:
    d = ImageDraw.Draw(canvas)
    px = options.px
    bold, small = font(px(26), bold=True), font(px(MIN_FONT_PX))
    for letter in stage.zone_order:
        zone = stage.zones[letter]
        snowy = letter in stage.snow_zones
        legend = zone.legend_snow if snowy else zone.legend_dry
        title = f"{zone.letter} · {zone.name}" + ("  ❄ snow side" if snowy else "")
        d.text((px(20), y + px(6)), fit_text(title, bold, options.width - px(40)), font=bold, fill=P.PANEL_TEXT)
        x: float = px(20)
        cy = y + px(58)
        for terrain in Terrain:
            if terrain not in legend:
                continue
            colour = P.TERRAIN[terrain]
            if snowy:
                colour = P.mix(colour, P.WHITE, P.SNOW_BLEACH)
            s = px(24)
            d.rectangle((x, cy - s / 2, x + s, cy + s / 2), fill=colour, outline=P.ROAD_EDGE, width=1)
            text = f"{terrain.value} {legend[terrain]}"
            d.text((x + s + px(6), cy), text, font=small, fill=P.PANEL_TEXT, anchor="lm")
            x += s + px(6) + small.getlength(text) + px(18)
        y += px(ZONE_ROW_H)
