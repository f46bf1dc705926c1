"""A hand-made mid-stage DIRT board for the benchmark, the tests and demos (no rules engine needed).

Four cars around the middle of the stage: one drifting on a corner's outside line (it just rolled
three dice, one ⚠, and it is its turn again), one sliding on a slide half, one on a straight, one
still waiting behind the grid; a "−1" token on the first corner past the middle. Names carry accents
on purpose (é, ü, Ø).
"""

from __future__ import annotations

from bot.engine.dirt.stages.model import DirtStage, SpaceKind
from bot.engine.dirt.view import BoardView, CarView, DieView
from bot.render.sample_path import path_back


def sample_view(stage: DirtStage, round_no: int = 7) -> BoardView:
    """The benchmark's board: 4 cars mid-stage, one drifting, one sliding, 3 dice with one ⚠, a −1."""
    mid = len(stage.tiles) / 2
    normal = [s for s in stage.spaces if s.kind is SpaceKind.NORMAL]
    outside = [s for s in normal if s.inside is False and s.front > mid - 1]
    drift = min(outside, key=lambda s: abs(s.front - mid), default=normal[len(normal) // 2])
    slides = [s for s in stage.spaces if s.kind is SpaceKind.SLIDE and s.front < drift.rear]
    slide = max(slides, key=lambda s: s.front, default=None)
    straight = [s for s in normal if s.corner is None and s.front < drift.rear - 0.7
                and (slide is None or abs(s.front - slide.front) > 0.5)]
    behind = max(straight, key=lambda s: s.front, default=normal[0])
    path = path_back(((s.id, s.forward) for s in stage.spaces if s.kind is SpaceKind.NORMAL), drift.id, 3)
    dice = [DieView(die=face, hazard=i == 1, space=sp) for i, (face, sp) in enumerate(zip(("5", "coast", "4"), path))]
    cars = [
        CarView(seat="d1", name="Sébastien Morel", colour=0, space=drift.id, gear=4, pose="drift", status="racing",
                seconds=260, tokens={"ok": 1, "coast": 1}, to_act=True),
        CarView(seat="d2", name="Jürgen Kraus", colour=1, space=slide.id if slide else behind.id, gear=3,
                pose="slide" if slide else "normal", status="racing", seconds=250, tokens={"minus_one": 1}),
        CarView(seat="d3", name="Kari Ødegaard", colour=2, space=behind.id, gear=5, status="racing", seconds=270,
                tokens={}),
        CarView(seat="d4", name="Ana Lúcia Silva", colour=3, space=None, gear=0, status="waiting", seconds=0),
    ]
    corner = drift.corner if drift.corner is not None else drift.tile
    return BoardView(stage=stage.name, round=round_no, stage_no=2, stages=3, cars=cars, dice=dice, path=path,
                     minus={corner: 1}, status="Sébastien Morel to play — drifting in 4th · deadline 21:00")
