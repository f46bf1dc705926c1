"""A public league of a table game on the web page: its standings show the
total VP their ties are broken by and say so; its round shows VP and offers no result card."""

from __future__ import annotations

from datetime import timedelta

from bot.store.clock import from_text
from tests.league.conftest import Posts
from tests.league.league_helpers import LEAGUE_CHANNEL, ORGANISER, new_thread, until
from tests.league.test_table_game_rounds import ENTRANTS, road_league


async def test_a_table_game_league_page_ranks_by_points_then_vp_and_its_round_offers_no_card(
        service, deadlines, clock, client):
    async def maker(guild_id: int, channel_id: int, name: str, users: tuple[int, ...]) -> int:
        return new_thread()

    service.championships.tables.threads = maker
    rnd = await road_league(service, ENTRANTS[:3])
    await service.championships.leagues.web(LEAGUE_CHANNEL, ORGANISER, "public")
    posts = Posts()
    await until(clock, deadlines, service, posts, from_text(rnd.closes_at) + timedelta(minutes=1))
    league = await client.get("/league/1")
    assert league.status == 200
    text = await league.text()
    assert ">VP<" in text and "the higher total of victory points" in text
    assert "lower total time" not in text
    page = await client.get(f"/round/{rnd.id}")
    assert page.status == 200
    body = await page.text()
    assert "cards.json" not in body and "/card/" not in body
    assert (await client.get(f"/round/{rnd.id}/cards.json")).status == 404
