"""The league page's chart of the standings over the rounds: one line per
driver of the top `TOP`, its points in the standings after each closed round, drawn by the server
as an inline SVG (templates/league.html: no script, nothing the strict CSP refuses; every name is
text of the template, so escaped).

Each point is the standings as they stood after that round: `round_close.league_standings` over
the stored results of the closed rounds up to it (the function the standings table uses), so the
dropped rounds are those the standings dropped then, and a line's last point is the driver's
total in the table. The table lists every driver; the chart only the top `TOP`, in table order.
No closed round: no chart (the page says so). Lines are drawn leader first, each wider than the
next, so a line hidden under another (equal points) still shows as its border.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.league.round_close import league_standings, scores_of
from bot.store.leagues import League, Result, Round

TOP = 8  # the drivers the chart draws (the table lists everyone)
WIDTH, HEIGHT = 400, 240  # the picture's own units (it scales to the page's width: 412 px phones too)
LEFT, RIGHT, TOP_MARGIN, BOTTOM = 40, 12, 14, 34  # room for the axes' numbers and names
#: line colours (Okabe–Ito, told apart by most readers) and dash patterns for the second four
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#7f7f7f", "#b8a500")
DASHES = ("", "", "", "", "6 3", "6 3", "2 3", "2 3")


@dataclass(frozen=True)
class ChartLine:
    name: str
    points: list[int]  # its standings points after each closed round
    colour: str
    dash: str
    dots: list[tuple[float, float]]  # where each point is drawn
    width: float  # the leader's line is the widest, each next one narrower: lines that overlap stay seen

    @property
    def path(self) -> str:
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in self.dots)


@dataclass(frozen=True)
class Chart:
    rounds: list[int]  # the closed rounds' numbers, in order
    lines: list[ChartLine]
    x_ticks: list[tuple[float, int]]  # (x, round number)
    y_ticks: list[tuple[float, int]]  # (y, points)
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP_MARGIN
    bottom: int = HEIGHT - BOTTOM


def standings_after_each_round(league: League, results: list[Result], rounds: list[Round]
                               ) -> tuple[list[int], dict[int, list[int]], list[int]]:
    """(the closed rounds' numbers in order, user id → standings points after each of them, the
    user ids of the final standings in table order)."""
    closed = sorted((r for r in rounds if r.status == "closed"), key=lambda r: (r.number, r.id))
    seen: set[int] = set()
    points: dict[int, list[int]] = {}
    table_order: list[int] = []
    for step, rnd in enumerate(closed):
        seen.add(rnd.id)
        table = league_standings(league, scores_of([r for r in results if r.round_id in seen]))
        for standing in table:
            points.setdefault(standing.user_id, [0] * step).append(standing.points)
        for line in points.values():
            line.extend([0] * (step + 1 - len(line)))
        table_order = [s.user_id for s in table]
    return [r.number for r in closed], points, table_order


def nice_top(value: int) -> tuple[int, int]:
    """(the axis' top, its step): 4 steps of a round size covering `value`."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000):
        if step * 4 >= value:
            return step * 4, step
    step = -(-value // 4)
    return step * 4, step


def league_chart(league: League, results: list[Result], rounds: list[Round], names: dict[int, str]) -> Chart | None:
    """The chart of the league's top `TOP` (`names`: user id → the name the table shows); None
    before the first closed round, or when no driver has a result yet."""
    numbers, points, order = standings_after_each_round(league, results, rounds)
    shown = order[:TOP]
    if not numbers or not shown:
        return None
    top, step = nice_top(max(max(points[u]) for u in shown) or 1)
    left, right, upper, lower = LEFT, WIDTH - RIGHT, TOP_MARGIN, HEIGHT - BOTTOM

    def x(i: int) -> float:
        return (left + right) / 2 if len(numbers) == 1 else left + (right - left) * i / (len(numbers) - 1)

    def y(v: int) -> float:
        return lower - (lower - upper) * v / top

    widen = min(1.5, 6 / max(1, len(shown) - 1))  # the leader's line at most 8 units wide
    lines = [ChartLine(names.get(u, str(u)), points[u], COLOURS[i % len(COLOURS)], DASHES[i % len(DASHES)],
                       [(x(k), y(v)) for k, v in enumerate(points[u])], round(2 + widen * (len(shown) - 1 - i), 1))
             for i, u in enumerate(shown)]
    every = max(1, -(-len(numbers) // 12))  # at most a dozen round numbers under the axis
    x_ticks = [(x(i), n) for i, n in enumerate(numbers) if i % every == 0 or i == len(numbers) - 1]
    y_ticks = [(y(v), v) for v in range(0, top + 1, step)]
    return Chart(numbers, lines, x_ticks, y_ticks)
