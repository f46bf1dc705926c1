"""DIRT's rules facet (bot.engine.core.game `Rules`): setup and storage, the action codec, legal
actions and apply, who acts, the outcome and the views (RULES Part B, with the B13 provisional
defaults).

DIRT has no hidden information: a seat's view and the spectators' are the same public state,
wrapped read-only in a `DirtView` so code written against the seam never holds a state.
Snapshots are `{"schema": 1, …}` (bot.engine.dirt.state); `from_json` refuses any other schema.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine.core.dice import DiceSource, ScriptedDice, SeededDice, StreamDice
from bot.engine.core.errors import NotAllowed
from bot.engine.core.events import Event
from bot.engine.core.game import (
    SECONDS,
    Outcome,
    SeatRange,
    SeatResult,
    Standing,
    check_schema,
    outcome_standing,
    ranked,
    stage_option,
)
from bot.engine.core.log import CodecError, Lifecycle, to_text
from bot.engine.core.text import msg
from bot.engine.dirt import rally as engine
from bot.engine.dirt.actions import Action, Retire, Roll, Stop, Timeout
from bot.engine.dirt.classification import rally_rows
from bot.engine.dirt.library import DIRT_STAGES, MODULES
from bot.engine.dirt.public import PublicState, public
from bot.engine.dirt.ruleset import ruleset_names
from bot.engine.dirt.state import SCHEMA, DirtState


@dataclass(frozen=True)
class DirtView:
    """What `seat` (None: a spectator) may see: the same for every seat, the public part of the state."""

    state: PublicState
    seat: str | None


@dataclass(frozen=True)
class RollStop:
    """`/roll … end:yes`: the step, then a stop if the turn still runs (the driver's one command)."""

    roll: Roll


def _dice_source(seed: int, modules: Mapping[str, Any]) -> DiceSource:
    script = modules.get("dice_script")
    streams = modules.get("streams")  # a championship run: named streams from the round's seed
    if script is not None:
        return ScriptedDice(script.get("faces", []), script.get("events", []))
    if streams is not None:
        return StreamDice(str(streams["key"]), str(streams["common"]))
    return SeededDice(seed)


class DirtRules:
    """Rallyman: DIRT (RULES Part B, B13 provisional defaults): what the game is."""

    id = "dirt"
    seats = SeatRange(1, 6)
    result = SECONDS
    state_schema = SCHEMA

    def _ruleset(self, options: Mapping[str, Any]) -> str:
        name = str(options.get("ruleset") or "provisional")
        if name not in ruleset_names():  # a name from Discord: never a path
            raise NotAllowed(msg("dirt.unknown_ruleset", name=name[:40], known=", ".join(ruleset_names())))
        return name

    @staticmethod
    def _course(options: Mapping[str, Any]) -> tuple[list[str], list[bool]]:
        planned = (options.get("modules") or {}).get("course")
        if planned:
            return list(planned["specials"]), list(planned["assistance"])
        return [stage_option("dirt", options)], []

    def setup(self, seed: int, seats: Sequence[tuple[str, str]], options: Mapping[str, Any]
              ) -> tuple[DirtState, list[Event]]:
        """A new rally; a stage of the course that does not exist, or a ruleset that is not DIRT's,
        is refused (a `RallyError` naming it) before anything is dealt."""
        modules = options.get("modules") or {}
        stages, assistance = self._course(options)
        for name in stages:
            DIRT_STAGES.facts(name)
        return engine.new_rally(list(seats), stages, dice=_dice_source(seed, modules), assistance=assistance,
                                ruleset=self._ruleset(options),
                                modules={m: bool(modules.get(m)) for m in MODULES})

    def to_json(self, state: DirtState) -> str:
        return json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def from_json(self, text: str) -> DirtState:
        data = json.loads(text)
        check_schema(self.id, SCHEMA, data.get("schema") if isinstance(data, dict) else None)
        return DirtState.from_dict(data)

    def encode(self, action: Action | RollStop | Lifecycle) -> str:
        """The canonical log entry; a `RollStop` is one entry, the roll's with `"stop": true`."""
        if isinstance(action, RollStop):
            fields = json.loads(engine.encode(action.roll))
            return to_text({**fields, "stop": True})
        return engine.encode(action)

    def decode(self, text: str) -> Action | RollStop | Lifecycle:
        try:
            fields = json.loads(text)
        except ValueError as exc:
            raise CodecError(f"not JSON: {exc}") from None
        if not isinstance(fields, dict) or fields.get("v") != 1:
            raise CodecError("v: not a log entry of version 1")
        if fields.get("stop") is True:
            rest = {k: v for k, v in fields.items() if k != "stop"}
            roll = engine.decode(to_text(rest))
            if not isinstance(roll, Roll):
                raise CodecError("stop: only a roll may end with a stop")
            return RollStop(roll)
        return engine.decode(text)

    def legal_actions(self, state: DirtState, seat: str | None) -> list[Action]:
        acting = state.to_act()
        if acting is None or (seat is not None and seat != acting):
            return []
        return list(engine.legal_actions(state, acting))

    def apply(self, state: DirtState, seat: str | None, action: Action | RollStop
              ) -> tuple[DirtState, list[Event]]:
        """Play `action` for `seat`; `seat` None is the rally itself: a deadline, a retirement, or
        the AI's move for the seat to act (the services log an AI driver's moves so). The state
        given never changes (the `Game` contract: the services keep states by version, a replay
        keeps each one): the engine's `apply` plays on one copy made here, once per command."""
        if seat is None and not isinstance(action, (Retire, Timeout)):
            seat = state.to_act()
        state = state.clone()  # the engine plays on the state it is given; the caller's stays as it was
        if isinstance(action, RollStop):
            state, events = engine.apply(state, seat, action.roll)
            if seat is not None and state.to_act() == seat and Stop() in engine.legal_actions(state, seat):
                state, more = engine.apply(state, seat, Stop())
                events += more
            return state, events
        return engine.apply(state, seat, action)

    def retire_action(self, seat: str) -> Action:
        return Retire(seat)

    def to_act(self, state: DirtState) -> frozenset[str]:
        acting = state.to_act()
        return frozenset() if acting is None else frozenset({acting})

    def timeout_action(self, state: DirtState, seat: str) -> Action:
        """The deadline passed: the turn ends as it stands (no die rolled: B13.8.2's card)."""
        return Timeout()

    def midturn(self, view: DirtView) -> bool:
        return bool(view.state.turn_dice)

    def outcome(self, state: DirtState) -> Outcome | None:
        """Seconds, lower is better: the rally's total over its stages (B13.2); equal totals share
        a rank; knocked-out and retired drivers are DNF with their reason (B13.8.10)."""
        if not engine.finished(state):
            return None
        rows = [SeatResult(r.seat, "finished" if r.total is not None else "dnf", r.total, None,
                           (r.place,), r.reason if r.total is None else None) for r in rally_rows(state)]
        return Outcome(self.result, ranked(self.result, rows))

    def standing(self, state: DirtState) -> Standing:
        """Finished: the outcome's ranks. Running: every car still in by the stages it has
        finished (more first), then by its time over them; out or retired: out."""
        if engine.finished(state):
            outcome = self.outcome(state)
            assert outcome is not None
            return outcome_standing(outcome)
        rows: Standing = []
        for seat, _ in state.seats:
            car = state.cars[seat]
            times = [t for t in car.stage_times if t is not None]
            out = car.status in ("out", "retired") or len(times) < len(car.stage_times)
            rows.append((seat, None if out else (-len(times), sum(times))))
        return rows

    def progress(self, view: DirtView) -> tuple[int, int, int]:
        """(stage, round, turn): each driver's turn is a new one."""
        state = view.state
        return (state.stage_index, state.round, state.turn)

    def view(self, state: DirtState, seat: str | None) -> DirtView:
        return DirtView(public(state), seat)


RULES = DirtRules()
