"""The home page's data: for each game with solo runs (or the one asked), the week's official
stage and its world scratch ranking (the same query and ranks as `/scratch`), and the public
leagues, and the latest rallies of the channels published without a league (`/rally web public`:
those in play, and the last ended). Server names hidden by `/league settings world_name:off` stay
hidden here too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot import games
from bot.engine.core.game import Game
from bot.services.world.rounds import score_text
from bot.services.world.scratch import world_top_ranked_tx
from bot.store import Store
from bot.store.connection import Tx
from bot.store.guild_settings import hidden_world_names_tx
from bot.store.leagues import League, world_round_tx
from bot.store.web import ChannelRally, public_leagues_tx, published_rallies_tx

CHANNEL_RALLIES = 5  # rallies of the published channels listed, in play and ended


@dataclass(frozen=True)
class WorldRow:
    rank: int
    name: str
    server: str | None  # None: the server hides its name
    score: str
    gap: str


@dataclass(frozen=True)
class WorldBoard:
    """One game's week: its official stage and ranking (`round_id` None: nobody drove it yet)."""

    game: Game[Any, Any, Any, Any]
    stage: str
    stage_title: str
    round_id: int | None
    closed: bool
    count: int
    rows: list[WorldRow]


@dataclass(frozen=True)
class Home:
    week: str
    boards: list[WorldBoard]
    leagues: list[League]
    running: list[ChannelRally]  # the published channels' rallies in play (or waiting), newest first
    ended: list[ChannelRally]  # … and the last ones that ended


def solo_games(wanted: str | None) -> list[Game[Any, Any, Any, Any]]:
    """The games with a world scratch (all, or the one named): an unknown or team game is none."""
    found = [g for g in games.games() if g.library.solo_runs]
    return found if wanted is None else [g for g in found if g.id == wanted]


async def home_tx(tx: Tx, week: str, shown: list[Game[Any, Any, Any, Any]], rows: int) -> Home:
    boards = []
    for game in shown:
        stage = game.library.stages.official(week)
        rnd = await world_round_tx(tx, week, game.id)
        top, ranks, count = await world_top_ranked_tx(tx, week, game.id, rows) if rnd is not None else ([], {}, 0)
        hidden = await hidden_world_names_tx(tx, {r.guild_id for r in top})
        best = top[0].score or 0 if top else 0
        board_rows = [WorldRow(ranks[r.id], r.display_name, None if r.guild_id in hidden else (r.guild_name or "—"),
                               score_text(game, r.score or 0), "+" + score_text(game, abs((r.score or 0) - best)))
                      for r in top]
        boards.append(WorldBoard(game, stage, game.library.stages.facts(stage).title, rnd.id if rnd else None,
                                 rnd is not None and rnd.status == "closed", count, board_rows))
    return Home(week, boards, await public_leagues_tx(tx), await published_rallies_tx(tx, True, CHANNEL_RALLIES),
                await published_rallies_tx(tx, False, CHANNEL_RALLIES))


async def home(store: Store, week: str, shown: list[Game[Any, Any, Any, Any]], rows: int) -> Home:
    return await store.db.read(lambda tx: home_tx(tx, week, shown, rows))
