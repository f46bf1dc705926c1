"""Where a Road Rally USA course lands in an image: the race tiles' blocks and the scale.

The road's positions are course units (one square space per unit, RULES C2, C7); the tiles are
square blocks of the tile file's `size` units, laid again here with the engine's own layout
(`bot.engine.roadrally.course.layout.place`) so the tile boundaries drawn are exactly the laid
ones. The whole course is fitted to the image's width (a standard course is at most about 25 units
wide or tall, ~43 px per space at 1080 px: a space holds a 22 px letter or a car's initials).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bot.engine.roadrally.course.layout import place, turn_cell
from bot.engine.roadrally.course.tiles import load_tiles
from bot.engine.roadrally.road import Road
from bot.render.options import RenderOptions

Box = tuple[float, float, float, float]

#: largest pixels per space (a small sprint course is not blown up further), at 1080 px wide
MAX_PPU = 72.0
#: empty border around the course, in spaces
BORDER = 0.5


@dataclass(frozen=True)
class CourseLayout:
    """The course's scale and place in the image, and its tiles' blocks in course units. A course
    taller than wide is drawn turned a quarter clockwise (`turned`): a phone shows a picture at its
    width, so a long course laid across it keeps its spaces large and the board short."""

    ppu: float
    left: float                                  # pixel of the drawn course's left edge
    top: float                                   # pixel of the drawn course's top edge
    origin: tuple[float, float]                  # the course's smallest x and y (blocks included)
    units: tuple[float, float]                   # course width and height in units (as laid, not turned)
    blocks: tuple[tuple[Box, int], ...]          # (x0, y0, x1, y1) in course units, tile index
    turned: bool = False

    @property
    def shown(self) -> tuple[float, float]:
        """The drawn course's width and height in units (swapped when it is turned)."""
        return (self.units[1], self.units[0]) if self.turned else self.units

    @property
    def height(self) -> int:
        """The map's pixels from the image's top to its bottom border."""
        return round(self.top + (self.shown[1] + BORDER) * self.ppu)

    def point(self, x: float, y: float) -> tuple[float, float]:
        """The pixel of course point (x, y) (a space's centre is (x + 0.5, y + 0.5))."""
        u, v = x - self.origin[0], y - self.origin[1]
        if self.turned:  # a quarter clockwise: the course's top edge becomes the right edge
            u, v = self.units[1] - v, u
        return self.left + u * self.ppu, self.top + v * self.ppu

    def centre(self, x: float, y: float) -> tuple[float, float]:
        return self.point(x + 0.5, y + 0.5)

    def direction(self, dx: float, dy: float) -> tuple[float, float]:
        """A direction in course units as drawn (turned with the course)."""
        return (-dy, dx) if self.turned else (dx, dy)

    def box(self, x0: float, y0: float, x1: float, y1: float) -> Box:
        a, b = self.point(x0, y0)
        c, d = self.point(x1, y1)
        return min(a, c), min(b, d), max(a, c), max(b, d)


@lru_cache(maxsize=64)
def tile_blocks(road: Road) -> tuple[tuple[Box, int], ...]:
    """Each laid tile's block in the road's course units (the road's positions are shifted so
    the smallest x and y are 0; the blocks are shifted the same way)."""
    tiles = load_tiles()
    by_id = {t.id: t for t in tiles.tiles}
    placed = place([by_id[i] for i in road.tiles])
    size = tiles.size
    fx, fy = turn_cell(placed[0].tile.road[0], placed[0].turns, size)  # the road's first space
    dx = road.spaces[0].x - (placed[0].block[0] * size + fx)
    dy = road.spaces[0].y - (placed[0].block[1] * size + fy)
    return tuple(((p.block[0] * size + dx, p.block[1] * size + dy, (p.block[0] + 1) * size + dx,
                   (p.block[1] + 1) * size + dy), n) for n, p in enumerate(placed))


def course_layout(road: Road, options: RenderOptions, top: float = 0.0, room: float | None = None) -> CourseLayout:
    """The course fitted to the image's width (turned when it is taller than wide), its map starting
    `top` pixels down and, with `room`, at most that many pixels tall (borders included)."""
    blocks = tile_blocks(road)
    x0, y0 = min(b[0][0] for b in blocks), min(b[0][1] for b in blocks)
    w = max(b[0][2] for b in blocks) - x0
    h = max(b[0][3] for b in blocks) - y0
    turned = h > w
    shown_w, shown_h = (h, w) if turned else (w, h)
    ppu = min(options.width / (shown_w + 2 * BORDER), MAX_PPU * options.scale)
    if room is not None:
        ppu = min(ppu, room / (shown_h + 2 * BORDER))
    return CourseLayout(ppu, (options.width - shown_w * ppu) / 2, top + BORDER * ppu, (x0, y0), (w, h), blocks,
                        turned)
