"""A stage's page: its facts from its game's library (`StageFacts`: length, corners, zones …)
and its preview picture (`images.preview_spec`, drawn by the render workers). A name the
library does not know is a 404; names are checked before the library reads anything.

Only stages in public use are shown (`shown`): the shipped ones, the world weeks' official ones
(this week's, and every week the game had a world round), and those a published rally or a public
league's round drives. Any other generated stage (`gen-N`: the generator makes one for every
number) is a 404 before anything is generated or drawn: a reader cannot make the site draw and
keep on disk a new layer per request."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from bot import games
from bot.engine.core.errors import RallyError
from bot.engine.core.game import Game, StageFacts
from bot.engine.core.official import week_of
from bot.store import Store
from bot.store.connection import Tx
from bot.store.web import stage_published_tx, world_weeks_tx

#: a stage name as the libraries write them (shipped and generated): anything else is not looked up
STAGE_NAME = re.compile(r"[a-z0-9][a-z0-9._:-]{0,79}")


def stage_of(game_id: str, name: str) -> tuple[Game[Any, Any, Any, Any], StageFacts] | None:
    """The game and the stage's facts, or None for an unknown game or stage."""
    if game_id not in games.ids() or not STAGE_NAME.fullmatch(name):
        return None
    game = games.get(game_id)
    try:
        if not game.library.stages.exists(name):
            return None
        return game, game.library.stages.facts(name)
    except (RallyError, ValueError, KeyError):
        return None


async def shown(store: Store, game_id: str, name: str, now: datetime) -> bool:
    """Whether the site shows this stage (see the module's docstring); nothing is generated."""
    if game_id not in games.ids() or not STAGE_NAME.fullmatch(name):
        return False
    stages = games.get(game_id).library.stages
    if name in stages.names() or name == stages.official(week_of(now)):
        return True

    async def read(tx: Tx) -> bool:
        if any(stages.official(week) == name for week in await world_weeks_tx(tx, game_id)):
            return True
        return await stage_published_tx(tx, game_id, name)

    return await store.db.read(read)
