"""The cars on the course (RULES C4, C8): one colour per seat (the shared Okabe–Ito colours) with
the driver's initials. A car alone on a space sits on it. Several cars on one space are drawn side
by side beside the road, in arrival order along the road's direction, the earlier arrival ahead
(C4: it is ahead in the race), with a bracket to their space. A finished car sits on its numbered
mark of the final space (C8). Retired cars are not drawn (the panel lists them)."""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image, ImageDraw

from bot.engine.roadrally.road import Road
from bot.render import palette as P
from bot.render.drawing import draw_text, drawable
from bot.render.fonts import font
from bot.render.roadrally.course import final_marks, heading
from bot.render.roadrally.layout import CourseLayout


def initials(name: str) -> str:
    """Up to two letters standing for a driver: the first letters of the name's first two words,
    else its first two letters ("Sébastien Morel" → "SM", "ana" → "AN")."""
    words = [w for w in name.replace("_", " ").replace("-", " ").split() if w[:1].isalnum()]
    if len(words) >= 2:
        return (words[0][0] + words[1][0]).upper()
    letters = [c for c in name if c.isalnum()]
    return "".join(letters[:2]).upper() or "?"


def chip(d: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, colour: P.RGB, label: str,
         size: int, active: bool) -> None:
    """One car: a disc of the seat's colour with its initials (a thick black ring on the car whose
    turn it is)."""
    cx, cy = centre
    ink, _ = P.ink_on(colour)
    ring = P.BLACK if active else P.WHITE
    width = max(2, round(radius / 5)) if active else max(2, round(radius / 10))
    d.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=colour, outline=ring, width=width)
    f = font(size, True)
    draw_text(d, (cx, cy), drawable(f, label), f, ink, "mm")


def draw_cars(img: Image.Image, road: Road, lay: CourseLayout, cars: list[tuple[str, int, int, int | None]],
              colours: Mapping[str, P.RGB], labels: Mapping[str, str], current: str | None, size: int,
              seats: int) -> None:
    """`cars`: (seat, space, race place, finish mark) of every car still in the game; `seats`: the
    game's seat count (the final space's marks)."""
    d = ImageDraw.Draw(img)
    ppu = lay.ppu
    radius = ppu * 0.47
    marks = final_marks(road, seats)
    spaces: dict[int, list[tuple[int, str]]] = {}
    for seat, pos, place, mark in cars:
        if mark is not None and 1 <= mark <= len(marks):
            chip(d, lay.point(*marks[mark - 1]), radius, colours[seat], labels[seat], size, seat == current)
            continue
        spaces.setdefault(pos, []).append((place, seat))
    road_cells = {(s.x, s.y) for s in road.spaces}
    for pos, here in sorted(spaces.items()):
        here.sort()  # race place: the earlier arrival first
        s = road.spaces[pos]
        if len(here) == 1:
            seat = here[0][1]
            chip(d, lay.centre(s.x, s.y), radius, colours[seat], labels[seat], size, seat == current)
            continue
        dx, dy = heading(road, pos)
        side = _free_side(road_cells, s.x, s.y, dx, dy, len(here))
        nx, ny = -dy * side, dx * side
        cx, cy = lay.centre(s.x, s.y)
        step = radius * 2.05
        bx, by = cx + nx * ppu, cy + ny * ppu  # the middle of the row of cars beside the road
        half = (len(here) - 1) / 2
        first = (bx + dx * half * step, by + dy * half * step)
        last = (bx - dx * half * step, by - dy * half * step)
        d.line((cx, cy, bx, by), fill=P.BLACK, width=max(3, round(ppu / 10)))
        d.line((first, last), fill=P.BLACK, width=max(3, round(ppu / 10)))
        d.ellipse((cx - ppu * 0.16, cy - ppu * 0.16, cx + ppu * 0.16, cy + ppu * 0.16), fill=P.BLACK)
        for j in reversed(range(len(here))):  # the earliest arrival drawn last, ahead along the road
            seat = here[j][1]
            chip(d, (bx + dx * (half - j) * step, by + dy * (half - j) * step), radius, colours[seat], labels[seat],
                 size, seat == current)


def _free_side(cells: set[tuple[float, float]], x: float, y: float, dx: float, dy: float, count: int) -> int:
    """+1 or −1: the side of the road (left or right of its direction) whose row beside the space
    holds fewer road spaces over the cars' length, so the cars hide as little road as possible."""
    def busy(side: int) -> int:
        nx, ny = -dy * side, dx * side
        half = count // 2 + 1
        return sum((round(x + nx + dx * k), round(y + ny + dy * k)) in cells for k in range(-half, half + 1))
    return 1 if busy(1) <= busy(-1) else -1
