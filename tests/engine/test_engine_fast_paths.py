"""The engine's fast paths change nothing: whole specials give the very same states, events, AI
choices, refusals and odds as the engine gave before it was compiled into tables and memoised.

Every case below drives a special (every shipped stage, generated stages, a rally of several
specials; 1 to 4 drivers; several seeds; rule modules and rulesets; house rules that take the
rarer branches of the movement rules) and feeds a SHA-256 with everything a user or the store
could see: each state's `to_dict()` JSON, each action, each event (its message keys and params and
its English text). "Probed" cases also drive some random legal actions (losses of control, knock-outs,
shortcuts, dirt) and, at every state, record what the engine answers to everything a driver could
try there: each single die on each line, multi-die plans and their odds, stop, spare, lines, a
timeout, another driver's roll, typed texts, the legal actions, the AI's choice at other risks, and
the message of every refusal.

The reference digests (tests/engine/fast_paths_reference.json: one SHA-256 and record count per
case) were computed once by the engine as it was before the fast paths (commit c32f398, nothing
under bot/engine changed yet), with

    python tests/engine/test_engine_fast_paths.py --write

and checked again afterwards against that engine alone (`git archive c32f398 bot data` unpacked
elsewhere and first on `sys.path`, `play_case` run for every case). They must never be regenerated
to make this test pass: a difference is a change of behaviour (replayed snapshots, result cards
and AI choices would no longer match). Regenerate only for a deliberate rules change, and say so.

Deliberate changes since, each checked to be the only change:
- item 10, the AI weighs the exact odds of a loss of control against the seconds at stake
  (`ai.worth_the_risk`, so it may roll on at two ⚠). The AI drives every case, so every digest
  moved; the engine with the old `bot/engine/rallyman/ai.py` alone put back gave the old reference exactly.
- items 1–2, each loss-of-control trigger has its own cause (`snow_hazards`, `snow_turn_hazards`)
  and the `loss_of_control`/`sisu` events carry the ⚠ `limit` they were reached at. With those two
  params mapped back (snow causes to `hazards`, no `limit`), every case gave the item-10 digests.
- item 11, `/odds` and the AI's one-die risk count the AMB-8 option `snow_threshold_scope: turn` as
  the turn does: only the `snow_threshold_scope=turn` cases whose cars meet snow on asphalt tires
  changed (with the two params above mapped back, every other case gave the digests before it).
- the `dice_stopped` event keeps its reason as a message (read in the reader's language), no longer
  as English text: with it read as text again, every case gave the digests before.
  The same check showed that A19's "one more ⚠ would lose control" counting the AMB-8 turn-scope
  option (`markers.critical`) changes no case.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

if __name__ == "__main__":  # run as a script to write the reference: the repository root on the path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import bot  # noqa: F401  (registers the message catalogue: refusals read in English, as users see them)
from bot.engine.core.errors import RallyError
from bot.engine.core.text import Listed, Msg, to_json
from bot.engine.rallyman.actions import LINES, ChooseLine, Place, Roll, Spare, Stop, Timeout
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.course import course_of
from bot.engine.rallyman.game import apply, legal_actions, new_game
from bot.engine.rallyman.odds import odds
from bot.engine.rallyman.parse import parse
from bot.engine.rallyman.ruleset import Ruleset, load_ruleset
from bot.engine.rallyman.simulate import ai_seats
from bot.engine.rallyman.stages.loader import stage_names
from bot.engine.rallyman.state import GameState

REFERENCE = Path(__file__).with_name("fast_paths_reference.json")
DICE = ("1", "2", "3", "4", "5", "W")
TEXTS = ("3", "w", "4 skid", "2 shortcut", "3 4 stop", "w w", "5 interior", "stop", "spare", "line skid",
         "place 3", "attack 3 4")


@dataclass(frozen=True)
class Case:
    """One special (or rally) to drive; `wild` is the share of turns taken by a random legal
    action instead of the AI's; `probe` records every answer at every state."""

    stage: str
    drivers: int = 4
    seed: int = 0
    ruleset: str = "classic"
    modules: dict[str, bool] = field(default_factory=dict)
    house: dict[str, object] = field(default_factory=dict)  # ruleset settings changed (house rules)
    course: tuple[str, ...] = ()
    assistance: tuple[bool, ...] = ()
    wild: float = 0.0
    probe: bool = False

    @property
    def name(self) -> str:
        parts = [self.stage, f"d{self.drivers}", f"s{self.seed}", self.ruleset]
        parts += [f"+{m}" for m, on in sorted(self.modules.items()) if on]
        parts += [f"{k}={v}" for k, v in sorted(self.house.items())]
        if self.course:
            parts.append("course=" + ",".join(self.course) + "/" + "".join("A" if a else "-" for a in self.assistance))
        if self.wild:
            parts.append(f"wild{self.wild}")
        if self.probe:
            parts.append("probe")
        return " ".join(parts)


HOUSE = {"spun_car_blocks_corner": True, "overspeed_reference": "space", "bump_beyond_n2": "knocked_out",
         "snow_threshold_scope": "turn", "sisu_scope": "die", "sisu_against_bump": False,
         "spend_seconds_anytime": True}


#: the shipped stages the reference was computed on
REFERENCE_STAGES = ("black-moor", "frozen-lakes", "grand-marathon", "greystone-col", "hollowell-winter",
                    "millbrook-lakes", "pinewood-sprint", "quarry-switchbacks", "ridge-and-moor")


def cases() -> list[Case]:
    stages = list(REFERENCE_STAGES)
    assert set(stages) <= set(stage_names()), "a reference stage is no longer shipped"
    out: list[Case] = []
    for stage in stages:  # the AI alone, as the benchmark and the demos drive
        for drivers in (1, 2, 3, 4):
            for seed in (0, 1):
                out.append(Case(stage, drivers, seed + 10 * drivers))
        out.append(Case(stage, 4, 5, modules={"weather": True}))
        out.append(Case(stage, 3, 7, wild=0.25, probe=True))
    for stage in ("gen-7", "gen-11-45", "gen-23-80"):
        out.append(Case(stage, 4, 3))
        out.append(Case(stage, 2, 4, wild=0.25, probe=True))
    for stage in stages[:4]:
        out.append(Case(stage, 3, 2, ruleset="classic-consecutive"))
        out.append(Case(stage, 3, 2, ruleset="classic-sisu", wild=0.3))
        out.append(Case(stage, 2, 8, modules={"shakedown": True}, wild=0.3))
        out.append(Case(stage, 3, 9, modules={"splits": True, "weather": True}))
        out.append(Case(stage, 4, 6, house=HOUSE, ruleset="classic-sisu", wild=0.3))
    for stage in stages[4:7]:
        out.append(Case(stage, 2, 1, modules={"attack": True, "seconds": True}))
        out.append(Case(stage, 2, 12, modules={"attack": True, "seconds": True, "weather": True}, wild=0.2,
                        probe=True))
        out.append(Case(stage, 3, 13, modules={"seconds": True}, house={"spend_seconds_anytime": True}, wild=0.2,
                        probe=True))
        out.append(Case(stage, 3, 14, house=HOUSE, wild=0.3, probe=True))
    out.append(Case(stages[0], 3, 4, modules={"weather": True, "sisu": True},
                    course=(stages[0], stages[3], "gen-5"), assistance=(True, False, True)))
    out.append(Case(stages[2], 2, 6, course=(stages[2], stages[5]), assistance=(False, True), wild=0.2, probe=True))
    return out


def _ruleset(case: Case) -> Ruleset | str:
    if not case.house:
        return case.ruleset
    return load_ruleset(case.ruleset).model_copy(update=case.house)


def _plain(value: object) -> object:
    """A value as JSON data: a message as its key and params *and* its English text."""
    if isinstance(value, (Msg, Listed)):
        return [to_json(value), str(value)]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _refusal(exc: RallyError) -> list:
    return [type(exc).__name__, _plain(exc.message), str(exc), list(getattr(exc, "allowed", ())),
            list(getattr(exc, "options", ()))]


class Record:
    def __init__(self) -> None:
        self.hash = hashlib.sha256()
        self.count = 0

    def add(self, *items: object) -> None:
        self.hash.update(json.dumps(_plain(list(items)), ensure_ascii=False, default=repr).encode())
        self.hash.update(b"\n")
        self.count += 1

    def state(self, state: GameState) -> None:
        self.add("state", state.to_dict())

    def outcome(self, what: str, call) -> None:
        try:
            result = call()
        except RallyError as exc:
            self.add(what, "refused", _refusal(exc))
            return
        if isinstance(result, tuple) and len(result) == 2 and isinstance(result[0], GameState):
            new, events = result
            self.add(what, new.to_dict(), [e.to_dict() for e in events])
        else:
            self.add(what, repr(result))


def _probe(rec: Record, state: GameState) -> None:
    """Everything a driver could try on this state, and the engine's answers."""
    rec.add("legal", [repr(a) for a in legal_actions(state)])
    if state.turn is None:
        return
    turn = state.turn
    car = state.cars[turn.car]
    for other in state.cars:
        if other is not car:
            rec.add("legal_other", other.id, [repr(a) for a in legal_actions(state, other.id)])
            rec.outcome(f"other_roll {other.id}", lambda o=other: apply(state, Roll(("3",), driver=o.id)))
            break
    for risk in (0.0, 0.3, 1.0):
        rec.outcome(f"ai {risk}", lambda r=risk: choose_action(state, r))
    for die in DICE:
        for line in (None, *LINES):
            rec.outcome(f"roll {die} {line}", lambda d=die, ln=line: apply(state, Roll((d,), ln, driver=car.id)))
            if state.rules.modules.seconds:
                rec.outcome(f"place {die} {line}", lambda d=die, ln=line: apply(state, Place(d, ln)))
    g = turn.gear
    plans = [(str(g), "W", str(g + 1)), (str(g + 1), str(g + 2)), ("W", "W"), (str(g - 1), "W"), ("1", "2", "3"),
             (str(g), str(g + 1), str(g + 2), "W")]
    for dice in plans:
        if all(d == "W" or 1 <= int(d) <= 5 for d in dice):
            for line in (None, "skid", "shortcut"):
                plan = Roll(tuple(dice), line, line_at=len(dice) - 1 if line else 0)
                rec.outcome(f"odds {dice} {line}", lambda p=plan: odds(state, p))
                rec.outcome(f"plan {dice} {line}", lambda p=plan: apply(state, p))
    for action in (Stop(), Spare(), Timeout(), *(ChooseLine(line) for line in LINES)):
        rec.outcome(repr(action), lambda a=action: apply(state, a))
    for text in TEXTS:
        rec.outcome(f"parse {text}", lambda t=text: parse(t, state))


def play_case(case: Case) -> tuple[str, int]:
    """(digest, records) of one case, driven from scratch."""
    rec = Record()
    rng = random.Random(case.seed * 7919 + case.drivers)
    seats = ai_seats(case.drivers)
    course = course_of(list(case.course), list(case.assistance)) if case.course else None
    events: list = []
    state = new_game(case.stage, seats, seed=case.seed, ruleset=_ruleset(case), modules=dict(case.modules),
                     course=course, events=events)
    rec.add("events", [e.to_dict() for e in events])
    actions = 0
    while state.turn is not None and actions < 3000:
        rec.state(state)
        if case.probe:
            _probe(rec, state)
        action = choose_action(state)
        if case.wild and rng.random() < case.wild:
            options = legal_actions(state)
            action = options[rng.randrange(len(options))]
        rec.add("action", repr(action))
        state, events = apply(state, action)
        rec.add("events", [e.to_dict() for e in events])
        actions += 1
    rec.state(state)
    return rec.hash.hexdigest(), rec.count


def _reference() -> dict[str, dict]:
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


def test_the_cases_are_the_ones_of_the_reference():
    assert sorted(_reference()) == sorted(c.name for c in cases())


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.name)
def test_the_engine_plays_exactly_as_before(case):
    """Same states, events, AI choices, refusals and odds, record by record, as the reference."""
    expected = _reference()[case.name]
    digest, count = play_case(case)
    assert count == expected["records"], f"{case.name}: {count} records, the reference has {expected['records']}"
    assert digest == expected["digest"], f"{case.name}: the engine does not play as it did"


def _write() -> None:
    out = {}
    for case in cases():
        digest, count = play_case(case)
        out[case.name] = {"digest": digest, "records": count}
        print(f"{count:7d} {case.name}", flush=True)
    REFERENCE.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/engine/test_engine_fast_paths.py --write")
    _write()
