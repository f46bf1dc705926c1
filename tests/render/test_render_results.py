"""The results image: classification by time with gaps, shared ranks on ties, DNF last (RULES A17)."""

from __future__ import annotations

from render_helpers import classic_results as render_results
from render_helpers import decode

from bot.engine.rallyman.view import ResultRow, ResultsView
from bot.render.rallyman.results import HEAD_ROW_H, HEADER_H, ROW_H, classification

ROWS = (
    ResultRow(driver_id="x", name="Kari Ødegaard", colour=2, status="dnf"),
    ResultRow(driver_id="a", name="Sébastien Morel", colour=0, time_s=250),
    ResultRow(driver_id="b", name="Jürgen Kraus", colour=1, time_s=230),
    ResultRow(driver_id="c", name="Ana Silva", colour=3, time_s=250),
)
VIEW = ResultsView(stage="hill", title="Snapshot Hill", rows=ROWS)


def test_order_gaps_and_dnf_last():
    rows = classification(VIEW)
    assert [r.driver_id for _, r, _ in rows] == ["b", "c", "a", "x"]
    assert [rank for rank, _, _ in rows] == ["1", "2", "2", "—"]  # equal times share a rank (OPEN-5)
    assert [g for _, _, g in rows] == [0, 20, 20, None]


def test_results_image_renders_with_one_row_per_driver():
    img = decode(render_results(VIEW))
    assert img.mode == "P"  # a palette PNG (bot.render.encode)
    assert img.width == 1080
    assert img.height == HEADER_H + HEAD_ROW_H + ROW_H * len(ROWS) + 16


def test_dnf_row_is_the_last_and_marked_in_red():
    img = decode(render_results(VIEW)).convert("RGB")
    last_top = HEADER_H + HEAD_ROW_H + ROW_H * (len(ROWS) - 1)
    last = img.crop((700, last_top, 900, last_top + ROW_H))
    first = img.crop((700, HEADER_H + HEAD_ROW_H, 900, HEADER_H + HEAD_ROW_H + ROW_H))

    def reds(patch):
        data = patch.tobytes()
        return sum(1 for r, g, b in zip(data[0::3], data[1::3], data[2::3]) if r > 180 and g < 80 and b < 80)
    assert reds(last) > 30
    assert reds(first) == 0
