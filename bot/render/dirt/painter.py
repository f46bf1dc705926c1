"""DIRT's painter (bot.render.painter `Painter`), which the registry (bot.games) hands the bot's
drawing: the board after a turn (the stage and the board view), the results card, the stage's
preview, and the static layers of a render worker (a stage's name: DIRT has no weather).

Every picture says "provisional rules" in the reader's language (RULES B13).
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image

from bot.engine.dirt.stages.catalogue import load_stage
from bot.engine.dirt.stages.model import DirtStage
from bot.engine.dirt.view import BoardView, ResultsView
from bot.render.dirt import static_layer
from bot.render.dirt.board import board_image
from bot.render.dirt.layout import board_layout
from bot.render.dirt.preview import preview_image
from bot.render.dirt.results import results_image
from bot.render.options import RenderOptions
from bot.render.painter import Painter


class DirtPainter:
    """DIRT's pictures (see the module's docstring)."""

    def board(self, board: tuple[DirtStage, BoardView], options: RenderOptions) -> Image.Image:
        return board_image(*board, options)

    results = staticmethod(results_image)  # the classification card
    preview = staticmethod(preview_image)  # the whole stage and its legend

    def layer(self, stage: str) -> str:
        return stage

    def warm(self, layer: str, options: RenderOptions) -> str:
        stage = load_stage(layer)
        return static_layer.warm_layer(stage, board_layout(stage, options), options)

    def worker_init(self) -> None:
        """A layer nobody drew yet is drawn window first (the bot warms the rest)."""
        static_layer.WINDOW_FIRST = True

    def begin_draw(self) -> int:
        return static_layer.stats.windows

    def layer_to_warm(self, before: int, kind: str, data: Mapping[str, object]) -> str | None:
        """The board's stage, when it drew only its window."""
        if kind != "board" or static_layer.stats.windows == before:
            return None
        return str(data["stage"])


#: the one painter of the game, checked against the shared seam
PAINTER: Painter[tuple[DirtStage, BoardView], ResultsView, DirtStage, str] = DirtPainter()
