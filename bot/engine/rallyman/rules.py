"""Rallyman classic's rules facet (bot.engine.core.game `Rules`): setup and storage, the action
codec, legal actions and apply, who acts, the outcome and the views (RULES Part A, with every Rules+
module).

Classic has no hidden information: every seat's view and the spectators' view are the same public
state. `view` still returns a `RallymanView` (a read-only wrapper), so code written against the
seat never holds a state it could leak.

Snapshots keep the bare state JSON they always had (the rally row carries its `game`), so stored
snapshots and replays stay byte-identical; a `schema` key, absent in every snapshot written so far,
would name a newer shape, and `from_json` refuses any it does not read.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.engine.core.dice import DiceSource, ScriptedDice, StreamDice
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
from bot.engine.core.text import msg
from bot.engine.rallyman import game as engine
from bot.engine.rallyman.action_codec import Entry, from_text, log_text
from bot.engine.rallyman.actions import Action, Retire, Stop, Timeout
from bot.engine.rallyman.board import board_view
from bot.engine.rallyman.classify import classification as special_classification
from bot.engine.rallyman.course import course_of
from bot.engine.rallyman.public import PublicState, public
from bot.engine.rallyman.rally_classification import rally_classification
from bot.engine.rallyman.specials import Seat
from bot.engine.rallyman.state import FINISHED, OUT, GameState
from bot.engine.rallyman.view import BoardView

#: modules every snapshot writes, on or off (as it always did), and the Rules+ modules (A18–A21),
#: written only when on so the snapshots of rallies without them stay byte-identical
ENGINE_MODULES = ("sisu", "shakedown")
RULES_PLUS = ("attack", "seconds", "weather", "splits")


#: the JSON shape `to_json` writes: 1, the shape of every snapshot stored so far (no `schema` key)
STATE_SCHEMA = 1


@dataclass(frozen=True)
class RallymanView:
    """What `seat` (None: a spectator) may see: the public part of the state, the same for every
    seat; callers read it, never change it (`board()` is the picture's data)."""

    state: PublicState
    seat: str | None

    def board(self) -> BoardView:
        return board_view(self.state)


def start_state(stage: str, ruleset: str, seed: int, modules: Mapping[str, Any] | None, seats: Sequence[Seat],
                events: list[Event] | None = None) -> GameState:
    """The state a rally starts in: the same function serves the start and the replay of the log.
    `events` receives what happens before the first die (the weather roll, the first turn)."""
    modules = modules or {}
    # sisu and shakedown are always written (as before); a Rules+ module only when it is on, so the
    # snapshots of rallies without it stay byte-identical.
    engine_modules = {k: bool(modules.get(k, False)) for k in ENGINE_MODULES}
    engine_modules.update({k: True for k in RULES_PLUS if modules.get(k)})
    script = modules.get("dice_script")
    streams = modules.get("streams")  # a championship run: named streams from the round's seed
    dice: DiceSource | None = None
    if script is not None:
        dice = ScriptedDice(script.get("faces", []), script.get("events", []))
    elif streams is not None:
        dice = StreamDice(str(streams["key"]), str(streams["common"]))
    planned = modules.get("course")
    rally_course = course_of(planned["specials"], planned["assistance"]) if planned else None
    return engine.new_game(stage, list(seats), seed=seed, ruleset=ruleset, modules=engine_modules, dice=dice,
                           course=rally_course, events=events)


class ClassicRules:
    """Rallyman classic (RULES Part A): what the game is."""

    id = "rallyman"
    seats = SeatRange(1, 4)
    result = SECONDS
    state_schema = STATE_SCHEMA

    def setup(self, seed: int, seats: Sequence[tuple[str, str]], options: Mapping[str, Any]
              ) -> tuple[GameState, list[Event]]:
        events: list[Event] = []
        state = start_state(stage_option(self.id, options), str(options.get("ruleset", "classic")), seed,
                            options.get("modules"), [Seat(i, n) for i, n in seats], events)
        return state, events

    def to_json(self, state: GameState) -> str:
        """Canonical JSON: compact and key-sorted, so replays compare byte for byte."""
        return json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    def from_json(self, text: str) -> GameState:
        data = json.loads(text)
        check_schema(self.id, STATE_SCHEMA, data.pop("schema", STATE_SCHEMA) if isinstance(data, dict) else None)
        return GameState.from_dict(data)

    def encode(self, action: Entry) -> str:
        """The canonical text the action log keeps (bot.engine.rallyman.action_codec)."""
        return log_text(action)

    def decode(self, text: str) -> Entry:
        """An action or a lifecycle entry from its logged text (strict: `CodecError`)."""
        return from_text(text)

    def legal_actions(self, state: GameState, seat: str | None) -> list[Action]:
        return engine.legal_actions(state, seat)

    def apply(self, state: GameState, seat: str | None, action: Action) -> tuple[GameState, list[Event]]:
        """Play `action` for `seat`: the engine checks it is that seat's to take (a driver may
        choose tires before their start, A20.2, out of turn). `seat` None: the rally acts (a
        timeout, a retirement), or a log written before actors were kept replays as it was."""
        if seat is None or isinstance(action, (Retire, Timeout)):
            return engine.apply(state, action)
        if getattr(action, "driver", None) is None:
            action = replace(action, driver=seat)
        elif action.driver != seat:
            raise NotAllowed(msg("game.not_your_action"))
        return engine.apply(state, action)

    def to_act(self, state: GameState) -> frozenset[str]:
        if state.turn is None:
            return frozenset()
        return frozenset({state.cars[state.turn.car].id})

    def timeout_action(self, state: GameState, seat: str) -> Action:
        """The deadline passed: the bot ends the turn, a stop once a die is used (A6.4), else the
        car stands still and takes the no-move card (A13.5)."""
        return Stop() if state.turn is not None and state.turn.started else Timeout()

    def retire_action(self, seat: str) -> Action:
        """The seat leaves the rally (left, removed by the host, or too many missed turns)."""
        return Retire(seat)

    def midturn(self, view: RallymanView) -> bool:
        """A die of the turn is used already (then `/stop` is allowed, A6.3.7)."""
        turn = view.state.turn
        return turn is not None and turn.started

    def outcome(self, state: GameState) -> Outcome | None:
        """Seconds, lower is better: a rally by its total over every special (A2, A17), a single
        special by its stage time (A15.2); equal times by the last special's time (the power
        stage), then the start order (A17 OPEN-5). Knocked out and retired drivers are DNF, with
        their reason. None while the rally runs."""
        if not state.finished:
            return None
        rows: list[SeatResult] = []
        if state.course is not None and state.course.results:
            for r in rally_classification(state.course):
                power = r.times[-1] if r.times else None
                rows.append(SeatResult(r.driver, "finished" if r.total is not None else "dnf", r.total, None,
                                       (power or 0, r.seat), None if r.total is not None else r.reason or "retired"))
        else:
            for c in state.cars:
                done = c.status == FINISHED
                rows.append(SeatResult(c.id, "finished" if done else "dnf", c.time if done else None, None,
                                       (c.time if done else 0, c.seat), None if done else c.out_reason or "retired"))
        return Outcome(self.result, ranked(self.result, rows))

    def standing(self, state: GameState) -> Standing:
        """Finished: the outcome's ranks. Running: every driver still in by the total of the
        specials driven so far, then by their place on the special being driven (finished by
        time, then racing by distance, `classify.classification`); knocked out or retired: out."""
        if state.finished:
            outcome = self.outcome(state)
            assert outcome is not None
            return outcome_standing(outcome)
        driven = state.course is not None and bool(state.course.results)
        earlier = {r.driver: r.total for r in rally_classification(state.course)} if state.course and driven else {}
        rows: Standing = []
        for place, row in enumerate(special_classification(state)):
            out = row["status"] == OUT or (driven and earlier.get(row["driver"]) is None)
            rows.append((str(row["driver"]), None if out else (earlier.get(row["driver"]) or 0, place)))
        return rows

    def progress(self, view: RallymanView) -> tuple[int, int]:
        """(special, round): the board changes turn when either moves on."""
        state = view.state
        return (state.course.index if state.course else 0, state.round)

    def view(self, state: GameState, seat: str | None) -> RallymanView:
        return RallymanView(public(state), seat)


RULES = ClassicRules()
