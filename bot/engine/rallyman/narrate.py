"""Engine events as the lines a spectator reads: messages (keys and params), shown in the reader's language
by the boundary."""

from __future__ import annotations

from bot.engine.core.events import Event
from bot.engine.core.text import Listed, msg
from bot.engine.rallyman.loss_causes import loss_cause_word
from bot.engine.rallyman.public import Shown

QUIET = frozenset({"turn"})  # shown by the turn prompt instead
#: Terrains a car can leave the road into (RULES D1), each with its word in the catalogue. Closed
#: tables, code → key: no key is built from a value an event carries.
TERRAINS = {"grass": "render.terrain.grass", "dirt": "render.terrain.dirt", "snow": "render.terrain.snow",
            "forest": "render.terrain.forest", "rocks": "render.terrain.rocks",
            "village": "render.terrain.village", "water": "render.terrain.water"}
#: Event codes that are words of the catalogue, shown in the reader's language; a loss of control's
#: `cause` has words of its own (`bot.engine.rallyman.loss_causes`).
WORDS = {"spin": "word.spin", "off_left": "word.off_left", "off_right": "word.off_right", "fastest": "word.fastest",
         "knocked_out": "word.knocked_out", "retired": "word.retired"}
#: The weather event's lists of zones (A20.1): "none" when a list is empty, a word of the catalogue.
ZONE_LISTS = frozenset({"zones", "dry"})
#: Tires as an event names them (A20.2), each a word of the catalogue.
TIRES = {"snow": "word.tires_snow", "asphalt": "word.tires_asphalt"}


def event_line(event: Event, state: Shown | None = None) -> str:
    """One event in words; codes such as `off_left` become words (`word.off_left`)."""
    params = {k: (loss_cause_word(v, event.params.get("limit")) if k == "cause"
                  else msg("word.no_zone") if event.kind == "weather" and k in ZONE_LISTS and v == "none"
                  else msg(WORDS[v]) if isinstance(v, str) and v in WORDS
                  else msg(TERRAINS[v]) if k == "terrain" and isinstance(v, str) and v in TERRAINS
                  else msg(TIRES[v]) if k == "tires" and isinstance(v, str) and v in TIRES else v)
              for k, v in event.params.items()}
    if event.kind == "damage" and not event.params.get("lost"):  # a terrain of no damage (A12.1: grass 0)
        text = msg("event.damage_none", terrain=params.get("terrain"))
    else:
        text = msg(f"event.{event.kind}", **params)
    name = _name(event.driver, state)
    return msg("event.by_driver", name=name, text=text) if name and event.kind not in ("stage_over", "retired") \
        else text


def _name(driver: str | None, state: Shown | None) -> str | None:
    if driver is None or state is None:
        return driver
    car = state.car_by_id(driver)
    return car.name if car else driver


def narrate(events: list[Event], state: Shown) -> list[str]:
    """The turn's story: dice of one car on one line, then what happened."""
    lines: list[str] = []
    dice: list[str] = []
    last: Event | None = None

    def flush() -> None:
        if dice and last is not None:
            lines.append(msg("narrate.dice", name=_name(last.driver, state), dice=Listed(list(dice), "dot"),
                           space=last.params["space"], hazards=last.params["hazards"]))
            dice.clear()

    for event in events:
        if event.kind == "die":
            face = msg("word.white_face") if event.params["die"] == "white" else event.params["die"]
            dice.append(msg("word.hazard_face", face=face) if event.params["hazard"] else face)
            last = event
            continue
        flush()
        if event.kind not in QUIET:
            lines.append(event_line(event, state))
    flush()
    return lines
