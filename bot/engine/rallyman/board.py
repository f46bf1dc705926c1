"""From game state to what spectators see (`BoardView`), for the renderer and text boards."""

from __future__ import annotations

from bot.engine.core.scores import format_time
from bot.engine.core.text import msg
from bot.engine.rallyman.classify import classification
from bot.engine.rallyman.public import Shown
from bot.engine.rallyman.stages.model import SpaceKind
from bot.engine.rallyman.state import FINISHED, OUT, WAITING, Car
from bot.engine.rallyman.view import BoardView, CarView, PathStep, ShownPose, ShownStatus

#: A car's status as spectators see it; every other engine status is "racing".
_SHOWN_STATUS: dict[str, ShownStatus] = {WAITING: "waiting", FINISHED: "finished", OUT: "out"}


def initials(name: str) -> str:
    """Two letters for a car's token: of the first and last words, letters and digits only (a
    name's emoji, such as an AI driver's 🤖, is no initial)."""
    words = ("".join(ch for ch in part if ch.isalnum()) for part in name.replace("-", " ").split())
    parts = [p for p in words if p]
    if not parts:
        return "?"
    if len(parts) == 1:
        return parts[0][:2].upper()
    return (parts[0][0] + parts[-1][0]).upper()


def _pose(state: Shown, car: Car) -> ShownPose:
    if car.pose != "normal":
        return car.pose
    if car.position >= 0 and state.stage.spaces[car.position].kind is SpaceKind.SKID:
        return "skid"
    return "normal"


def colours(state: Shown) -> dict[str, int]:
    """Each driver's colour for the whole rally: their place in the start order of SS1 (the seats of
    the Start action), not in the start order of the special being driven, which changes after
    every special (A3); the rally classification gives the same colours."""
    course = state.course
    if course is not None and course.results:
        first = {row.id: i for i, row in enumerate(course.results[0])}
        return {car.id: first.get(car.id, car.seat) for car in state.cars}
    return {car.id: car.seat for car in state.cars}


def board_view(state: Shown, status: str | None = None) -> BoardView:
    """Everything the board image shows: cars, the last turn's dice, dirt, the status line, which
    special of a rally it is, and each car's tires when the weather module is on (A20.2)."""
    ranks = {row["driver"]: row["rank"] for row in classification(state) if row["status"] == FINISHED}
    colour = colours(state)
    tires = state.rules.modules.weather
    cars = []
    for i, car in enumerate(state.cars):
        playing = state.turn if state.turn is not None and state.turn.car == i else None  # this car's turn, if now
        cars.append(CarView(
            driver_id=car.id, name=car.name, initials=initials(car.name), colour=colour[car.id],
            space=car.position, pose=_pose(state, car), status=_SHOWN_STATUS.get(car.status, "racing"),
            gear=playing.gear if playing else car.gear, chrono_s=car.time, seconds_held=car.seconds,
            hazards=playing.hazards if playing else car.last_hazards, black_lost=car.lost_black,
            white_lost=min(car.flats, 2), spare=car.spare, active=playing is not None, place=ranks.get(car.id),
            tires=car.tires if tires else None))
    path = tuple(PathStep(space=s, die=d, hazard=bool(h)) for s, d, h in state.last_path)
    driver = state.cars[state.last_driver].id if state.last_driver is not None else None
    return BoardView(stage=state.stage.name, title=state.stage.title, round=state.round, cars=tuple(cars),
                     path=path, path_driver=driver, dirt=dict(state.dirt), snow_zones=state.stage.snow_zones,
                     status=status if status is not None else default_status(state), finished=state.finished,
                     special=state.course.number if state.course is not None else 0,
                     specials=len(state.course.specials) if state.course is not None else 0)


def default_status(state: Shown) -> str:
    if state.turn is None:
        best = next((r for r in classification(state) if r["status"] == FINISHED), None)
        return msg("board.finished_fastest", name=best["name"], time=format_time(best["time"])) if best \
            else msg("board.finished")
    return msg("board.to_drive", name=state.cars[state.turn.car].name)
