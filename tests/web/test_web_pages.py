"""Every route of the spectators' web page on a league built through the real
services, on both backends: status codes, the strict headers, ETag and 304, escaping, languages,
public and private leagues, the cards to download and verify."""

from __future__ import annotations

import html

from bot.services.world.card_check import verify_bytes
from tests.league.league_helpers import ALICE, LEAGUE_CHANNEL, ORGANISER
from tests.web.web_helpers import SCRIPT, season

SECURITY = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}


def assert_strict(response) -> None:
    policy = response.headers.get("Content-Security-Policy", "")
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy and "script-src 'self'" in policy
    for name, value in SECURITY.items():
        assert response.headers.get(name) == value, name


async def test_every_page_of_a_public_league_answers_with_strict_headers_and_an_etag(service, deadlines, clock,
                                                                                     client):
    league_id, (closed, open_) = await season(service, deadlines, clock)
    pages = {"/": "text/html", f"/league/{league_id}": "text/html", f"/round/{closed.id}": "text/html",
             f"/round/{open_.id}": "text/html", "/stage/rallyman/pinewood-sprint": "text/html",
             "/stage/rallyman/pinewood-sprint/preview.png": "image/png", "/static/site.css": "text/css",
             "/static/live.js": "text/javascript", "/static/icon.svg": "image/svg+xml",
             f"/round/{closed.id}/cards.json": "application/json",
             f"/round/{closed.id}/card/{ALICE.user_id}.json": "application/json",
             "/rally/1": "text/html"}
    for path, kind in pages.items():
        response = await client.get(path)
        assert response.status == 200, path
        assert response.content_type == kind, path
        assert response.headers.get("ETag"), path
        assert_strict(response)
    league = await (await client.get(f"/league/{league_id}")).text()
    assert "Sunday Cup" in league and "Europe/Paris" in league
    assert f"/round/{closed.id}" in league and f"/round/{open_.id}" in league


async def test_a_round_shows_the_seed_hash_while_open_and_the_seed_after_its_close(service, deadlines, clock,
                                                                                  client):
    _, (closed, open_) = await season(service, deadlines, clock)
    shut = await (await client.get(f"/round/{closed.id}")).text()
    assert closed.seed in shut and closed.seed_hash in shut and "python -m bot verify FILE" in shut
    running = await (await client.get(f"/round/{open_.id}")).text()
    assert open_.seed_hash in running and open_.seed not in running
    assert "/cards.json" not in running  # no cards before the close
    assert (await client.get(f"/round/{open_.id}/cards.json")).status == 404


async def test_the_downloaded_cards_verify_offline(service, deadlines, clock, client):
    _, (closed, _) = await season(service, deadlines, clock)
    whole = await (await client.get(f"/round/{closed.id}/cards.json")).read()
    assert verify_bytes(whole).ok
    one = await client.get(f"/round/{closed.id}/card/{ALICE.user_id}.json")
    assert "attachment" in one.headers["Content-Disposition"]
    report = verify_bytes(await one.read())
    assert report.ok, report.lines
    assert (await client.get(f"/round/{closed.id}/card/999.json")).status == 404


async def test_a_driver_named_like_a_script_shows_as_text(service, deadlines, clock, client):
    league_id, (closed, _) = await season(service, deadlines, clock)
    for path in (f"/league/{league_id}", f"/round/{closed.id}", "/"):
        text = await (await client.get(path)).text()
        assert SCRIPT not in text, path
        assert "<script" not in text.lower(), path
    assert html.escape(SCRIPT, quote=False) in await (await client.get(f"/league/{league_id}")).text()


async def test_etag_answers_304_until_the_data_changes(service, deadlines, clock, client):
    league_id, (closed, _) = await season(service, deadlines, clock)
    first = await client.get(f"/league/{league_id}")
    tag = first.headers["ETag"]
    again = await client.get(f"/league/{league_id}", headers={"If-None-Match": tag})
    assert again.status == 304 and again.headers["ETag"] == tag
    assert_strict(again)
    await service.championships.stewarding.penalty(LEAGUE_CHANNEL, ORGANISER, ALICE.user_id, "Alice", "30",
                                                   "cut the corner", str(closed.number))
    changed = await client.get(f"/league/{league_id}", headers={"If-None-Match": tag})
    assert changed.status == 200 and changed.headers["ETag"] != tag
    assert "+30s" in await changed.text()
    # each language is its own version of the page
    french = await client.get(f"/league/{league_id}?lang=fr", headers={"If-None-Match": changed.headers["ETag"]})
    assert french.status == 200 and french.headers["ETag"] != changed.headers["ETag"]


async def test_languages_from_accept_language_and_the_lang_switch(service, deadlines, clock, client):
    league_id, _ = await season(service, deadlines, clock)
    path = f"/league/{league_id}"
    assert "Standings" in await (await client.get(path)).text()
    assert "Wertung" in await (await client.get(path, headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})).text()
    assert "Classement" in await (await client.get(path, headers={"Accept-Language": "es, fr;q=0.8"})).text()
    switched = await (await client.get(path + "?lang=fr", headers={"Accept-Language": "de"})).text()
    assert "Classement" in switched and 'lang="fr"' in switched
    for code in ("en", "fr", "de"):  # a link to every language on the page
        assert f'href="{path}?lang={code}"' in switched
    unknown = await client.get(path + "?lang=xx", headers={"Accept-Language": "de"})
    assert unknown.status == 200 and "Wertung" in await unknown.text()  # an unknown language: ignored
    assert "Standings" in await (await client.get(path + "?lang=%00%ff")).text()


async def test_a_private_league_its_rounds_and_rallies_answer_404_until_made_public(service, deadlines, clock,
                                                                                 client):
    league_id, (closed, open_) = await season(service, deadlines, clock, public=False)
    private = (f"/league/{league_id}", f"/round/{closed.id}", f"/round/{open_.id}", f"/round/{closed.id}/cards.json",
               f"/round/{closed.id}/card/{ALICE.user_id}.json", "/rally/1", "/rally/1/board.png")
    for path in private:
        assert (await client.get(path)).status == 404, path
    assert "Sunday Cup" not in await (await client.get("/")).text()
    await service.championships.leagues.web(LEAGUE_CHANNEL, ORGANISER, "public")
    for path in private[:-1]:
        assert (await client.get(path)).status == 200, path
    assert "Sunday Cup" in await (await client.get("/")).text()
    await service.championships.leagues.web(LEAGUE_CHANNEL, ORGANISER, "private")
    for path in private:
        assert (await client.get(path)).status == 404, path


async def test_a_run_of_an_open_round_is_not_shown_before_the_close(service, deadlines, clock, client):
    """Its dice would tell the other drivers theirs (shared dice): the page waits for the close."""
    _, (closed, open_) = await season(service, deadlines, clock)
    rally_of_open_round = 3  # Alice and Mallory drove rallies 1 and 2 in round 1, Bob rally 3 in round 2
    assert (await client.get(f"/rally/{rally_of_open_round}")).status == 404
    assert (await client.get("/rally/1")).status == 200


def drawable(game) -> str:
    """The game's first stage (every shipped name's preview is drawn: Road Rally's `standard` with
    seed 0's layout)."""
    name = game.library.stages.names()[0]
    game.pictures.preview_picture(name)  # refuses (raises) a name it cannot draw
    return name


async def test_a_stage_page_for_every_game(client, caplog):
    from bot import games

    for game in games.games():
        name = drawable(game)
        facts = game.library.stages.facts(name)
        response = await client.get(f"/stage/{game.id}/{name}")
        assert response.status == 200, game.id
        text = await response.text()
        assert html.escape(facts.title) in text and str(facts.length) in text, game.id
        preview = await client.get(f"/stage/{game.id}/{name}/preview.png")
        assert preview.status == 200 and preview.content_type == "image/png", game.id
    # a course a rally lays out from its own seed (`standard`): its page, and seed 0's layout drawn
    assert (await client.get("/stage/roadrally/standard")).status == 200
    assert (await client.get("/stage/roadrally/standard/preview.png")).status == 200
    assert (await client.get("/stage/roadrally/nowhere/preview.png")).status == 404
    assert not [r for r in caplog.records if r.exc_info]
