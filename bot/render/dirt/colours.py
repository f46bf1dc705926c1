"""DIRT's own colours (the shared ones are in `bot.render.palette`): gravel road on grass hexes,
road-sign limit circles, the dice by kind as the box colours them (B1: black gear, white coast,
orange leader, red brake)."""

from __future__ import annotations

from bot.render.palette import RGB

GROUND: RGB = (104, 150, 84)
TILE: RGB = (146, 184, 112)
TILE_EDGE: RGB = (86, 120, 70)
GRAVEL: RGB = (196, 170, 128)
GRAVEL_INSIDE: RGB = (178, 150, 108)
SPACE_LINE: RGB = (246, 238, 220)
ROAD_EDGE: RGB = (92, 72, 48)
SLIDE_LINE: RGB = (40, 40, 120)
SLIDE_TINT: RGB = (188, 178, 170)
SHORTCUT: RGB = (140, 96, 56)
LIMIT_RING: RGB = (200, 30, 30)
LIMIT_FACE: RGB = (255, 255, 255)
LOWERED_FACE: RGB = (255, 214, 214)
JUMP: RGB = (250, 204, 40)
PATH: RGB = (255, 255, 255)
MINUS_CHIP: RGB = (170, 20, 20)
DICE: dict[str, tuple[RGB, RGB]] = {  # die kind → (face, ink)
    "gear": ((24, 24, 24), (255, 255, 255)),
    "coast": ((250, 250, 250), (20, 20, 20)),
    "leader": ((240, 140, 20), (20, 20, 20)),
    "brake": ((200, 30, 30), (255, 255, 255)),
}
#: the ⚠ on a die of each kind: what reads best on its face
HAZARD_INK: dict[str, RGB] = {"gear": (250, 210, 40), "coast": (220, 30, 30), "leader": (20, 20, 20),
                              "brake": (250, 210, 40)}
PROVISIONAL_BG: RGB = (255, 214, 110)
PROVISIONAL_TEXT: RGB = (40, 30, 0)
