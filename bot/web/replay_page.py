"""A finished rally, turn by turn (`GET /rally/N/replay?turn=K`, issue 26): the board as it stood
after turn K, what that turn told, and links to the first, previous, next and last turns.

A turn is one entry of the rally page's story: one logged action that told something, replayed by
`rally_page.replayed_steps` (the rally page's own replay, not a second one) and told from the
spectators' view, so a game with hidden hands (Road Rally USA) shows here what its channel
showed. Each turn's board is the spectators' view of the replayed state (`images.board_spec`),
drawn by the render workers at `/rally/N/replay/K/board.png`.

Only an ended rally (finished or abandoned) has a replay: it never changes any more, so its
pages and pictures are built once and then answered by ETag. A rally still in play has none
(404): its live page already shows every turn so far. A rally whose log no longer gives its stored
snapshot (`replay.Drift`) has the turns its replay plays, up to the entry it refuses.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from bot import games
from bot.services.images import board_spec
from bot.store import Rally, Store
from bot.web.rally_page import replayed_steps

ENDED = ("finished", "abandoned")  # a rally that has a replay
MAX_TURN_DIGITS = 6  # `?turn=` longer than that names no turn (400: it cannot be read)


@dataclass(frozen=True)
class ReplayTurn:
    """One turn: what it told, and the board's picture spec after it (None: the game draws none)."""

    lines: list[Any]
    board: dict[str, Any] | None


@dataclass(frozen=True)
class ReplayPage:
    rally: Rally
    league_id: int | None
    turn: int  # 1-based
    total: int
    lines: list[Any]
    has_board: bool


def replay_turns(rally: Rally, drivers: list[dict[str, Any]], actions: list[dict[str, Any]]) -> list[ReplayTurn]:
    """Every turn of the rally's story, in order (CPU: run it in a thread)."""
    game = games.get(rally.game)
    return [ReplayTurn(lines, board_spec(state, game.id))
            for state, _, lines in replayed_steps(rally, drivers, actions) if lines]


async def load_turns(store: Store, rally: Rally) -> list[ReplayTurn]:
    drivers = [d.as_dict() for d in await store.drivers.list(rally.id)]
    # the log as far as the snapshot read with the rally (a move written since is the next version's)
    actions = [a.as_dict() for a in await store.actions.list(rally.id) if a.seq <= rally.version]
    return await asyncio.to_thread(replay_turns, rally, drivers, actions)


def read_turn(raw: str | None) -> int | None:
    """`?turn=` as a number (absent: the first turn); None: it cannot be read (not digits)."""
    if raw is None:
        return 1
    text = raw.strip()
    if not text or len(text) > MAX_TURN_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    return int(text)


def replay_page(rally: Rally, league_id: int | None, turns: list[ReplayTurn], turn: int) -> ReplayPage | None:
    """Turn `turn` of the replay; None when the rally has no such turn."""
    if not 1 <= turn <= len(turns):
        return None
    shown = turns[turn - 1]
    return ReplayPage(rally, league_id, turn, len(turns), shown.lines, shown.board is not None)
