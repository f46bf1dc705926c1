"""Rebuilding a rally from its action log: the log is the truth, the snapshot its cache.

Used by `python -m bot db check` and by tests: every stored snapshot must equal this replay. The
log holds the canonical entries of `bot.engine.rallyman.action_codec`, never the drivers' grammar, so it
replays the same whatever language the commands were typed in. `log_problem` is the check of one
logged text that `db check` runs beside the replay.

A rally whose log no longer gives its stored snapshot (played under a rule bug since fixed: the
DIRT damage bag drawn in a reloaded state's key order, RULES B13.8) has drifted: the stored
snapshot is what its drivers saw and stands (the rally goes on from it), and `replay_checked`
says from which entry on the replay is known to differ (`Drift`). What reads a log for a past
rally (careers, the web pages) reads it through `replay_checked`: the replay up to the drift, the
standings from the snapshot, never an error page.

Animated replays start here too: `read_log` reads a rally's log as the replay needs
it, `turn_views` gives the spectators' view after each turn (one frame each, see there) and
`turn_boards` the board data of those views (what `bot.services.images` draws as a "replay").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bot import games
from bot.engine.core.game import is_finished
from bot.engine.core.game import log_problem as game_log_problem
from bot.engine.core.log import CodecError, Start, Status, lifecycle_text
from bot.services.play.deal_keys import check_deal
from bot.services.work import State
from bot.store import Store
from bot.store.check import compare_snapshots

__all__ = ["Drift", "ReplayRefused", "Replayed", "ai_log", "log_problem", "read_log", "replay_checked",
           "replay_frames", "replay_snapshot", "replay_state", "replay_states", "turn_boards", "turn_views"]


class ReplayRefused(ValueError):
    """A logged entry the game refuses (or fails on) in the state the replay rebuilt: from that
    entry on at the latest, the log no longer gives the rally as it was played."""

    def __init__(self, seq: int, text: str, cause: Exception) -> None:
        super().__init__(f"action {seq} ({text!r}): {type(cause).__name__}: {cause}")
        self.seq = seq


@dataclass(frozen=True)
class Drift:
    """Where a rally's replay parts from its stored snapshot: `seq`, the first logged entry known
    to replay differently (the one the replay refuses; else the last one, when every entry plays
    but the state differs at the end: the log keeps no earlier snapshot to tell when), and what."""

    seq: int
    detail: str


class Replayed:
    """A rally's log replayed and checked against its stored `snapshot` (None: nothing to compare,
    a rally still in its lobby). Iterating gives (state, events) after each entry the replay
    plays, as `iter_steps` does but stopping before an entry it refuses, one state at a time (a
    long rally's states are never all held); once iterated, `drift` says where the replay parts
    from the snapshot (None: it does not)."""

    def __init__(self, rally_row: dict, actions: list[dict], snapshot: str | None, with_setup: bool = False) -> None:
        self.rally_row, self.actions, self.snapshot, self.with_setup = rally_row, actions, snapshot, with_setup
        self.drift: Drift | None = None

    def __iter__(self) -> Iterator[tuple[State | None, list[Any]]]:
        self.drift = None
        last: State | None = None
        try:
            for last, events in iter_steps(self.rally_row, self.actions, self.with_setup):
                yield last, events
        except ReplayRefused as refused:
            self.drift = Drift(refused.seq, f"the replay refuses it: {refused}")
            return
        if self.snapshot is None or last is None:
            return
        difference = compare_snapshots(self.snapshot, games.get(self.rally_row.get("game")).rules.to_json(last))
        if difference is not None:
            seq = int(self.actions[-1].get("seq") or len(self.actions))
            self.drift = Drift(seq, f"every entry replays but the state differs at the end: {difference}")


def replay_checked(rally_row: dict, actions: list[dict], snapshot: str | None, with_setup: bool = False) -> Replayed:
    """The rally's log replayed against its stored snapshot (see `Replayed`: iterate it, then read
    its `drift`)."""
    return Replayed(rally_row, actions, snapshot, with_setup)


def replay_state(rally_row: dict, actions: list[dict]) -> State | None:
    """The game state after the logged actions (None while the rally never started)."""
    last: State | None = None
    for last in iter_states(rally_row, actions):  # noqa: B007 - the last one is the answer
        pass
    return last


def replay_states(rally_row: dict, actions: list[dict]) -> list[State]:
    """The state after each logged action from the start on (a run's turn-by-turn replay)."""
    return [state for state in iter_states(rally_row, actions) if state is not None]


def iter_states(rally_row: dict, actions: list[dict]) -> Iterator[State | None]:
    """The state after each logged entry (None before the start), played by the rally's game."""
    for state, _ in iter_steps(rally_row, actions):
        yield state


def iter_steps(rally_row: dict, actions: list[dict], with_setup: bool = False
               ) -> Iterator[tuple[State | None, list[Any]]]:
    """(state, events) after each logged entry, played by the rally's game: the events its
    `apply` told (none for lifecycle entries; for the start entry none, or with `with_setup` the
    events of the game's `setup`, such as the first turn a career counts), what the web page's
    turn log tells."""
    game = games.get(rally_row.get("game"))
    names = {str(d["user_id"]): d["display_name"] for d in rally_row.get("drivers", [])}
    state: State | None = None
    for entry in actions:
        text = entry["action"]
        try:
            logged = game.rules.decode(text)
        except CodecError as exc:
            raise CodecError(f"action {entry.get('seq')} ({text!r}): {exc}") from None
        events: list[Any] = []
        if isinstance(logged, Start):
            state, started = game.rules.setup(rally_row["seed"], [(i, names.get(i, i)) for i in logged.seats],
                                        setup_options(rally_row))
            if with_setup:
                events = list(started)
        elif isinstance(logged, Status):
            pass  # lifecycle only (abandoned ...): the game state does not change
        elif state is None:
            raise ValueError(f"action {entry.get('seq')} ({text!r}) comes before the rally started")
        else:  # the game tells a driver's move from the rally's own (a timeout, a retirement)
            actor = entry.get("actor")
            try:
                state, events = game.rules.apply(state, str(actor) if actor is not None else None, logged)
            except Exception as exc:  # the log no longer plays: say which entry (`replay_checked`)
                raise ReplayRefused(int(entry.get("seq") or 0), text, exc) from exc
        yield state, events


def setup_options(rally_row: dict) -> dict:
    """What a rally row gives its game's `setup`: the stage, the ruleset, the modules and the key
    of its hidden deal (None before deals had their own key)."""
    return {"stage": rally_row["stage"], "ruleset": rally_row["ruleset"], "modules": rally_row.get("modules"),
            "secret": rally_row.get("secret")}


def log_problem(text: str, game_id: str | None = None) -> str | None:
    """Why `text` is not a canonical log entry of the rally's game, or None when it is (`db check`)."""
    return game_log_problem(games.get(game_id), text)


def replay_snapshot(rally_row: dict, actions: list[dict]) -> str | None:
    """The snapshot the log replays to (`db check`); a deal key that does not match the
    commitment published at the start fails the check before any replay."""
    check_deal(rally_row)
    state = replay_state(rally_row, actions)
    return games.get(rally_row.get("game")).rules.to_json(state) if state is not None else None


async def read_log(store: Store, rally_id: int, version: int | None = None) -> tuple[dict, list[dict]] | None:
    """(rally row, action log) of a rally as `iter_steps` reads them, the log up to `version` (its
    entry numbers are the rally's versions; None: all of it); None when there is no such rally.
    The row keeps its settings and drivers' names, never its snapshot (the whole state, with any
    hidden hand: a replay is played again from the log and shown from the spectators' view)."""
    rally = await store.rallies.find(rally_id)
    if rally is None:
        return None
    row = {k: v for k, v in rally.as_dict().items() if k != "snapshot"}
    drivers = await store.drivers.list(rally_id)
    row["drivers"] = [{"user_id": d.user_id, "display_name": d.display_name} for d in drivers]
    actions = [{"seq": a.seq, "actor": a.actor, "action": a.action} for a in await store.actions.list(rally_id)
               if version is None or a.seq <= version]
    return row, actions


def turn_views(rally_row: dict, actions: list[dict]) -> list[Any]:
    """The spectators' view (`view(state, None)`: no seat's hand) of the rally at its start and
    after each turn: one frame of its animated replay each.

    A turn ends when the seats to act change (the next driver's turn) or play moves on (the game's
    `progress`: a new round or special; a run of one car has no other sign) or the rally is over:
    the cars moved and the clock ticked. Not one frame per logged action: a
    driver's turn is several entries (gear, dice one by one, a stop) that mostly redraw the same
    board, which would triple the frames and the size for nothing a spectator needs; not one per
    round either: four cars moving at once lose the story of who passed whom."""
    return _turns(rally_row, actions)[0]


def _turns(rally_row: dict, actions: list[dict]) -> tuple[list[Any], State | None]:
    """`turn_views`, and the last state the log plays to (None: none)."""
    game = games.get(rally_row.get("game"))
    views: list[Any] = []
    mark: tuple | None = None
    last: State | None = None
    for state, _ in replay_checked(rally_row, actions, None):  # a log that no longer plays: up to there
        if state is None or state is last:
            continue
        view = game.rules.view(state, None)
        now = (game.rules.to_act(state), game.rules.progress(view))
        if not views or now != mark or is_finished(game.rules, state):
            if views and is_finished(game.rules, state) and last is not None and is_finished(game.rules, last):
                views[-1] = view  # the rally's own closing entries: one last frame
            else:
                views.append(view)
        mark, last = now, state
    return views, last


def turn_boards(rally_row: dict, actions: list[dict]) -> list[dict]:
    """The board data (the game's `board` of the spectators' view) after each turn (`turn_views`),
    a board the same as the one before left out (a turn a spectator does not see: Road Rally USA's
    stage window, where who has answered is hidden, C10.8); empty for a game that draws no board."""
    return replay_frames(rally_row, actions)[0]


def replay_frames(rally_row: dict, actions: list[dict]) -> tuple[list[dict], tuple[str, ...] | None]:
    """What an animated replay shows, from one playing of the log: the boards after each turn
    (`turn_boards`) and the names of the rally's winners for its end frame (the seats ranked
    first by the game's outcome: the whole rally's, over every special; several on a tie; none
    when nobody finished; None while the rally is unfinished: no end frame)."""
    game = games.get(rally_row.get("game"))
    views, last = _turns(rally_row, actions)
    boards: list[dict] = []
    for view in views:
        data = game.pictures.board(view) if game.pictures is not None else None
        if data is not None and (not boards or data != boards[-1]):
            boards.append(data)
    outcome = game.rules.outcome(last) if last is not None else None
    if outcome is None:
        return boards, None
    names = {str(d["user_id"]): str(d["display_name"]) for d in rally_row.get("drivers", [])}
    return boards, tuple(names.get(str(s.seat), str(s.seat)) for s in outcome.seats
                         if s.status == "finished" and s.rank == 1)


def ai_log(game_id: str, specials: list[str], drivers: int = 4, seed: int = 0,
           max_actions: int = 20000) -> tuple[dict, list[dict]]:
    """(rally row, action log) of a rally of `specials` (a course when several, with assistance)
    driven from start to finish by the game's AI for `drivers` seats, seeded: the benches' and the
    tests' finished rally, without a store. The log is what a real rally logs (canonical entries)."""
    game = games.get(game_id)
    seats = [(str(9000 + i), f"AI {i + 1}") for i in range(drivers)]
    modules = {"course": {"specials": specials, "assistance": [True] * len(specials)}} if len(specials) > 1 else None
    row = {"id": 0, "game": game.id, "seed": seed, "stage": specials[0], "ruleset": game.library.rulesets()[0],
           "modules": modules, "drivers": [{"user_id": s, "display_name": n} for s, n in seats]}
    state, _ = game.rules.setup(seed, seats, setup_options(row))
    actions = [{"seq": 1, "actor": None, "action": lifecycle_text(Start(tuple(s for s, _ in seats)))}]
    while not is_finished(game.rules, state) and len(actions) < max_actions:
        seat = sorted(game.rules.to_act(state))[0]
        action = game.coach.choose(game.rules.view(state, seat), seat)
        actions.append({"seq": len(actions) + 1, "actor": seat, "action": game.rules.encode(action)})
        state, _ = game.rules.apply(state, seat, action)
    return row, actions
