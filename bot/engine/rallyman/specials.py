"""Setting up a special, and moving a rally of several specials on to the next one.

RULES A2 (a rally is a course of specials), A3 (start order: SS1 the host's order, then by the
classification of the specials driven so far; ties keep the previous start order, OPEN-5; drivers
out of the rally do not start), A16 (assistance after a flagged special: damage markers removed,
the spare tire back; without it damage, flats and tires carry over), A14.2 (the spare may be
fitted between specials: see `bot.engine.rallyman.turn.fit_spare`), A18.5/A16 (second markers never carry
over), A22 (the SISU card is one per rally, not per special); with the weather module, A20.1
(each special's weather rolled when it is set up, `bot.engine.rallyman.weather`) and A20.2 (tires chosen
again after an assistance, pre-set for the new weather).

The move happens inside `apply`, on the action that ends a special, so the action log replays a
whole rally with no extra entry. The dice source carries on from special to special (a seeded
source keeps its stream, a scripted one its script), and each special shuffles its own shortcut
deck (A9).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.core.dice import DiceSource, SeededDice
from bot.engine.core.errors import NotAllowed
from bot.engine.core.events import Event
from bot.engine.core.text import msg
from bot.engine.rallyman.course import Course, SpecialRow
from bot.engine.rallyman.order import consecutive_entry, next_turn
from bot.engine.rallyman.ruleset import Ruleset, load_ruleset
from bot.engine.rallyman.stages.catalogue import load_stage
from bot.engine.rallyman.stages.model import Stage
from bot.engine.rallyman.stages.weather import with_weather
from bot.engine.rallyman.state import FINISHED, OUT, Car, GameConfig, GameState
from bot.engine.rallyman.weather import default_tires, roll_weather, weather_events


@dataclass(frozen=True)
class Seat:
    """A driver in start order (A3): id (Discord user id or name), display name, tire choice."""

    id: str
    name: str
    tires: str | None = None


def setup_special(stage: Stage | str, seats: list[Seat], seed: int = 0, ruleset: str | Ruleset = "classic",
                  modules: dict[str, bool] | None = None, dice: DiceSource | None = None) -> GameState:
    """A special set up with its cars in start order, before anyone's first turn."""
    if not 1 <= len(seats) <= 4:
        raise NotAllowed(msg("game.seats", count=len(seats)))
    if len({s.id for s in seats}) != len(seats):
        raise NotAllowed(msg("game.duplicate_driver"))
    stage = load_stage(stage) if isinstance(stage, str) else stage
    base = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    modules = dict(modules or {})
    rules = base.with_modules(**modules) if modules else base
    dice = dice or SeededDice(seed)
    deck = dice.shuffle([kind for kind, n in rules.shortcut_deck.items() for _ in range(n)])
    weather = None
    if rules.modules.weather:  # A20.1: the weather of this special, before the first car starts
        weather = roll_weather(stage, rules, dice.common())  # the same for every driver of a round
        stage = with_weather(stage, weather)
    tires = default_tires(stage)
    cars = [Car(id=s.id, name=s.name, seat=i, tires=s.tires or tires) for i, s in enumerate(seats)]
    # the name as given: a rally stored under a ruleset's former name replays byte for byte
    config = GameConfig(stage=stage.name, ruleset=ruleset if isinstance(ruleset, str) else base.name, seed=seed,
                        modules=modules)
    state = GameState(stage=stage, rules=rules, config=config, cars=cars, dice=dice, deck=deck, weather=weather)
    if rules.stagger == "consecutive":
        state.entry = consecutive_entry(len(cars))
        state.round = 1
    return state


def special_rows(state: GameState) -> list[SpecialRow]:
    """Each driver's outcome of the special just ended, in start order."""
    rows = []
    for car in sorted(state.cars, key=lambda c: c.seat):
        finished = car.status == FINISHED
        rows.append(SpecialRow(car.id, car.name, car.time if finished else None,
                               None if finished else (car.out_reason or "retired"), car.seconds, car.lost_black,
                               car.flats))
    return rows


def start_order(course: Course, previous: list[str]) -> tuple[list[str], list[str]]:
    """(starters, non-starters) of the next special: A3 — fastest total of the specials driven so
    far first, ties in the previous start order (OPEN-5); a driver out of any special does not
    start again."""
    totals: dict[str, int | None] = {driver: 0 for driver in previous}
    for rows in course.results:
        for row in rows:
            before = totals.get(row.id)
            totals[row.id] = None if before is None or row.time is None else before + row.time
    rank = {driver: i for i, driver in enumerate(previous)}
    starters = sorted((d for d in previous if totals.get(d) is not None),
                      key=lambda d: (totals[d], rank[d]))
    return starters, [d for d in previous if totals.get(d) is None]


def advance_course(state: GameState, events: list[Event]) -> GameState:
    """The special in `state` is over: record it; unless it was the last, return the next special
    set up and its first turn begun (events say so). A special nobody can start is skipped."""
    assert state.course is not None
    course = state.course.clone()
    course.results.append(special_rows(state))
    events.append(Event("special_over", None, {"number": course.number, "title": state.stage.title}))
    if course.last:
        state.course = course
        return state
    assisted = course.assistance[course.index]
    course.index += 1
    previous = [c.id for c in sorted(state.cars, key=lambda c: c.seat)]
    starters, absent = start_order(course, previous)
    cars = {c.id: c for c in state.cars}
    limit = state.rules.knocked_out_at_black_lost
    wrecks = [] if assisted else [d for d in starters if cars[d].lost_black >= limit]
    if len(wrecks) == len(starters):  # nobody left to start the next special: the rally ends here (A2)
        return _stop(state, course, wrecks, events)
    # A20.2: with the weather module, tires are chosen again after an assistance (pre-set for the
    # new weather); otherwise they carry over
    choosing = assisted and state.rules.modules.weather
    seats = [Seat(d, cars[d].name, None if choosing else cars[d].tires) for d in starters + absent]
    new = setup_special(course.specials[course.index], seats, state.config.seed, state.config.ruleset,
                        state.config.modules, state.dice.clone())
    wrecked: list[Event] = []
    for car in new.cars:
        carry_over(cars[car.id], car, assisted, keep_tires=not choosing)
        if car.id in absent:
            car.status = OUT
            car.out_reason = cars[car.id].out_reason or "retired"
        elif car.lost_black >= state.rules.knocked_out_at_black_lost:
            # A15.3 took its last black die on the finish line and no assistance (A16) repairs
            # it: it could never move again, so it is knocked out now (A12.5, OPEN-10) instead
            # of standing still at the start for ever
            car.status = OUT
            car.out_reason = "damage_ko"
            car.pose = "normal"
            wrecked.append(Event("damage_ko", car.id, {"lost": car.lost_black}))
    new.course = course
    new.moves = state.moves
    events.extend(wrecked)
    knocked_out = {e.driver for e in wrecked}
    names = ", ".join(cars[d].name for d in starters if d not in knocked_out)
    events.append(Event("special_start", None, {"number": course.number, "title": new.stage.title,
                                                "order": names, "assistance": "yes" if assisted else "no"}))
    events.extend(weather_events(new))  # A20.1: known before the first car starts
    next_turn(new, events)
    if new.turn is None and not new.entry:  # nobody could start it (a case `_stop` did not foresee)
        return advance_course(new, events)
    return new


def _stop(state: GameState, course: Course, wrecks: list[str], events: list[Event]) -> GameState:
    """Nobody can start the next special (every driver out, or the last ones knocked out by
    damage no assistance repairs, A12.5, AMB-22): the rally ends after the special just driven,
    whose table stands; no later special is set up or announced."""
    course.index -= 1  # the special driven last (`advance_course` had counted the next one)
    cars = {c.id: c for c in state.cars}
    for driver in wrecks:
        events.append(Event("damage_ko", driver, {"lost": cars[driver].lost_black}))
    course.stopped = True
    course.dnf = {driver: "damage_ko" for driver in wrecks}
    events.append(Event("course_stopped", None, {"number": course.number + 1, "last": course.number}))
    state.course = course
    return state


def carry_over(old: Car, new: Car, assisted: bool, keep_tires: bool = True) -> None:
    """What a car takes into the next special: its SISU card always, its tires unless they are
    chosen again (A20.2: only at an assistance, with the weather module: `keep_tires` False);
    damage, flats and a used spare only without assistance (A16). Second markers never (A16)."""
    if keep_tires:
        new.tires = old.tires
    new.sisu = old.sisu
    if not assisted:
        new.lost_black = old.lost_black
        new.flats = old.flats
        new.spare = old.spare
