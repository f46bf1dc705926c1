"""A hand-made mid-stage board for the benchmark, the tests and demos (no rules engine needed).

Four cars around the middle of the stage: one skidding in a corner (it just drove three dice,
one of them ⚠, and it is its turn again), two sharing a straight space, one further back.
Names carry accents on purpose (é, ü, Ø).
"""

from __future__ import annotations

from bot.engine.rallyman.stages.model import SpaceKind, Stage
from bot.engine.rallyman.view import BoardView, CarView, PathStep
from bot.render.sample_path import path_back


def sample_view(stage: Stage) -> BoardView:
    """The benchmark's board: 4 cars mid-stage, one skidding, a path of 3 dice with one ⚠."""
    mid = stage.length / 2
    skids = [s for s in stage.spaces if s.kind is SpaceKind.SKID]
    skid = min(skids, key=lambda s: abs(s.progress - mid)) if skids else None
    straights = sorted((s for s in stage.spaces if s.kind is SpaceKind.STRAIGHT and s.capacity >= 2),
                       key=lambda s: abs(s.progress - (mid - 3)))
    shared = straights[0] if straights else stage.spaces[len(stage.spaces) // 2]
    behind = min((s for s in stage.spaces if s.kind is SpaceKind.STRAIGHT and s.progress < shared.progress - 1.5),
                 key=lambda s: abs(s.progress - (shared.progress - 4)), default=shared)
    lead = skid or stage.spaces[min(len(stage.spaces) - 1, shared.id + 2)]
    path = path_back(((s.id, s.next) for s in stage.spaces), lead.id, 3)
    faces = ["3", "4", "W"]
    steps = tuple(PathStep(space=sp, die=faces[i % 3], hazard=(i == 1)) for i, sp in enumerate(path))
    cars = (
        CarView(driver_id="d1", name="Sébastien Morel", initials="SM", colour=0, space=lead.id,
                pose="skid" if skid else "normal", gear=4, chrono_s=260, hazards=1, seconds_held=2, active=True),
        CarView(driver_id="d2", name="Jürgen Kraus", initials="JK", colour=1, space=shared.id, gear=3,
                chrono_s=250, black_lost=1),
        CarView(driver_id="d3", name="Kari Ødegaard", initials="KØ", colour=2, space=shared.id, gear=2,
                chrono_s=270, white_lost=1, spare=False),
        CarView(driver_id="d4", name="Ana Lúcia Silva", initials="AS", colour=3, space=behind.id,
                pose="off_left", gear=0, chrono_s=300, black_lost=2),
    )
    return BoardView(stage=stage.name, title=stage.title, round=7, cars=cars, path=steps, path_driver="d1",
                     dirt={skid.corner: 1} if skid and skid.corner is not None else {},
                     snow_zones=stage.snow_zones,
                     status="Sébastien Morel to play — skidding in 4th · deadline 21:00")
