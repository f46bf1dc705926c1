"""A moved round's web pages say it as the league's channel was told (`league.round_moved`): who
moved it, when, the window it took and the one it left in the league's time, and why; the round's
page each move, the league's page the latest; escaped, and in the reader's language. On both
backends, through the web app's test client."""

from __future__ import annotations

import html

from bot.services.league.leagues import Member
from bot.store.clock import from_text
from bot.store.leagues import rounds_of_league_tx
from tests.league.conftest import Posts, deliver
from tests.league.league_helpers import ALICE, LEAGUE_CHANNEL, ORGANISER


async def two_rounds(service):
    champs = service.championships
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "Europe/Paris")
    await champs.leagues.web(LEAGUE_CHANNEL, ORGANISER, "public")
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", day="mon", hour="20", rounds=2)
    return await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))


async def test_a_moved_round_says_who_when_where_to_from_and_why_on_its_pages(service, client):
    first, second = await two_rounds(service)
    champs = service.championships
    await champs.rounds.round_move(LEAGUE_CHANNEL, ORGANISER, 2, "<b>venue</b> closed", opens="2026-12-08 21:00",
                                   closes="2026-12-14 21:00")
    line = ("📅 Moved by an organiser on 2026-11-22 13:00: opens 2026-12-08 21:00, closes 2026-12-14 21:00 "
            "(was 2026-11-30 20:00 to 2026-12-07 20:00). Reason: <b>venue</b> closed")
    page = await (await client.get(f"/round/{second.id}")).text()
    assert html.escape(line, quote=False) in page and "<b>venue" not in page
    assert "Moved by" not in await (await client.get(f"/round/{first.id}")).text()  # never moved
    posts = Posts()
    await deliver(service, posts)
    (told,) = [text for text in posts.text(LEAGUE_CHANNEL.channel_id).splitlines() if "moved by" in text]
    stamps = [int(from_text(t).timestamp()) for t in (second.opens_at, second.closes_at)]
    (moved,) = [r for r in await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1)) if r.id == second.id]
    stamps = [int(from_text(t).timestamp()) for t in (moved.opens_at, moved.closes_at)] + stamps
    assert all(f"<t:{stamp}:f>" in told for stamp in stamps)  # the channel was told the same four times

    await champs.leagues.organisers(LEAGUE_CHANNEL, ORGANISER, None, add=Member(ALICE.user_id, ALICE.name))
    await champs.leagues.join(LEAGUE_CHANNEL, ALICE)
    await champs.rounds.round_move(LEAGUE_CHANNEL, ALICE, 2, "rain", closes="2026-12-15 21:00")
    page = await (await client.get(f"/round/{second.id}")).text()
    later = ("📅 Moved by Alice on 2026-11-22 13:00: opens 2026-12-08 21:00, closes 2026-12-15 21:00 "
             "(was 2026-12-08 21:00 to 2026-12-14 21:00). Reason: rain")
    assert page.index(html.escape(line, quote=False)) < page.index(later)  # each move, oldest first
    league = await (await client.get("/league/1")).text()
    assert later in league and html.escape(line, quote=False) not in league  # the latest, beside its round
    french = await (await client.get(f"/round/{second.id}?lang=fr")).text()
    assert "📅 Déplacée par Alice le 2026-11-22 13:00 : ouvre 2026-12-08 21:00, ferme 2026-12-15 21:00" in french
