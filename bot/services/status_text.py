"""The board as text: for `/rally status`, the console, and screen readers."""

from __future__ import annotations

from bot.engine.classify import classification
from bot.engine.dice_rules import gear_name
from bot.engine.state import FINISHED, OUT, WAITING, GameState
from bot.engine.turn import format_time
from bot.i18n import t


def car_line(state: GameState, car) -> str:
    if car.status == FINISHED:
        return t("status.finished", name=car.name, time=format_time(car.time))
    if car.status == OUT:
        return t("status.out", name=car.name)
    if car.status == WAITING:
        return t("status.waiting", name=car.name)
    where = state.stage.label(car.position)
    damage = []
    if car.lost_black:
        damage.append(t("status.black_lost", n=car.lost_black))
    if car.flats:
        damage.append(t("status.flats", n=car.flats))
    if car.pose != "normal":
        damage.append(t(f"word.{car.pose}") if car.pose != "spun" else t("word.spin"))
    return t("status.racing", name=car.name, space=where, gear=gear_name(car.gear),
             time=format_time(car.time), extra=(" — " + ", ".join(damage)) if damage else "")


def status_lines(state: GameState) -> list[str]:
    lines = [t("status.header", title=state.stage.title, length=state.stage.length, round=state.round)]
    lines += [car_line(state, c) for c in sorted(state.cars, key=lambda c: c.seat)]
    if state.turn is not None:
        lines.append(t("status.to_play", name=state.cars[state.turn.car].name))
    return lines


def results_lines(state: GameState) -> list[str]:
    lines = [t("rally.results", title=state.stage.title)]
    for row in classification(state):
        if row["status"] == FINISHED:
            gap = "" if not row["gap"] else f" (+{format_time(row['gap'])})"
            lines.append(t("rally.result_row", rank=row["rank"], name=row["name"], time=format_time(row["time"]),
                           gap=gap))
        else:
            lines.append(t("rally.result_dnf", name=row["name"]))
    return lines
