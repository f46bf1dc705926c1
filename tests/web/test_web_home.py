"""The home page: each game's official stage of the week and its world scratch ranking (the
ranks of `/scratch`), the filters, and a server that hides its name stays hidden."""

from __future__ import annotations

from bot.engine.core.official import week_of
from bot.services import Place
from tests.league.league_helpers import ALICE, GUILD, LEAGUE_CHANNEL, drive, new_thread


async def scratch_run(service, actor) -> None:
    scratch = service.championships.scratch
    await scratch.check_run(LEAGUE_CHANNEL, actor)
    thread = Place(guild_id=GUILD, channel_id=new_thread())
    await scratch.start_run(LEAGUE_CHANNEL, actor, thread.channel_id, "Test server")
    await drive(service, actor, thread)


async def test_the_home_page_ranks_the_weeks_official_runs_and_hides_a_hidden_server(service, clock, client):
    week = week_of(clock())
    empty = await (await client.get("/")).text()
    assert week in empty and "No runs yet." in empty
    await scratch_run(service, ALICE)
    home = await client.get("/")
    text = await home.text()
    assert "Alice" in text and "Test server" in text and "Finishers: 1" in text
    assert "/stage/rallyman/" in text and "/stage/dirt/" in text  # every game with a world scratch
    await service.store.guilds.update(GUILD, world_name=False)
    hidden = await client.get("/", headers={"If-None-Match": home.headers["ETag"]})
    assert hidden.status == 200
    text = await hidden.text()
    assert "Alice" in text and "Test server" not in text and "hidden" in text.lower()


async def test_the_home_filters_by_game_and_week(service, clock, client):
    await scratch_run(service, ALICE)
    dirt = await (await client.get("/?game=dirt")).text()
    assert "/stage/dirt/" in dirt and "/stage/rallyman/" not in dirt and "Alice" not in dirt
    past = await (await client.get("/?week=2020-W01")).text()
    assert "2020-W01" in past and "Alice" not in past
    assert 'href="/?game=dirt&amp;week=' in past  # the filters keep each other
