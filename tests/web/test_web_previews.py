"""A link pasted into Discord shows a preview (Open Graph and Twitter card tags: title, a one-line
summary in the page's language, the board's or the standings' picture, absolute when the site
knows its public address); a public league's calendar (.ics), standings (CSV) and standings
picture; the standings' per-round columns; the world scratch's weeks before and after; the home
page names stages by their titles."""

from __future__ import annotations

import re
from dataclasses import replace
from html import unescape

from aiohttp.test_utils import TestClient, TestServer

from bot.i18n import render, t
from bot.web import create_app
from bot.web.league_page import league_page
from bot.web.site import stage_name
from tests.discord.fakes import FakeRenderer
from tests.web.live_helpers import running_public_rally
from tests.web.web_helpers import season

PUBLIC = "https://rally.example.org"


def meta(body: str) -> dict[str, str]:
    """The page's preview tags: property or name → content."""
    return {key: unescape(value) for key, value in
            re.findall(r'<meta (?:property|name)="((?:og|twitter):[a-z_:]+|description)" content="([^"]*)">', body)}


async def test_the_rally_round_league_and_scratch_pages_have_a_preview(service, deadlines, clock, store, client):
    league_id, (closed, _) = await season(service, deadlines, clock)
    _, live = await running_public_rally(store)
    data = await league_page(store, league_id)
    leader = data.rows[0].standing
    for path, image in ((f"/rally/{live.id}", f"/rally/{live.id}/board.png?v={live.version}"),
                        (f"/league/{league_id}", f"/league/{league_id}/standings.png"),
                        (f"/round/{closed.id}", f"/league/{league_id}/standings.png"),
                        ("/", "/stage/rallyman/"), ("/rally/1/replay", "/rally/1/replay/")):
        for lang in ("en", "fr", "de"):
            tags = meta(await (await client.get(path, params={"lang": lang})).text())
            assert tags["og:type"] == "website" and tags["twitter:card"] == "summary_large_image", (path, tags)
            assert tags["og:title"] and tags["og:description"] == tags["description"] != "", (path, tags)
            assert "\n" not in tags["og:description"] and "{" not in tags["og:description"]
            assert tags["og:image"].startswith(image), (path, tags["og:image"])  # the site's own path here
            assert tags["og:url"].startswith(path.split("?")[0])
    league = meta(await (await client.get(f"/league/{league_id}?lang=fr")).text())
    assert league["og:description"] == render(t("web.og_league", "fr", leader=leader.name, points=leader.points,
                                                rounds=1), "fr")
    german = meta(await (await client.get(f"/rally/{live.id}?lang=de")).text())
    assert german["og:description"] == render(t("web.og_rally", "de", game=t("game.roadrally", "de"),
                                                status=t("web.rally_running", "de")), "de")


async def test_the_preview_s_addresses_are_absolute_when_the_site_knows_its_public_address(
        service, deadlines, clock, store, options):
    league_id, _ = await season(service, deadlines, clock)
    app = create_app(store, replace(options, public_url=PUBLIC + "/"), renderer=FakeRenderer())
    async with TestClient(TestServer(app)) as client:
        tags = meta(await (await client.get(f"/league/{league_id}")).text())
        assert tags["og:image"] == f"{PUBLIC}/league/{league_id}/standings.png"
        assert tags["og:url"] == f"{PUBLIC}/league/{league_id}"
        picture = await client.get(f"/league/{league_id}/standings.png")
        assert picture.status == 200 and picture.content_type == "image/png"


async def test_a_public_league_offers_its_calendar_standings_file_and_picture(service, deadlines, clock, client):
    league_id, _ = await season(service, deadlines, clock)
    body = await (await client.get(f"/league/{league_id}?lang=en")).text()
    assert f'href="/league/{league_id}/calendar.ics" download' in body
    assert f'href="/league/{league_id}/standings.csv" download' in body
    calendar = await client.get(f"/league/{league_id}/calendar.ics")
    assert calendar.status == 200 and calendar.content_type == "text/calendar"
    text = await calendar.text()
    assert text.startswith("BEGIN:VCALENDAR") and text.count("BEGIN:VEVENT") == 4  # each round's opening and close
    assert 'filename="sunday-cup.ics"' in calendar.headers["Content-Disposition"]
    standings = await client.get(f"/league/{league_id}/standings.csv")
    assert standings.status == 200 and standings.content_type == "text/csv"
    assert "Alice" in await standings.text()
    again = await client.get(f"/league/{league_id}/standings.csv", headers={"If-None-Match": standings.headers["ETag"]})
    assert again.status == 304
    assert (await client.get(f"/league/{league_id}/standings.png")).status == 200


async def test_a_private_league_has_no_files_and_no_picture(service, deadlines, clock, client):
    league_id, _ = await season(service, deadlines, clock, public=False)
    for path in ("calendar.ics", "standings.csv", "standings.png", "other.csv"):
        assert (await client.get(f"/league/{league_id}/{path}")).status == 404, path
    assert (await client.get("/league/99/calendar.ics")).status == 404


async def test_the_standings_have_a_column_per_closed_round_where_there_is_room(service, deadlines, clock, store,
                                                                               client):
    league_id, (closed, _) = await season(service, deadlines, clock)
    data = await league_page(store, league_id)
    assert data.columns == [closed.number]
    assert [row.per_round for row in data.rows] == [["25"], ["25"]]  # round 1: Alice and Mallory, a tie
    body = await (await client.get(f"/league/{league_id}?lang=fr")).text()
    assert '<th class="num room" title="Points de la manche 1">M1</th>' in body
    assert '<td class="num room">25</td>' in body


async def test_the_scratch_links_the_weeks_before_and_after_and_names_stages(client):
    body = await (await client.get("/", params={"week": "2026-W01", "game": "rallyman", "lang": "en"})).text()
    assert 'href="/?game=rallyman&amp;week=2025-W52&amp;lang=en" rel="prev"' in body
    assert 'href="/?game=rallyman&amp;week=2026-W02&amp;lang=en" rel="next"' in body
    first = await (await client.get("/", params={"week": "2000-W01"})).text()
    assert 'rel="prev"' not in first and "week=2000-W02" in first  # no week before the first one read
    assert stage_name("rallyman", "pinewood-sprint") == "Pinewood Sprint"  # what a rally line names
    assert stage_name("rallyman", "no-such-stage") == "no-such-stage"
