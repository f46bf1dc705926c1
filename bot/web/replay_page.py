"""A finished rally, turn by turn (`GET /rally/N/replay?turn=K`): the board as it stood
after turn K, what that turn told, a slider and links to the first, previous, next and last turns,
and play/pause (`&play=1`: the page moves on to the next turn by itself, `PACE` seconds a turn,
with a plain refresh: no script needed). The last turn names the rally's winner.

A turn is what the animated replay draws as one frame (`replay.turn_views`): it ends when the
seats to act change (the next driver's turn), play moves on (a new round or special) or the
rally is over; the several logged actions of a driver's turn (gear, dice one by one, a stop) are
one turn here too. The actions are replayed by `rally_page.replayed_steps` (the rally page's own
replay, not a second one) and told from the spectators' view, so a game with hidden hands (Road
Rally USA) shows here what its channel showed. Each turn's board is the spectators' view of the
replayed state after it (`images.board_spec`), drawn by the render workers at
`/rally/N/replay/K/board.png`.

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
from bot.engine.core.game import is_finished
from bot.engine.core.scores import format_score
from bot.engine.core.text import msg
from bot.services.images import board_spec
from bot.store import Rally, Store
from bot.web.rally_page import replayed_steps

ENDED = ("finished", "abandoned")  # a rally that has a replay
MAX_TURN_DIGITS = 6  # `?turn=` longer than that names no turn (400: it cannot be read)
PACE = 2  # seconds a turn while the replay plays: time to read what the turn told


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
    winner: Any = None  # the last turn of a finished rally: who won it (a message), else None
    playing: bool = False  # the replay plays: the page moves on to the next turn by itself
    pace: int = PACE


def replay_turns(rally: Rally, drivers: list[dict[str, Any]], actions: list[dict[str, Any]]) -> list[ReplayTurn]:
    """Every turn of the rally, in order, as its animated replay's frames cut them (see the
    module's text); a turn that told nothing is left out (CPU: run it in a thread)."""
    game = games.get(rally.game)
    turns: list[ReplayTurn] = []
    lines: list[Any] = []
    mark: tuple[Any, ...] | None = None
    ended = False
    state: Any = None
    for state, view, told in replayed_steps(rally, drivers, actions):
        lines.extend(told)
        now = (game.rules.to_act(state), game.rules.progress(view))
        over = is_finished(game.rules, state)
        if mark is not None and now == mark and not over:
            continue  # the same driver's turn goes on
        mark = now
        if ended and turns:  # the rally's own closing entries: one last turn
            last = turns.pop()
            lines = last.lines + lines
        if lines:
            turns.append(ReplayTurn(lines, board_spec(state, game.id)))
        lines, ended = [], over
    if lines:  # a turn the rally's end cut short (abandoned)
        turns.append(ReplayTurn(lines, board_spec(state, game.id)))
    return turns


def winner_of(rally: Rally) -> Any:
    """Who won the finished rally, as a message (its result in its unit: a time, or VP); None
    when it has no winner (abandoned, nobody finished). Ties name every winner."""
    if rally.status != "finished" or rally.snapshot is None:
        return None
    game = games.get(rally.game)
    state = game.rules.from_json(rally.snapshot)
    outcome = game.rules.outcome(state)
    best = [seat for seat in outcome.seats if seat.rank == 1 and seat.score is not None] if outcome else []
    if not best:
        return None
    view = game.rules.view(state, None)
    names = " & ".join(game.narrator.seat_name(view, seat.seat) or str(seat.seat) for seat in best)
    score = format_score(outcome.kind, best[0].score or 0) if outcome is not None else ""
    return msg("web.replay_winner_vp" if outcome is not None and outcome.kind.unit == "vp" else "web.replay_winner",
               name=names, score=score)


async def load_turns(store: Store, rally: Rally) -> list[ReplayTurn]:
    drivers = [d.as_dict() for d in await store.drivers.list(rally.id)]
    # the log as far as the snapshot read with the rally (a move written since is the next version's)
    actions = [a.as_dict() for a in await store.actions.list(rally.id) if a.seq <= rally.version]
    return await asyncio.to_thread(replay_turns, rally, drivers, actions)


async def load_winner(rally: Rally) -> Any:
    """`winner_of` the rally, in a thread (its final state is read from its snapshot)."""
    return await asyncio.to_thread(winner_of, rally)


def read_turn(raw: str | None) -> int | None:
    """`?turn=` as a number (absent: the first turn); None: it cannot be read (not digits)."""
    if raw is None:
        return 1
    text = raw.strip()
    if not text or len(text) > MAX_TURN_DIGITS or not (text.isascii() and text.isdigit()):
        return None
    return int(text)


def replay_page(rally: Rally, league_id: int | None, turns: list[ReplayTurn], turn: int,
                winner: Any = None, playing: bool = False) -> ReplayPage | None:
    """Turn `turn` of the replay (the last one with `winner`); None when the rally has no such turn.
    It plays on only while there is a next turn."""
    if not 1 <= turn <= len(turns):
        return None
    shown = turns[turn - 1]
    last = turn == len(turns)
    return ReplayPage(rally, league_id, turn, len(turns), shown.lines, shown.board is not None,
                      winner if last else None, playing and not last)
