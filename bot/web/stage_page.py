"""A stage's page: its facts from its game's library (`StageFacts`: length, corners, zones …)
and its preview picture (`images.preview_spec`, drawn by the render workers). A name the
library does not know is a 404; names are checked before the library reads anything."""

from __future__ import annotations

import re
from typing import Any

from bot import games
from bot.engine.core.errors import RallyError
from bot.engine.core.game import Game, StageFacts

#: a stage name as the libraries write them (shipped and generated): anything else is not looked up
STAGE_NAME = re.compile(r"[a-z0-9][a-z0-9._:-]{0,79}")


def stage_of(game_id: str, name: str) -> tuple[Game[Any, Any], StageFacts] | None:
    """The game and the stage's facts, or None for an unknown game or stage."""
    if game_id not in games.ids() or not STAGE_NAME.fullmatch(name):
        return None
    game = games.get(game_id)
    try:
        if not game.stages.exists(name):
            return None
        return game, game.stages.facts(name)
    except (RallyError, ValueError, KeyError):
        return None
