"""A public rally's page: its board (drawn by the render workers from the spectators' view,
`images.board_spec`) and its story, turn by turn, as the channel read it: the rally's log
replayed (`replay.iter_steps`) and each action told from the spectators' view (`Game.tell`), then
where everyone stands (`Game.status`) or the classification. Nothing a seat alone may see is
read: a game with hidden hands (Road Rally USA) shows here what its channel shows.

A rally is public when its league chose so (bot/store/web.py `rally_league_tx`). The story is
replayed in a thread (a long rally is a few milliseconds of CPU), once per rally version.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from bot import games
from bot.services.images import board_spec
from bot.services.replay import iter_steps
from bot.store import Rally, Store
from bot.store.connection import Tx
from bot.store.rallies import find_tx
from bot.store.web import rally_league_tx

LOG_TURNS = 400  # the latest actions told on the page


@dataclass(frozen=True)
class RallyPage:
    rally: Rally
    league_id: int
    title: object
    status: list[Any]
    classification: list[Any]
    story: list[list[Any]]  # each action's lines, latest last
    cut: int  # earlier actions not shown
    has_board: bool


async def public_rally(store: Store, rally_id: int) -> tuple[Rally, int] | None:
    """The rally and the league publishing it, when its page is public."""
    async def read(tx: Tx) -> tuple[Rally, int] | None:
        rally = await find_tx(tx, rally_id)
        if rally is None:
            return None
        league = await rally_league_tx(tx, rally.id, rally.guild_id, rally.channel_id)
        return (rally, league) if league is not None else None

    return await store.db.read(read)


def _story(rally: Rally, drivers: list[dict[str, Any]], actions: list[dict[str, Any]]) -> tuple[Any, list[list[Any]]]:
    """(the spectators' view at the end, each action's told lines), replayed from the log."""
    game = games.get(rally.game)
    row = {**rally.as_dict(), "drivers": drivers}
    view = None
    story: list[list[Any]] = []
    for state, events in iter_steps(row, actions):
        if state is None:
            continue
        view = game.view(state, None)
        if events:
            told = game.tell(view, events)
            lines = [line for chapter in told.chapters for line in chapter] + list(told.lines)
            if lines:
                story.append(lines)
    return view, story


async def rally_page(store: Store, rally: Rally, league_id: int) -> RallyPage:
    drivers = [d.as_dict() for d in await store.drivers.list(rally.id)]
    actions = [a.as_dict() for a in await store.actions.list(rally.id)]
    game = games.get(rally.game)
    view, story = await asyncio.to_thread(_story, rally, drivers, actions)
    if view is None:  # still in the lobby: nothing played yet
        return RallyPage(rally, league_id, None, [], [], [], 0, False)
    finished = rally.status == "finished"
    shown = story[-LOG_TURNS:]
    return RallyPage(rally, league_id, game.rally_title(view), [] if finished else game.status(view),
                     game.classification(view) if finished else [], shown, len(story) - len(shown),
                     game.board(view) is not None)


def board_of(rally: Rally) -> dict[str, Any] | None:
    """The board's picture spec of the rally as it stands (None: not started, or no board)."""
    if rally.snapshot is None or rally.status == "lobby":
        return None
    game = games.get(rally.game)
    return board_spec(game.from_json(rally.snapshot), game.id)
