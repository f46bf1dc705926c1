"""A stage under a given weather: the same stage with exactly these zones on their snow side.

Kept apart from the weather rules (bot/engine/rallyman/weather.py) because the game state needs it to
rebuild a special's stage from JSON, and the weather rules need the game state.
"""

from __future__ import annotations

from bot.engine.rallyman.stages.model import Stage

_WEATHERED: dict[tuple[int, frozenset[str]], tuple[Stage, Stage]] = {}


def with_weather(stage: Stage, snow: tuple[str, ...] | list[str]) -> Stage:
    """`stage` with exactly the zones `snow` on their snow side (memoised per stage object: the
    engine's own caches key on the stage's identity, so the same weather gives the same copy)."""
    zones = frozenset(snow)
    if zones == stage.snow_zones:
        return stage
    key = (id(stage), zones)
    entry = _WEATHERED.get(key)
    if entry is None or entry[0] is not stage:  # the entry keeps its base alive: ids stay unique
        if len(_WEATHERED) > 2_000:
            _WEATHERED.clear()
        entry = _WEATHERED[key] = (stage, stage.model_copy(update={"snow_zones": zones}))
    return entry[1]
