"""The cars on the course (RULES C4, C8): one colour per seat (the shared Okabe–Ito colours) with
the driver's initials. A car alone on a space sits on it. Several cars on one space are drawn side
by side beside the road, in arrival order along the road's direction, the earlier arrival ahead
(C4: it is ahead in the race), with a bracket to their space. The finished cars (C8) are drawn in a
row beside the final space's numbered marks, in the marks' order, each tied to its mark by a short
leader from the mark's rim: a chip is wider than a mark on a course laid small, and on its mark it
hid that mark's number and its neighbours'. Retired cars are not drawn (the panel lists them)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engine.roadrally.road import Road
from bot.render import palette as P
from bot.render.ai_mark import draw_ai_mark, driven_by_ai
from bot.render.drawing import draw_text, drawable
from bot.render.fonts import font
from bot.render.roadrally.course import heading
from bot.render.roadrally.layout import BORDER, CourseLayout


def initials(name: str) -> str:
    """Up to two letters standing for a driver: the first letters of the name's first two words,
    else its first two letters ("Sébastien Morel" → "SM", "ana" → "AN")."""
    words = [w for w in name.replace("_", " ").replace("-", " ").split() if w[:1].isalnum()]
    if len(words) >= 2:
        return (words[0][0] + words[1][0]).upper()
    letters = [c for c in name if c.isalnum()]
    return "".join(letters[:2]).upper() or "?"


def chip(d: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, colour: P.RGB, label: str,
         size: int, active: bool, ai: bool = False) -> None:
    """One car: a disc of the seat's colour with its initials (a thick black ring on the car whose
    turn it is; an AI's robot mark on its upper left, bot.render.ai_mark)."""
    cx, cy = centre
    ink, _ = P.ink_on(colour)
    ring = P.BLACK if active else P.WHITE
    width = max(2, round(radius / 5)) if active else max(2, round(radius / 10))
    d.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=colour, outline=ring, width=width)
    f = font(size, True)
    draw_text(d, (cx, cy), drawable(f, label), f, ink, "mm")
    if ai:
        draw_ai_mark(d, (cx - radius * 0.8, cy - radius * 0.8), radius * 0.8)


@dataclass(frozen=True)
class CarSpot:
    """Where a car's chip is drawn (pixels) and, for a car sharing its space, the space's centre
    its row beside the road is tied to, or a finished car's mark (None: alone on its space)."""

    seat: str
    at: tuple[float, float]
    tie: tuple[float, float] | None = None
    rim: float = 0.0  # a finished car's leader starts this far from `tie` (its mark's centre)


def car_spots(road: Road, lay: CourseLayout, cars: list[tuple[str, int, int, int | None]], radius: float,
              marks: list[tuple[float, float]], mark_radius: float) -> list[CarSpot]:
    """Each car's chip: a finished car's beside the finish marks (`finished_row`); a car on its
    space when alone there and clear of the chips placed before (the leaders'); else (cars sharing
    a space, or a chip larger than a space meeting the one ahead) in a row beside the road tied to
    the space (the earliest arrival ahead), on the side where the row meets the fewest chips and
    hides the least road. `marks`: the course points of the final space's numbered marks
    (`board.finish_marks`), each `mark_radius` px."""
    spaces: dict[int, list[tuple[int, str]]] = {}
    finished: list[tuple[int, str]] = []
    for seat, pos, place, mark in cars:
        if mark is not None and 1 <= mark <= len(marks):
            finished.append((mark, seat))
        else:
            spaces.setdefault(pos, []).append((place, seat))
    out = finished_row(road, lay, sorted(finished), radius, marks, mark_radius)
    road_cells = {(s.x, s.y) for s in road.spaces}
    # the leader's space first: a car alone stays on its space unless an earlier chip is there
    for pos, here in sorted(spaces.items(), key=lambda item: min(item[1])):
        here.sort()  # race place: the earlier arrival first
        s = road.spaces[pos]
        centre = lay.centre(s.x, s.y)
        if len(here) == 1 and not any(_meets(centre, spot.at, radius) for spot in out):
            out.append(CarSpot(here[0][1], centre))
            continue
        ux, uy = heading(road, pos)
        best: list[CarSpot] = []
        best_key: tuple[int, int, float, int, int] | None = None
        free = _free_side(road_cells, s.x, s.y, ux, uy, len(here))
        # beside the road, else further out; slid along the road when the map's edge cuts the row
        for away in (1.0, 2.0):
            for side in (free, -free):
                for slide in (0, 1, -1, 2, -2, 3, -3):
                    row = _row(lay, s, here, ux, uy, side, radius, away, slide)
                    key = (sum(not _on_map(lay, a.at, radius) for a in row),
                           sum(_meets(a.at, b.at, radius) for a in row for b in out), away, abs(slide),
                           0 if side == free else 1)
                    if best_key is None or key < best_key:
                        best, best_key = row, key
        out += best
    return out


#: the free ring between a finished car's chip and a finish mark, in units of the chip's radius
MARK_CLEAR = 0.25


def finished_row(road: Road, lay: CourseLayout, finished: list[tuple[int, str]], radius: float,
                 marks: list[tuple[float, float]], mark_radius: float) -> list[CarSpot]:
    """The chips of the finished cars (mark, seat), in mark order, in a row parallel to the line of
    the finish marks, beside it along the road (past the finish first, else before it), slid
    along the line where the map's edge would cut it: where no chip meets a mark (nor its number,
    inside it) and every chip is on the map. Each is tied to its mark (`CarSpot.rim`)."""
    if not finished:
        return []
    points = [lay.point(*m) for m in marks]
    ux, uy = heading(road, road.final)
    dx, dy = lay.direction(ux, uy)  # along the road, as drawn
    nx, ny = lay.direction(-uy, ux)  # across it: the marks' line, mark 1 first
    ours = [points[m - 1] for m, _ in finished]
    cx, cy = sum(p[0] for p in ours) / len(ours), sum(p[1] for p in ours) / len(ours)
    step = radius * 2.05
    clear = radius * (1 + MARK_CLEAR) + mark_radius
    half = (len(finished) - 1) / 2
    best: list[CarSpot] = []
    best_key: tuple[int, int, float, float, int] | None = None
    for away in (1.0, 1.5, 2.0, 3.0):
        for along in (1, -1):
            for slide in (0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.0, -2.0, 3.0, -3.0):
                bx = cx + dx * along * away * clear + nx * slide * step
                by = cy + dy * along * away * clear + ny * slide * step
                row = [CarSpot(seat, (bx + nx * (j - half) * step, by + ny * (j - half) * step), points[m - 1],
                               mark_radius) for j, (m, seat) in enumerate(finished)]
                key = (sum(not _on_map(lay, a.at, radius) for a in row),
                       sum(math.hypot(a.at[0] - p[0], a.at[1] - p[1]) < clear for a in row for p in points)
                       + sum(segment_distance(p, a.tie, a.at) < mark_radius for a in row if a.tie is not None
                             for p in points if p != a.tie),  # a leader over another mark
                       away, abs(slide), 0 if along == 1 else 1)
                if best_key is None or key < best_key:
                    best, best_key = row, key
    return best


def segment_distance(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """The distance from point `p` to the segment a–b."""
    vx, vy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * vx + (p[1] - a[1]) * vy) / ((vx * vx + vy * vy) or 1.0)))
    return math.hypot(p[0] - a[0] - t * vx, p[1] - a[1] - t * vy)


def _row(lay: CourseLayout, s, here: list[tuple[int, str]], ux: float, uy: float, side: int,
         radius: float, away: float = 1.0, slide: int = 0) -> list[CarSpot]:
    """The chips of the cars `here` in a row beside space `s`, on `side` of the road's direction,
    `away` times the nearest distance from it, its middle `slide` chips along the road."""
    dx, dy = lay.direction(ux, uy)  # along the road and beside it, as drawn
    nx, ny = lay.direction(-uy * side, ux * side)
    cx, cy = lay.centre(s.x, s.y)
    step = radius * 2.05
    reach = max(lay.ppu, radius * 2.1) * away  # the row's middle: a space away at least, off the car's space
    bx, by = cx + nx * reach + dx * slide * step, cy + ny * reach + dy * slide * step
    half = (len(here) - 1) / 2
    return [CarSpot(seat, (bx + dx * (half - j) * step, by + dy * (half - j) * step), (cx, cy))
            for j, (_, seat) in enumerate(here)]


def _on_map(lay: CourseLayout, at: tuple[float, float], radius: float) -> bool:
    """Is a chip centred on `at` wholly inside the course's map (its border included)?"""
    width = 2 * lay.left + lay.shown[0] * lay.ppu
    top = lay.top - BORDER * lay.ppu
    return radius <= at[0] <= width - radius and top + radius <= at[1] <= lay.height - radius


def _meets(a: tuple[float, float], b: tuple[float, float], radius: float) -> bool:
    return math.hypot(a[0] - b[0], a[1] - b[1]) < 2 * radius


def draw_cars(img: Image.Image, road: Road, lay: CourseLayout, cars: list[tuple[str, int, int, int | None]],
              colours: Mapping[str, P.RGB], labels: Mapping[str, str], current: str | None, size: int,
              marks: list[tuple[float, float]], mark_radius: float) -> list[CarSpot]:
    """`cars`: (seat, space, race place, finish mark) of every car still in the game; `marks`: the
    course points of the final space's numbered marks, one per seat, each `mark_radius` px. The
    chips as drawn (`car_spots`)."""
    d = ImageDraw.Draw(img)
    ppu = lay.ppu
    radius = chip_radius(ppu, size)
    spots = car_spots(road, lay, cars, radius, marks, mark_radius)
    ties: dict[tuple[float, float], list[CarSpot]] = {}
    for spot in spots:
        if spot.tie is not None:
            ties.setdefault(spot.tie, []).append(spot)
    width = max(3, round(ppu / 10))
    for (cx, cy), row in ties.items():  # a row's link to the space its cars share, or a finished car's to its mark
        first, last = row[0].at, row[-1].at
        mid = ((first[0] + last[0]) / 2, (first[1] + last[1]) / 2)
        if row[0].rim:  # from the mark's rim: its number stays clear
            gap = math.hypot(mid[0] - cx, mid[1] - cy) or 1.0
            k = (row[0].rim + width) / gap
            d.line((cx + (mid[0] - cx) * k, cy + (mid[1] - cy) * k, *mid), fill=P.BLACK, width=width)
            continue
        d.line((cx, cy, *mid), fill=P.BLACK, width=width)
        d.line((first, last), fill=P.BLACK, width=width)
        d.ellipse((cx - ppu * 0.16, cy - ppu * 0.16, cx + ppu * 0.16, cy + ppu * 0.16), fill=P.BLACK)
    for spot in reversed(spots):  # in a row, the earliest arrival drawn last
        chip(d, spot.at, radius, colours[spot.seat], labels[spot.seat], size, spot.seat == current,
             driven_by_ai(spot.seat))
    return spots


def chip_radius(ppu: float, size: int) -> float:
    """A car chip's radius: nearly a space, never smaller than its initials (on a small space it
    overlaps the next ones)."""
    return max(ppu * 0.47, size * 0.85)


def _free_side(cells: set[tuple[float, float]], x: float, y: float, dx: float, dy: float, count: int) -> int:
    """+1 or −1: the side of the road (left or right of its direction) whose row beside the space
    holds fewer road spaces over the cars' length, so the cars hide as little road as possible."""
    def busy(side: int) -> int:
        nx, ny = -dy * side, dx * side
        half = count // 2 + 1
        return sum((round(x + nx + dx * k), round(y + ny + dy * k)) in cells for k in range(-half, half + 1))
    return 1 if busy(1) <= busy(-1) else -1
