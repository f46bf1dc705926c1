"""Engine events as lines a spectator reads, from the message catalogue."""

from __future__ import annotations

from bot.engine.actions import Event
from bot.engine.state import GameState
from bot.i18n import catalogue, t

QUIET = frozenset({"turn"})  # shown by the turn prompt instead


def event_line(event: Event, state: GameState | None = None) -> str:
    """One event in words; codes such as `off_left` become words (`word.off_left`)."""
    messages = catalogue()
    params = {k: (t(f"word.{v}") if isinstance(v, str) and f"word.{v}" in messages else v)
              for k, v in event.params.items()}
    text = t(f"event.{event.kind}", **params)
    name = _name(event.driver, state)
    return f"**{name}** {text}" if name and event.kind not in ("stage_over", "retired") else text


def _name(driver: str | None, state: GameState | None) -> str | None:
    if driver is None or state is None:
        return driver
    car = state.car_by_id(driver)
    return car.name if car else driver


def narrate(events: list[Event], state: GameState) -> list[str]:
    """The turn's story: dice of one car on one line, then what happened."""
    lines: list[str] = []
    dice: list[str] = []
    last: Event | None = None

    def flush() -> None:
        if dice and last is not None:
            lines.append(t("narrate.dice", name=_name(last.driver, state), dice=" · ".join(dice),
                           space=last.params["space"], hazards=last.params["hazards"]))
            dice.clear()

    for event in events:
        if event.kind == "die":
            face = "W" if event.params["die"] == "white" else event.params["die"]
            dice.append(face + ("⚠" if event.params["hazard"] else ""))
            last = event
            continue
        flush()
        if event.kind not in QUIET:
            lines.append(event_line(event, state))
    flush()
    return lines
