"""The league page's chart of the standings over the rounds, on both
backends: one line per driver of the top 8 with the standings' points after each closed round,
the last point of each line the driver's total in the table; names escaped; axes in the
reader's language; a sentence instead before the first round closes."""

from __future__ import annotations

import html
import re
from datetime import timedelta

from bot.i18n import render, t
from bot.store.clock import from_text
from bot.store.leagues import results_of_league_tx, rounds_of_league_tx
from bot.web.league_chart import TOP, nice_top
from bot.web.league_page import league_page
from tests.league.conftest import Posts
from tests.league.league_helpers import LEAGUE_CHANNEL, ORGANISER, until
from tests.web.web_helpers import SCRIPT, season


def figure(body: str) -> str:
    found = re.search(r'<figure class="chart">.*?</figure>', body, re.S)
    assert found is not None, "no chart on the page"
    return found.group(0)


async def test_the_chart_s_lines_end_at_the_standings_totals_after_two_rounds(service, deadlines, clock, store,
                                                                              client):
    league_id, (first, second) = await season(service, deadlines, clock)
    await until(clock, deadlines, service, Posts(), from_text(second.closes_at) + timedelta(minutes=1))
    rounds = await store.db.read(lambda tx: rounds_of_league_tx(tx, league_id))
    assert [r.status for r in rounds] == ["closed", "closed"]
    data = await league_page(store, league_id)
    chart = data.chart
    assert chart is not None and chart.rounds == [1, 2]
    assert [line.name for line in chart.lines] == [row.standing.name for row in data.rows][:TOP]
    assert {line.name: line.points[-1] for line in chart.lines} == {r.standing.name: r.standing.points
                                                                    for r in data.rows}
    # the first point: each driver's points of round 1 alone, from the stored results
    results = await store.db.read(lambda tx: results_of_league_tx(tx, league_id))
    after_first = {r.display_name: r.points + r.bonus for r in results if r.round_id == first.id}
    assert {line.name: line.points[0] for line in chart.lines} == {line.name: after_first.get(line.name, 0)
                                                                  for line in chart.lines}
    assert any(line.points[0] != line.points[1] for line in chart.lines)  # round 2 moved someone

    body = await (await client.get(f"/league/{league_id}?lang=en")).text()
    drawn = figure(body)
    assert drawn.count("<polyline") == len(chart.lines)
    legend = re.findall(r"</svg> (.*?) <span class=\"muted\">\((\d+)\)</span>", drawn)
    assert [(html.unescape(n), int(p)) for n, p in legend] == [(r.standing.name, r.standing.points)
                                                               for r in data.rows][:TOP]
    assert ">Round</text>" in drawn and ">Points</text>" in drawn


async def test_names_in_the_chart_stay_text(service, deadlines, clock, store, client):
    league_id, _ = await season(service, deadlines, clock)
    data = await league_page(store, league_id)
    assert SCRIPT in [line.name for line in data.chart.lines]
    drawn = figure(await (await client.get(f"/league/{league_id}")).text())
    assert SCRIPT not in drawn and "<script" not in drawn
    assert html.escape(SCRIPT, quote=False) in drawn


async def test_the_chart_speaks_the_reader_s_language(service, deadlines, clock, client):
    league_id, _ = await season(service, deadlines, clock)
    for lang in ("fr", "de"):
        drawn = figure(await (await client.get(f"/league/{league_id}?lang={lang}")).text())
        for key in ("web.chart_round", "web.chart_points"):
            assert f">{render(t(key, lang), lang)}</text>" in html.unescape(drawn), (lang, key)
        assert render(t("web.chart_caption", lang, n=TOP), lang) in html.unescape(drawn)


async def test_no_chart_before_a_round_closes(service, client):
    leagues = service.championships.leagues
    await leagues.create(LEAGUE_CHANNEL, ORGANISER, "Quiet Cup", "UTC")
    await leagues.web(LEAGUE_CHANNEL, ORGANISER, "public")
    body = await (await client.get("/league/1?lang=en")).text()
    assert '<figure class="chart">' not in body and "<polyline" not in body
    assert "The chart appears once a round has closed." in body


def test_the_points_axis_covers_the_leader_in_four_round_steps():
    for value in (1, 4, 5, 25, 43, 100, 101, 999, 123456):
        top, step = nice_top(value)
        assert top >= value and top == 4 * step and top < 4 * value + 4
