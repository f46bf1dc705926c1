"""The picture seam: what every game's pictures do (`Painter`), and what is shared by them all:
the board frame (`board_canvas`: header, map band, panel, in that order; `paste_window`: the
part of a static layer a camera window shows) and the encoding
(`png`). bot.spec_drawing draws any game's picture through its painter, which the registry
(bot.games `painter`) hands out, imported on first use (Pillow).

A painter is typed by its game's own data: what a board is drawn from (classic and DIRT: the
stage and the board view; Road Rally USA: the road, the spectators' view and the seats' names),
what a results card and a preview are drawn from, and its static layer (classic: a stage under
a weather; the others: a stage's name). A game's own options (classic's weather) live in its own
types, never in the shared signatures.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol, TypeVar

from PIL import Image

from bot.render.encode import to_png
from bot.render.fonts import BOARD_FONT_PX
from bot.render.frame import window_box
from bot.render.header import draw_header
from bot.render.options import DEFAULT_OPTIONS, RenderOptions

BoardT = TypeVar("BoardT", contravariant=True)
ResultsT = TypeVar("ResultsT", contravariant=True)
StageT = TypeVar("StageT", contravariant=True)
LayerT = TypeVar("LayerT")


class Painter(Protocol[BoardT, ResultsT, StageT, LayerT]):
    """A game's pictures, pure Pillow: its data and the options in, an RGB image out (`png`
    encodes it), plus the hooks of a render worker's static layers."""

    def board(self, board: BoardT, options: RenderOptions) -> Image.Image:
        """The board after a turn (also a frame of an animated replay)."""
        ...

    def results(self, results: ResultsT, options: RenderOptions) -> Image.Image:
        """The classification card."""
        ...

    def preview(self, stage: StageT, options: RenderOptions) -> Image.Image:
        """The whole stage (or course) with its legend, before a rally."""
        ...

    def layer(self, stage: str) -> LayerT:
        """The static layer of a stage by its name, as a new rally shows it (its fixed weather)."""
        ...

    def warm(self, layer: LayerT, options: RenderOptions) -> str:
        """Draws `layer` whole, kept in memory and on disk; its file name ("" when none is kept)."""
        ...

    def worker_init(self) -> None:
        """In a render worker, once: the game's own set-up (classic: new layers drawn window first)."""
        ...

    def begin_draw(self) -> int:
        """Before a picture in a worker: the count of window-only layers so far."""
        ...

    def layer_to_warm(self, before: int, kind: str, data: Mapping[str, object]) -> LayerT | None:
        """After a picture in a worker (`before`: what `begin_draw` gave): the layer to warm when this
        board drew only its window, else None."""
        ...


@dataclass(frozen=True)
class Header:
    """The header band's texts (bot.render.header): title, round, status line, and the special being
    driven with the rally's count ((0, 0): none shown)."""

    title: str
    round: int
    status: str
    special: tuple[int, int] = (0, 0)


def board_canvas(options: RenderOptions, header: Header, header_h: int, panel_top: int, height: int,
                 paint_map: Callable[[Image.Image], None], paint_panel: Callable[[Image.Image, int], None],
                 background: tuple[int, int, int] | None = None) -> Image.Image:
    """Every game's board frame: a canvas `options.width` × `height` (`background`: None when every
    pixel is painted), the map band (`paint_map`), the header on top (`header_h` high), then the
    panel from `panel_top` down (`paint_panel(canvas, panel_top)`)."""
    canvas = Image.new("RGB", (options.width, height), background)
    paint_map(canvas)
    draw_header(canvas, header.title, header.round, header.status, header_h, options, header.special,
                BOARD_FONT_PX)
    paint_panel(canvas, panel_top)
    return canvas


def paste_window(canvas: Image.Image, map_top: int, window: tuple[int, int], layer: tuple[int, int],
                 origin: tuple[int, int], ground: tuple[int, int, int],
                 crop: Callable[[tuple[int, int, int, int]], Image.Image]) -> None:
    """Every game's map window: the part of its static layer (`layer` big) that a camera window
    (`window` big, its top-left corner at `origin` in the layer) shows, pasted in the map band from
    `map_top` down; `crop(box)` gives that part of the layer (a palette image, converted by the paste),
    and the band is painted `ground` first where the layer leaves it bare."""
    ox, oy = origin
    (x0, y0, x1, y1), bare = window_box(origin, window, layer)
    if bare or window[0] != canvas.width:  # the layer leaves some of the band bare
        canvas.paste(ground, (0, map_top, canvas.width, map_top + window[1]))
    canvas.paste(crop((x0, y0, x1, y1)), (x0 - ox, map_top + y0 - oy))


def png(image: Image.Image, options: RenderOptions = DEFAULT_OPTIONS) -> bytes:
    """A finished picture's PNG bytes, as the options ask (bot.render.encode)."""
    return to_png(image, options.compress_level, options.palette)
