"""Rallyman classic's painter (bot.render.painter `Painter`), which the registry (bot.games) hands
the bot's drawing: the board after a turn (the stage under its weather and the board view), the
results card, the stage's preview, and the static layers of a render worker (a stage under a
weather, `SnowLayer`: classic's own, the other games have no weather)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image

from bot.engine.rallyman.stages.catalogue import load_stage
from bot.engine.rallyman.stages.model import Stage
from bot.engine.rallyman.stages.weather import with_weather
from bot.engine.rallyman.view import BoardView, ResultsView
from bot.render.options import RenderOptions
from bot.render.painter import Painter
from bot.render.rallyman import static_layer
from bot.render.rallyman.board import board_image
from bot.render.rallyman.layout import board_layout
from bot.render.rallyman.preview import preview_image
from bot.render.rallyman.results import results_image

#: a worker hands freed memory back to the system every this many pictures (~4 ms, ~25 MB)
TRIM_EVERY = 100


@dataclass(frozen=True)
class SnowLayer:
    """A classic stage's static layer: its name and its weather (`snow`: the zones on their snow
    side; None: the stage's fixed weather)."""

    stage: str
    snow: tuple[str, ...] | None = None

    def __str__(self) -> str:
        return self.stage


class ClassicPainter:
    """Classic's pictures (see the module's docstring)."""

    def __init__(self) -> None:
        self._drawn = 0

    def board(self, board: tuple[Stage, BoardView], options: RenderOptions) -> Image.Image:
        return board_image(*board, options)

    results = staticmethod(results_image)  # the classification card
    preview = staticmethod(preview_image)  # the whole stage and its legend

    def layer(self, stage: str) -> SnowLayer:
        return SnowLayer(stage)

    def warm(self, layer: SnowLayer, options: RenderOptions) -> str:
        stage = load_stage(layer.stage)
        if layer.snow is not None:
            stage = with_weather(stage, layer.snow)
        return static_layer.warm_layer(stage, board_layout(stage, options), frozenset(stage.snow_zones), options)

    def worker_init(self) -> None:
        """A layer nobody drew yet is drawn window first (the bot warms the rest)."""
        static_layer.WINDOW_FIRST = True

    def begin_draw(self) -> int:
        """Now and then memory goes back to the system; the count of window-only layers so far."""
        self._drawn += 1
        if self._drawn % TRIM_EVERY == 0:
            static_layer.release_memory()
        return static_layer.stats.windows

    def layer_to_warm(self, before: int, kind: str, data: Mapping[str, object]) -> SnowLayer | None:
        """The board's stage with its zones on their snow side, when it drew only its window."""
        if kind != "board" or static_layer.stats.windows == before:
            return None
        zones = data["snow_zones"]
        assert isinstance(zones, (list, tuple))
        return SnowLayer(str(data["stage"]), tuple(sorted(str(zone) for zone in zones)))


#: the one painter of the game, checked against the shared seam
PAINTER: Painter[tuple[Stage, BoardView], ResultsView, Stage, SnowLayer] = ClassicPainter()
