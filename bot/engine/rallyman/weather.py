"""Weather and tires, the Rules+ module `weather` (RULES A20, AMB-16, OPEN-13).

A20.1 weather: at the start of each special, before the first car starts, one gear die is rolled
per zone of that special in route order (a zone crossed twice is rolled once, at its first
appearance); ⚠ turns the zone to its snow side. The die of the i-th zone is
`rules.weather_dice[(i - 1) mod len]` (1st die for the 1st zone …, OPEN-13 beyond the 4th). With
`weather_forecast: certain` (DE, AMB-16) nothing is rolled: the stage's fixed snow zones stay.

The result is part of the game state (`GameState.weather`, the zones on their snow side): the
state's stage is a copy of the cached stage with those `snow_zones`, so every rule reading
`stage.snow_zones` (surfaces A20.3/A20.4, crash legends A12.1, the board) sees the weather, and
`GameState.from_dict` rebuilds the same snowy stage. Without the module `weather` is None and the
stage is the cached one, unchanged.

A20.2 tires: before SS1 and before every special preceded by an assistance, after the weather is
known, each driver may pick asphalt or snow tires (`tires snow`) until their first die of that
special; the tires are pre-set to the choice `default_tires` makes for the driver (snow when
most of the special is snow). Otherwise tires carry over.
"""

from __future__ import annotations

from bot.engine.core.dice import DiceSource
from bot.engine.core.errors import NotAllowed
from bot.engine.core.events import Event
from bot.engine.core.text import msg
from bot.engine.rallyman.actions import Tires
from bot.engine.rallyman.ruleset import Ruleset
from bot.engine.rallyman.stages.model import START, Stage
from bot.engine.rallyman.state import FINISHED, OUT, Car, GameState

TIRES = ("asphalt", "snow")


def weather_die(rules: Ruleset, i: int) -> str:
    """The gear die rolled for the zone at place `i` (0-based) of the route (A20.1, OPEN-13)."""
    return rules.weather_dice[i % len(rules.weather_dice)]


def roll_weather(stage: Stage, rules: Ruleset, dice: DiceSource) -> tuple[str, ...]:
    """The zones of `stage` on their snow side for this special, in route order (A20.1)."""
    if rules.weather_forecast == "certain":
        return tuple(z for z in stage.zone_order if z in stage.snow_zones)
    snow = []
    for i, zone in enumerate(stage.zone_order):
        die = weather_die(rules, i)
        if dice.roll(die, rules.dice.faces, rules.dice.hazard_faces[die]):
            snow.append(zone)
    return tuple(snow)




def weather_events(state: GameState) -> list[Event]:
    """The `weather` event of the special in `state` (empty without the module): which zones
    the roll turned to their snow side. `apply` emits it when a later special of a rally is set
    up; for the first special the caller of `new_game` passes an event list (or calls this)."""
    if state.weather is None:
        return []
    snow = list(state.weather)
    dry = [z for z in state.stage.zone_order if z not in snow]
    number = state.course.number if state.course is not None else 1
    return [Event("weather", None, {"number": number, "zones": ", ".join(snow) or "none",
                                    "dry": ", ".join(dry) or "none", "count": len(snow),
                                    "forecast": state.rules.weather_forecast})]


def default_tires(stage: Stage) -> str:
    """Snow tires when most of the stage is on snow, else asphalt (A20.2 choice made for the
    driver, and the AI's choice)."""
    if not stage.snow_zones:  # no zone on its snow side (the weather module off, or a dry roll)
        return "asphalt"
    found = _TIRES.get(id(stage))  # every special sets up with it: worked out once per stage object
    if found is None or found[0] is not stage:
        if len(_TIRES) > 500:
            _TIRES.clear()
        snowy = sum(1 for s in stage.spaces if s.zone in stage.snow_zones and s.surface_snow.value == "snow")
        found = _TIRES[id(stage)] = (stage, "snow" if snowy * 2 > len(stage.spaces) else "asphalt")
    return found[1]


_TIRES: dict[int, tuple[Stage, str]] = {}  # id → (the stage, kept alive so its id is not reused; tires)


def tire_change_special(state: GameState) -> bool:
    """Whether tires may be chosen before this special (A20.2: SS1, or after an assistance)."""
    course = state.course
    return course is None or course.index == 0 or course.assistance[course.index - 1]


def _started(state: GameState, car: Car) -> bool:
    turn = state.turn
    rolling = turn is not None and state.cars[turn.car] is car and turn.started
    return rolling or car.position != START


def tire_refusal(state: GameState, car: Car) -> str | None:
    """Why `car` may not choose tires now (a message), or None when it may."""
    if not state.rules.modules.weather:
        return msg("tires.module_off")
    if car.status in (FINISHED, OUT):
        return msg("tires.not_racing", name=car.name)
    if not tire_change_special(state):
        assert state.course is not None, "without a course every special is a first one"
        return msg("tires.carry_over", number=state.course.number, previous=state.course.index,
                   tires=msg(f"word.tires_{car.tires}"))
    if _started(state, car):
        return msg("tires.after_start", tires=msg(f"word.tires_{car.tires}"))
    return None


def tire_actions(state: GameState, car: Car) -> list[Tires]:
    """The tire choice open to `car` now, if any (only the change: keeping them is no action)."""
    if not state.rules.modules.weather or tire_refusal(state, car) is not None:
        return []
    return [Tires(kind, driver=car.id) for kind in TIRES if kind != car.tires]


def choose_tires(state: GameState, action: Tires) -> tuple[GameState, list[Event]]:
    """Apply a tire choice (A20.2) for the driver named by the action, or the one whose turn it
    is; it may come from a driver still waiting to start (no turn needed)."""
    if action.tires not in TIRES:
        raise NotAllowed(msg("tires.unknown"), TIRES)
    if action.driver is None:
        if state.turn is None:
            raise NotAllowed(msg("turn.stage_over"))
        car = state.cars[state.turn.car]
    else:
        found = state.car_by_id(action.driver)
        if found is None:
            raise NotAllowed(msg("turn.not_a_driver"))
        car = found
    reason = tire_refusal(state, car)
    if reason is not None:
        raise NotAllowed(reason)
    new = state.clone()
    target = new.car_by_id(car.id)
    assert target is not None, "the clone holds the same cars"
    target.tires = action.tires
    new.moves += 1
    return new, [Event("tires", target.id, {"name": target.name, "tires": action.tires})]
