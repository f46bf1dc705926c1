"""Dice Dash: a toy push-your-luck race, registered in tests only.

Each seat in turn rolls a six-sided die as often as it likes, adding the faces to the turn's
pot, then `bank`s the pot as points; a 1 loses the pot and ends the turn. After `rounds` rounds
(the stage name `dash-N`: N rounds, default 3) the most points win (victory points, higher is
better: the other way from Rallyman's seconds). One or two seats, so a league round can be
driven alone. Its dice are the engine's seeded or named streams, in the state.

It is the worked example of the `Game` seam (bot.engine.core.game): the required rules facet, then
commands, narrator, library, coach and careers, each a small class here, assembled by `dice_dash`;
it draws no pictures and hides nothing, so those facets are None.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from bot.engine.core.dice import DiceSource, SeededDice, StreamDice, dice_from_dict
from bot.engine.core.difficulty import length_class
from bot.engine.core.errors import NotAllowed
from bot.engine.core.events import Event
from bot.engine.core.game import (
    POINTS,
    Button,
    Game,
    Outcome,
    Prompt,
    SeatRange,
    SeatResult,
    StageFacts,
    StageLibrary,
    Standing,
    Told,
    Verb,
    check_schema,
    outcome_standing,
    ranked,
    stage_option,
)
from bot.engine.core.log import CodecError, Lifecycle, Start, Status, lifecycle_fields, to_text
from bot.engine.core.text import msg

FACES = {str(f): 1 for f in range(1, 7)}


@dataclass(frozen=True)
class Act:
    kind: str  # "roll" | "bank" | "retire" | "timeout"
    target: str | None = None
    driver: str | None = None


@dataclass
class Dash:
    seats: list[tuple[str, str]]
    rounds: int
    dice: DiceSource
    points: dict[str, int] = field(default_factory=dict)
    out: list[str] = field(default_factory=list)
    round: int = 1
    turn: int = 0
    pot: int = 0

    def clone(self) -> Dash:
        return replace(self, dice=self.dice.clone(), points=dict(self.points), out=list(self.out))


class Stages:
    def names(self) -> list[str]:
        return ["dash-3", "dash-5"]

    def exists(self, name: str) -> bool:
        return name.startswith("dash-") and name[5:].isdigit() and 1 <= int(name[5:]) <= 9

    def facts(self, name: str) -> StageFacts:
        if not self.exists(name):
            raise NotAllowed(msg("toy.unknown_track", name=name[:20]))
        length = int(name[5:])
        return StageFacts(name, f"Dash {name[5:]}", length, 0, length_class=length_class(length, 4, 7))

    def digest(self, name: str) -> str:
        return hashlib.sha256(name.encode()).hexdigest()  # a track is its name: its "text"

    def official(self, week: str) -> str:
        """The week's official track: `dash-3` to `dash-5`, from the week's number alone."""
        return f"dash-{3 + int(week.split('-W')[1]) % 3}"


@dataclass(frozen=True)
class View:
    state: Dash
    seat: str | None


def _over(state: Dash) -> bool:
    """Every round played, or every seat out."""
    return state.round > state.rounds or len(state.out) == len(state.seats)


class DashRules:
    """The toy's rules: a state of seats, dice, points and a pot."""

    id = "dicedash"
    seats = SeatRange(1, 2)
    result = POINTS
    state_schema = 1

    def setup(self, seed: int, seats: Sequence[tuple[str, str]], options: Mapping[str, Any]) -> tuple[Dash, list]:
        facts = Stages().facts(stage_option(self.id, options))
        streams = (options.get("modules") or {}).get("streams")
        dice: DiceSource = StreamDice(streams["key"], streams["common"]) if streams else SeededDice(seed)
        state = Dash(list(seats), facts.length, dice, {s: 0 for s, _ in seats})
        return state, [Event("toy_turn", seats[0][0], {"name": seats[0][1]})]

    def to_json(self, s: Dash) -> str:
        return json.dumps({"schema": 1, "seats": s.seats, "rounds": s.rounds, "dice": s.dice.to_dict(),
                           "points": s.points, "out": s.out, "round": s.round, "turn": s.turn, "pot": s.pot},
                          sort_keys=True, separators=(",", ":"))

    def from_json(self, text: str) -> Dash:
        d = json.loads(text)
        check_schema(self.id, 1, d.get("schema"))
        return Dash([tuple(x) for x in d["seats"]], d["rounds"], dice_from_dict(d["dice"]), d["points"], d["out"],
                    d["round"], d["turn"], d["pot"])

    def encode(self, action: Act | Lifecycle) -> str:
        fields = lifecycle_fields(action) if isinstance(action, (Start, Status)) else \
            {"type": action.kind, **({"target": action.target} if action.target else {})}
        return to_text({"v": 1, **fields})

    def decode(self, text: str) -> Act | Lifecycle:
        d = json.loads(text)
        if not isinstance(d, dict) or d.get("v") != 1:
            raise CodecError("v: not a log entry of version 1")
        if d.get("type") == "start":
            return Start(tuple(d["seats"]))
        if d.get("type") == "status":
            return Status(d["status"])
        if d.get("type") not in ("roll", "bank", "retire", "timeout"):
            raise CodecError(f"type: unknown entry type {d.get('type')!r}")
        return Act(d["type"], d.get("target"))

    def legal_actions(self, state: Dash, seat: str | None) -> list[Act]:
        return [Act("roll"), Act("bank")] if seat is None or seat in self.to_act(state) else []

    def to_act(self, state: Dash) -> frozenset[str]:
        return frozenset() if _over(state) else frozenset({state.seats[state.turn][0]})

    def apply(self, state: Dash, seat: str | None, action: Act) -> tuple[Dash, list[Event]]:
        if _over(state):
            raise NotAllowed(msg("toy.over"))
        if seat is not None and action.kind in ("roll", "bank") and seat not in self.to_act(state):
            raise NotAllowed(msg("toy.not_yours"))
        new, events = state.clone(), []
        me = new.seats[new.turn][0]
        if action.kind == "retire":
            new.out.append(action.target or me)
            events.append(Event("toy_out", action.target, {}))
            if action.target == me:
                self._next(new, events)
        elif action.kind == "roll":
            face = int(new.dice.pick("d6", FACES))
            events.append(Event("toy_roll", me, {"face": face}))
            if face == 1:
                new.pot = 0
                self._next(new, events)
            else:
                new.pot += face
        else:  # bank, or the deadline banks what the pot holds
            new.points[me] += new.pot
            events.append(Event("toy_bank", me, {"points": new.pot}))
            self._next(new, events)
        return new, events

    def _next(self, s: Dash, events: list[Event]) -> None:
        s.pot = 0
        for _ in range(len(s.seats) + 1):
            s.turn += 1
            if s.turn == len(s.seats):
                s.turn, s.round = 0, s.round + 1
            if s.round > s.rounds or s.seats[s.turn][0] not in s.out:
                break
        if not _over(s):
            events.append(Event("toy_turn", s.seats[s.turn][0], {"name": s.seats[s.turn][1]}))

    def retire_action(self, seat: str) -> Act:
        return Act("retire", seat)

    def timeout_action(self, state: Dash, seat: str) -> Act:
        return Act("timeout")  # banks the pot

    def midturn(self, view: View) -> bool:
        return view.state.pot > 0

    def progress(self, view: View) -> tuple[int, int]:
        return (view.state.round, view.state.turn)

    def outcome(self, state: Dash) -> Outcome | None:
        if not _over(state):
            return None
        rows = [SeatResult(s, "retired" if s in state.out else "finished", None if s in state.out else
                           state.points[s], None, (i,), "retired" if s in state.out else None)
                for i, (s, _) in enumerate(state.seats)]
        return Outcome(POINTS, ranked(POINTS, rows))

    def standing(self, state: Dash) -> Standing:
        """Finished: the outcome's ranks; running: by the points banked so far; retired: out."""
        outcome = self.outcome(state)
        if outcome is not None:
            return outcome_standing(outcome)
        return [(s, None if s in state.out else (-state.points.get(s, 0),)) for s, _ in state.seats]

    def view(self, state: Dash, seat: str | None) -> View:
        return View(state, seat)


RULES = DashRules()


class DashCommands:
    """`/dash` rolls, `/bank` banks."""

    verbs: tuple[Verb, ...] = (Verb("dash", "toy.cmd.dash", "roll"), Verb("bank", "toy.cmd.bank", "bank"))

    def parse(self, text: str, state: Dash, seat: str) -> Act:
        word = text.strip().lower()
        if word not in ("roll", "bank"):
            raise NotAllowed(msg("toy.bad_words", text=word[:20]))
        return Act(word)

    def label(self, action: Act) -> str:
        return action.kind

    def typed(self, action: Act) -> str:
        return "dash" if action.kind == "roll" else "bank"

    def button(self, label: str) -> Button | None:
        return Button(msg("toy.button_" + label), "primary" if label == "roll" else "success") \
            if label in ("roll", "bank") else None

    def typed_words(self, label: str) -> str:
        return label  # the toy has no words of its own: `roll`, `bank` in every language


class DashNarrator:
    """What the toy says, as message keys (data in tests/toy_game/text)."""

    def prompt(self, view: View, events: Sequence[Event]) -> Prompt:
        seats = RULES.to_act(view.state)
        new_turn = not events or any(e.kind == "toy_turn" for e in events)
        return Prompt(tuple(msg("toy.your_turn", name=self.seat_name(view, s)) for s in seats), seats,
                      ("roll", "bank") if seats else (), new_turn)

    def tell(self, view: View, events: Sequence[Event]) -> Told:
        return Told((), tuple(msg(f"toy.event_{e.kind[4:]}", **e.params) for e in events))

    def seat_name(self, view: View, seat: str) -> str | None:
        return dict(view.state.seats).get(seat)

    def title(self, view: View) -> str:
        return f"Dash {view.state.rounds}"

    def status(self, view: View) -> list[str]:
        return [msg("toy.standing", name=n, points=view.state.points[s]) for s, n in view.state.seats]

    def classification(self, view: View) -> list[str]:
        outcome = RULES.outcome(view.state)
        return [msg("toy.standing", name=self.seat_name(view, r.seat), points=r.score or 0)
                for r in (outcome.seats if outcome else ())]

    def out_reason(self, code: str) -> str:
        return msg("toy.retired")

    def up_next(self, view: View) -> str | None:
        return None

    def start_order(self, view: View) -> list[str]:
        """The seats' order."""
        return [seat for seat, _ in view.state.seats]


class DashLibrary:
    """Its stages `dash-N` (N rounds) and its two rulesets, which play alike."""

    name = "toy.name"
    solo_runs = True
    stages: StageLibrary = Stages()
    modules: tuple[str, ...] = ()
    out_reasons: tuple[str, ...] = ("retired",)
    texts: Path | None = Path(__file__).parent / "text"

    def rulesets(self) -> list[str]:
        # "provisional" first: the toy's world weeks play it (a game's first ruleset is its default);
        # "classic" is the lobby's default name. Both play the same; only the label differs.
        return ["provisional", "classic"]

    def provisional(self, ruleset: str) -> bool:
        return ruleset == "provisional"

    def summary(self, ruleset: str) -> list[str]:
        if ruleset not in self.rulesets():
            raise NotAllowed(msg("toy.bad_words", text=ruleset[:20]))
        return [msg("toy.rules", ruleset=ruleset)]

    def default_stage(self, ruleset: str) -> None:
        """A rally of this game names its stage (`/rally create stage:`): there is no default."""
        return None


class DashCoach:
    """The textbook AI ("hold at 12")."""

    def choose(self, view: View, seat: str, risk: float | None = None) -> Act:
        return Act("roll") if view.state.pot < 12 else Act("bank")  # the textbook "hold at 12"

    def simulate(self, stages: Sequence[str], drivers: int, seed: int, assistance: Sequence[bool],
                 modules: str, ruleset: str | None = None) -> dict[str, Any]:
        state, _ = RULES.setup(seed, [(str(-i), f"AI {i}") for i in range(1, drivers + 1)], {"stage": stages[0]})
        while not _over(state):
            (seat,) = RULES.to_act(state)
            state, _ = RULES.apply(state, seat, self.choose(RULES.view(state, seat), seat))
        outcome = RULES.outcome(state)
        return {"points": [r.score for r in outcome.seats]} if outcome else {}



class DashCareer:
    """Career counters: a turn begun, a bust."""

    def tally(self, events: Sequence[Event]) -> dict[str, dict[str, int]]:
        """Career counters: a turn begun, a bust (a 1 loses the pot) counted as a loss of control."""
        out: dict[str, dict[str, int]] = {}
        for e in events:
            if e.driver is None:
                continue
            row = out.setdefault(e.driver, {})
            row.setdefault("losses", 0)  # a fact this game has: 0 included
            if e.kind == "toy_turn":
                row["turns"] = row.get("turns", 0) + 1
            elif e.kind == "toy_roll" and e.params["face"] == 1:
                row["losses"] += 1
        return out


def dice_dash(**changed: Any) -> Game[Dash, Act, View, Event]:
    """A new Dice Dash: rules, commands, narrator, library, coach and careers; no pictures, no
    hidden hands, no ghosts (those facets are None). `changed`: facets of a test's own variant."""
    game: Game[Dash, Act, View, Event] = Game(rules=RULES, commands=DashCommands(), narrator=DashNarrator(),
                                              library=DashLibrary(), coach=DashCoach(), career=DashCareer())
    return replace(game, **changed)
