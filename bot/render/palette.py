"""Every colour of the images, in one place.

Driver colours are the Okabe–Ito palette (safe for the common colour-vision deficiencies); a car
also always shows its driver's initials, so colour is never the only cue. Terrain colours follow
the board game's look (grass green, forest dark green, rocks grey ...); snow-side zones are
drawn whitish (RULES A20).
"""

from __future__ import annotations

RGB = tuple[int, int, int]

#: Okabe & Ito (2008), ordered so the first four cars are the most distinct on grey asphalt.
CAR_COLOURS: tuple[RGB, ...] = (
    (230, 159, 0),    # orange
    (86, 180, 233),   # sky blue
    (0, 158, 115),    # bluish green
    (240, 228, 66),   # yellow
    (204, 121, 167),  # reddish purple
    (213, 94, 0),     # vermillion
    (0, 114, 178),    # blue
    (0, 0, 0),        # black
)
CAR_NAMES = ("orange", "sky blue", "green", "yellow", "purple", "vermillion", "blue", "black")


def car_colour(index: int) -> RGB:
    """The colour of seat `index` (wraps round after eight cars)."""
    return CAR_COLOURS[index % len(CAR_COLOURS)]


def luminance(c: RGB) -> float:
    """Relative luminance (WCAG), to choose black or white text on a colour."""
    def lin(v: int) -> float:
        s = v / 255.0
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(c: RGB) -> tuple[RGB, RGB]:
    """(text colour, outline colour) that read best on background `c`."""
    return ((0, 0, 0), (255, 255, 255)) if luminance(c) > 0.22 else ((255, 255, 255), (0, 0, 0))


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """`a` moved a fraction `t` towards `b`."""
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b))  # type: ignore[return-value]


#: terrain beside the road, by name (a game's terrain enum of `str` finds its colour here too)
TERRAIN: dict[str, RGB] = {
    "grass": (126, 176, 95),
    "dirt": (186, 146, 96),
    "snow": (238, 243, 248),
    "forest": (38, 102, 56),
    "rocks": (140, 134, 124),
    "village": (196, 110, 92),
    "water": (70, 140, 200),
}
#: how far a terrain colour is bleached towards white on a snow-side zone
SNOW_BLEACH = 0.6

WHITE: RGB = (255, 255, 255)
BLACK: RGB = (0, 0, 0)
PAPER: RGB = (226, 222, 210)
ZONE_TINTS: tuple[RGB, ...] = ((214, 224, 196), (228, 218, 194))
SNOW_TINT: RGB = (244, 247, 251)
ASPHALT: RGB = (88, 92, 98)
ASPHALT_LINE: RGB = (236, 236, 232)
SNOW_ROAD: RGB = (196, 208, 221)
SNOW_LINE: RGB = (96, 112, 132)
SHORTCUT: RGB = (150, 104, 60)
ROAD_EDGE: RGB = (40, 42, 46)
BUMP: RGB = (240, 200, 40)
START_RED: RGB = (214, 39, 40)
FINISH_YELLOW: RGB = (250, 210, 40)
SPLIT: RGB = (123, 50, 148)
DIRT_MARKER: RGB = (110, 70, 30)
HAZARD_RED: RGB = (220, 30, 30)
HALO: RGB = (255, 255, 255)

HEADER_BG: RGB = (32, 36, 44)
HEADER_TEXT: RGB = (245, 245, 245)
HEADER_MUTED: RGB = (190, 196, 206)
PANEL_BG: RGB = (246, 245, 241)
PANEL_ALT: RGB = (234, 232, 226)
PANEL_ACTIVE: RGB = (255, 240, 190)
PANEL_TEXT: RGB = (20, 22, 26)
PANEL_MUTED: RGB = (110, 112, 118)
OVERVIEW_BG: RGB = (206, 202, 190)
