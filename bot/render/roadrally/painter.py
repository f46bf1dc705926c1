"""Road Rally USA's painter (bot.render.painter `Painter`), which the registry (bot.games) hands
the bot's drawing: the board after a move (the road, the spectators' view only, RULES C10.8, and
each seat's shown name), the results card (`ResultsData`, its texts already in the reader's
words), the course's preview. No static layer is kept yet (a standard course's board: ~12 ms to
draw, ~50 ms with its PNG, bench/render_roadrally.py): a layer is a course's name, and warming it
only draws its preview (fonts and text masks warm)."""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image

from bot.engine.roadrally.library import ROADRALLY_COURSES
from bot.engine.roadrally.picture_data import ResultsData
from bot.engine.roadrally.road import Road
from bot.engine.roadrally.view import RRView
from bot.render.options import RenderOptions
from bot.render.painter import Painter
from bot.render.roadrally.board import board_image, preview_image
from bot.render.roadrally.results import results_image


class RoadRallyPainter:
    """Road Rally USA's pictures (see the module's docstring)."""

    def board(self, board: tuple[Road, RRView, Mapping[str, str]], options: RenderOptions) -> Image.Image:
        road, view, names = board
        return board_image(road, view, options, names)

    results = staticmethod(results_image)  # the classification card
    preview = staticmethod(preview_image)  # the whole stage and its legend

    def layer(self, stage: str) -> str:
        return stage

    def warm(self, layer: str, options: RenderOptions) -> str:
        preview_image(ROADRALLY_COURSES.road(layer), options)
        return ""

    def worker_init(self) -> None:
        """Nothing to set up: no static layer is kept."""

    def begin_draw(self) -> int:
        return 0

    def layer_to_warm(self, before: int, kind: str, data: Mapping[str, object]) -> None:
        """No layer to warm: every picture is drawn whole."""
        return None


#: the one painter of the game, checked against the shared seam
PAINTER: Painter[tuple[Road, RRView, Mapping[str, str]], ResultsData, Road, str] = RoadRallyPainter()
