"""Tiny pictograms on the terrain strips (tree, rock, house, wave, tuft), so that terrain — which
decides the damage of an excursion (RULES A11.3, A12.1) — is not told by colour alone."""

from __future__ import annotations

from PIL import ImageDraw

from bot.engine.rallyman.stages.model import Terrain
from bot.render import palette as P


def terrain_mark(draw: ImageDraw.ImageDraw, terrain: Terrain, colour: P.RGB, c, r: float) -> None:
    """A tiny pictogram of `terrain` at `c`: tree, rock, house, wave, tuft (none for dirt and snow)."""
    x, y = c
    ink = P.mix(colour, P.BLACK, 0.45) if P.luminance(colour) > 0.12 else P.mix(colour, P.WHITE, 0.45)
    w = max(1, round(r * 0.35))
    if terrain is Terrain.FOREST:
        draw.polygon([(x, y - r * 1.2), (x + r, y + r * 0.6), (x - r, y + r * 0.6)], fill=ink)
        draw.line([(x, y + r * 0.6), (x, y + r * 1.1)], fill=ink, width=w)
    elif terrain is Terrain.ROCKS:
        draw.polygon([(x - r, y + r * 0.7), (x - r * 0.4, y - r * 0.6), (x + r * 0.2, y - r * 0.2),
                      (x + r * 0.5, y - r * 0.8), (x + r, y + r * 0.7)], fill=ink)
    elif terrain is Terrain.VILLAGE:
        draw.rectangle((x - r * 0.7, y - r * 0.1, x + r * 0.7, y + r * 0.8), fill=ink)
        draw.polygon([(x - r * 0.9, y - r * 0.1), (x, y - r * 0.9), (x + r * 0.9, y - r * 0.1)], fill=ink)
    elif terrain is Terrain.WATER:
        for dy in (-r * 0.4, r * 0.4):
            draw.line([(x - r, y + dy), (x - r * 0.35, y + dy - r * 0.3), (x + r * 0.35, y + dy + r * 0.3),
                       (x + r, y + dy)], fill=ink, width=w)
    elif terrain is Terrain.GRASS:
        for dx in (-r * 0.5, 0, r * 0.5):
            draw.line([(x + dx, y + r * 0.6), (x + dx * 1.6, y - r * 0.6)], fill=ink, width=w)
