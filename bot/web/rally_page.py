"""A public rally's page: its board (drawn by the render workers from the spectators' view,
`images.board_spec`) and its story, turn by turn, as the channel read it: the rally's log
replayed (`replay.iter_steps`) and each action told from the spectators' view (`Game.narrator.tell`), then
where everyone stands (`Game.narrator.status`) or the classification. Nothing a seat alone may see is
read: a game with hidden hands (Road Rally USA) shows here what its channel shows.

A rally is public when its league chose so, or its channel was published (`/rally web public`):
bot/store/web.py `rally_public_tx`; `league_id` is then None and the page lists the channel's
rallies instead of linking a league. A rally whose log no longer gives its stored snapshot
(`replay.Drift`: played under a rule bug since fixed) shows its story up to the entry the replay
refuses, says so (`drift`), and its standings from the stored state, what its drivers saw.
The story is replayed in a thread (a long rally is a few
milliseconds of CPU), once per rally version; `replayed_steps` is the one replay the rally page
and its step-through replay (bot/web/replay_page.py) read.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from bot import games
from bot.services.images import board_spec
from bot.services.play.replay import Replayed, replay_checked
from bot.store import Rally, Store
from bot.store.connection import Tx
from bot.store.rallies import find_tx
from bot.store.web import ChannelRally, channel_rallies_tx, channel_version_tx, rally_public_tx

LOG_TURNS = 400  # the latest actions told on the page


@dataclass(frozen=True)
class RallyPage:
    rally: Rally
    league_id: int | None  # None: published with its channel (`/rally web public`), not by a league
    title: object
    status: list[Any]
    classification: list[Any]
    story: list[list[Any]]  # each action's lines, latest last
    cut: int  # earlier actions not shown
    has_board: bool
    channel: list[ChannelRally] = field(default_factory=list)  # a published channel's latest rallies
    drift: int | None = None  # the action from which the log no longer replays as played (None: it does)


@dataclass(frozen=True)
class Published:
    """A public rally: the league publishing it (None: its channel is published, no league does)."""

    rally: Rally
    league_id: int | None
    channel_version: tuple[object, ...] = ()  # its channel's rallies (listed on the page when no league)

    @property
    def version(self) -> tuple[object, ...]:
        """The data version of its pages: the rally's, its publisher, the channel's rallies listed."""
        return (self.rally.version, self.rally.status, self.league_id, self.channel_version)


CHANNEL_RALLIES = 10  # a published channel's rallies listed on its rallies' pages


async def public_rally(store: Store, rally_id: int) -> Published | None:
    """The rally and who publishes it, when its page is public."""
    async def read(tx: Tx) -> Published | None:
        rally = await find_tx(tx, rally_id)
        if rally is None:
            return None
        public = await rally_public_tx(tx, rally.id, rally.guild_id, rally.channel_id)
        if public is None:
            return None
        if public.league_id is not None:
            return Published(rally, public.league_id)
        return Published(rally, None, await channel_version_tx(tx, rally.guild_id, rally.channel_id))

    return await store.db.read(read)


def replayed_steps(rally: Rally, drivers: list[dict[str, Any]], actions: list[dict[str, Any]],
                   replayed: Replayed | None = None) -> Iterator[tuple[Any, Any, list[Any]]]:
    """(state, its spectators' view, the lines that action told: maybe none) after each logged
    action from the start on, replayed from the log as the channel read it, up to the entry the
    replay refuses when the log no longer gives the stored snapshot (`replayed`, when given, is
    that replay: its `drift` is read once the steps are)."""
    game = games.get(rally.game)
    row = {**rally.as_dict(), "drivers": drivers}
    for state, events in replayed or replay_checked(row, actions, rally.snapshot):
        if state is None:
            continue
        view = game.rules.view(state, None)
        lines: list[Any] = []
        if events:
            told = game.narrator.tell(view, events)
            lines = [line for chapter in told.chapters for line in chapter] + list(told.lines)
        yield state, view, lines


def _story(rally: Rally, drivers: list[dict[str, Any]], actions: list[dict[str, Any]]
           ) -> tuple[Any, list[list[Any]], int | None]:
    """(the spectators' view at the end, each action's told lines, the drift), replayed from the
    log; the view at the end is the stored state's when the replay parts from it."""
    game = games.get(rally.game)
    replayed = replay_checked({**rally.as_dict(), "drivers": drivers}, actions, rally.snapshot)
    view = None
    story: list[list[Any]] = []
    for _, view, lines in replayed_steps(rally, drivers, actions, replayed):  # noqa: B007 - the last view
        if lines:
            story.append(lines)
    if replayed.drift is None:
        return view, story, None
    if rally.snapshot is not None:  # what the drivers saw stands
        view = game.rules.view(game.rules.from_json(rally.snapshot), None)
    return view, story, replayed.drift.seq


async def rally_page(store: Store, rally: Rally, league_id: int | None) -> RallyPage:
    drivers = [d.as_dict() for d in await store.drivers.list(rally.id)]
    # the log as far as the snapshot read with the rally (a move written since is the next version's)
    actions = [a.as_dict() for a in await store.actions.list(rally.id) if a.seq <= rally.version]
    channel = [] if league_id is not None else await channel_rallies(store, rally)
    game = games.get(rally.game)
    view, story, drift = await asyncio.to_thread(_story, rally, drivers, actions)
    if view is None:  # still in the lobby: nothing played yet
        return RallyPage(rally, league_id, None, [], [], [], 0, False, channel)
    finished = rally.status == "finished"
    shown = story[-LOG_TURNS:]
    return RallyPage(rally, league_id, game.narrator.title(view), [] if finished else game.narrator.status(view),
                     game.narrator.classification(view) if finished else [], shown, len(story) - len(shown),
                     game.pictures is not None, channel, drift)


async def channel_rallies(store: Store, rally: Rally) -> list[ChannelRally]:
    """The latest rallies of the rally's (published) channel, newest first."""
    return await store.db.read(lambda tx: channel_rallies_tx(tx, rally.guild_id, rally.channel_id, CHANNEL_RALLIES))


def board_of(rally: Rally) -> dict[str, Any] | None:
    """The board's picture spec of the rally as it stands (None: not started, or no board)."""
    if rally.snapshot is None or rally.status == "lobby":
        return None
    game = games.get(rally.game)
    return board_spec(game.rules.from_json(rally.snapshot), game.id)
