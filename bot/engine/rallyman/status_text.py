"""The board as text: for `/rally status`, the console, and screen readers."""

from __future__ import annotations

from bot.engine.core.scores import format_time
from bot.engine.core.text import Listed, msg
from bot.engine.rallyman.classify import classification
from bot.engine.rallyman.course import Course
from bot.engine.rallyman.dice_rules import gear_name
from bot.engine.rallyman.out_reasons import out_reason_word
from bot.engine.rallyman.public import Shown
from bot.engine.rallyman.rally_classification import rally_classification
from bot.engine.rallyman.stages.catalogue import load_stage
from bot.engine.rallyman.state import FINISHED, OUT, WAITING

#: How a car stands off its normal pose, in words (a closed table: no key built from a value).
POSE_WORDS: dict[str, str] = {"spun": "word.spin", "off_left": "word.off_left", "off_right": "word.off_right"}
#: The tires a car runs on, in words (A20.2, weather module).
TIRE_WORDS: dict[str, str] = {"snow": "status.tires_snow", "asphalt": "status.tires_asphalt"}


def car_line(state: Shown, car) -> str:
    if car.status == FINISHED:
        return msg("status.finished", name=car.name, time=format_time(car.time))
    if car.status == OUT:
        return msg("status.out", name=car.name)
    if car.status == WAITING:
        return msg("status.waiting", name=car.name)
    where = state.stage.label(car.position)
    damage = []
    if car.lost_black:
        damage.append(msg("status.black_lost." + ("one" if car.lost_black == 1 else "other"), n=car.lost_black))
    if car.flats:
        damage.append(msg("status.flats." + ("one" if car.flats == 1 else "other"), n=car.flats))
    if car.pose != "normal":
        damage.append(msg(POSE_WORDS[car.pose]))
    if car.seconds:  # second markers held (A18.4), already taken off the time shown
        damage.append(msg("status.markers." + ("one" if car.seconds == 1 else "other"), n=car.seconds))
    if state.weather is not None:  # the tires matter only with the weather module (A20)
        damage.append(msg(TIRE_WORDS[car.tires]))
    turn = state.turn if state.turn is not None and state.cars[state.turn.car] is car else None
    return msg("status.racing", name=car.name, space=where, gear=gear_name(turn.gear if turn else car.gear),
             time=format_time(car.time), extra=msg("status.extra", damage=Listed(damage)) if damage else "")


def status_lines(state: Shown) -> list[str]:
    if state.course is not None:  # composed as one message, so it reads in the reader's language
        lines = [msg("status.header_course", title=state.stage.title, length=state.stage.length, round=state.round,
                     number=state.course.number, count=len(state.course.specials))]
    else:
        lines = [msg("status.header", title=state.stage.title, length=state.stage.length, round=state.round)]
    lines += [car_line(state, c) for c in sorted(state.cars, key=lambda c: c.seat)]
    if state.turn is not None:
        lines.append(msg("status.to_play", name=state.cars[state.turn.car].name))
    return lines


def results_lines(state: Shown) -> list[str]:
    if state.course is not None:
        return course_lines(state.course)
    lines = [msg("rally.results", title=state.stage.title)]
    for row in classification(state):
        if row["status"] == FINISHED:
            gap = "" if not row["gap"] else f" (+{format_time(row['gap'])})"
            lines.append(msg("rally.result_row", rank=row["rank"], name=row["name"], time=format_time(row["time"]),
                           gap=gap))
        else:
            lines.append(msg("rally.result_dnf", name=row["name"]))
    return lines


def _gap(seconds: int | None) -> str:
    return f" (+{format_time(seconds)})" if seconds else ""


def course_lines(course: Course) -> list[str]:
    """After a special of a rally: its results, then the (re)classification (A17); between two
    specials, what the assistance did or did not repair (A16)."""
    number = len(course.results)
    rows = course.results[-1]
    lines = [msg("rally.special_results", number=number, title=load_stage(course.specials[number - 1]).title)]
    timed = sorted((r for r in rows if r.time is not None), key=lambda r: r.time or 0)
    best = timed[0].time if timed else 0
    rank, previous = 0, None
    for position, row in enumerate(timed, start=1):
        if row.time != previous:
            rank, previous = position, row.time
        lines.append(msg("rally.class_row", rank=rank, name=row.name, time=format_time(row.time or 0),
                       gap=_gap((row.time or 0) - (best or 0))))
    lines += [msg("rally.class_out", name=r.name, reason=out_reason_word(r.reason)) for r in rows
              if r.time is None]
    final = number >= len(course.specials) or course.stopped
    lines.append(msg("rally.final_classification", n=number) if final
                 else msg("rally.reclassification", number=number))
    for ranked in rally_classification(course):
        if ranked.total is None:
            lines.append(msg("rally.class_out", name=ranked.name, reason=out_reason_word(ranked.reason)))
        else:
            lines.append(msg("rally.class_row", rank=ranked.rank, name=ranked.name, time=format_time(ranked.total),
                           gap=_gap(ranked.gap)))
    if not final:
        key = "rally.assisted" if course.assistance[number - 1] else "rally.not_assisted"
        lines.append(msg(key, number=number))
    return lines
