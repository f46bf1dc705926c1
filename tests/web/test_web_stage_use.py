"""The stage pages show only stages in public use, on both backends: the shipped ones, the world
weeks' official ones, and those a published rally or a public league's round drives. Any other
generated stage (`gen-N`, one for every number) is a 404 before anything is generated or drawn,
so a reader cannot make the site draw and keep on disk a new layer per request."""

from __future__ import annotations

from aiohttp.test_utils import TestClient, TestServer

from bot import games
from bot.engine.core.official import week_of
from bot.services import Place
from bot.web import WebOptions, create_app
from tests.discord.fakes import PNG
from tests.league.league_helpers import ALICE, BOB, LEAGUE_CHANNEL, ORGANISER

PUBLISHED = Place(LEAGUE_CHANNEL.guild_id, 61)
PRIVATE = Place(LEAGUE_CHANNEL.guild_id, 62)


class Counting:
    """A renderer that counts what it is asked to draw (previews: a few fixed bytes)."""

    def __init__(self) -> None:
        self.previews: list[str] = []

    def preview(self, game, stage, lang="en") -> bytes:
        self.previews.append(getattr(stage, "name", str(stage)))
        return PNG


async def answers(client, game: str, name: str) -> tuple[int, int]:
    page = await client.get(f"/stage/{game}/{name}")
    preview = await client.get(f"/stage/{game}/{name}/preview.png")
    return page.status, preview.status


async def lobby(service, place: Place, stage: str) -> None:
    await service.create(place, ALICE, stage, drivers="2")
    await service.join(place, ALICE)
    await service.join(place, BOB)


async def test_a_generated_stage_nobody_publishes_is_404_and_never_drawn(service, store, clock):
    renderer = Counting()
    await lobby(service, PRIVATE, "gen-4242")  # a private channel's rally: not public use
    async with TestClient(TestServer(create_app(store, WebOptions(clock=clock), renderer=renderer))) as client:
        for n in (12345, 4242, 7):
            assert await answers(client, "rallyman", f"gen-{n}") == (404, 404)
        assert await answers(client, "dirt", "gen-99-12") == (404, 404)
        assert renderer.previews == []  # nothing drawn, no layer written
        assert await answers(client, "rallyman", "pinewood-sprint") == (200, 200)  # shipped: shown
        assert renderer.previews == ["pinewood-sprint"]


async def test_a_stage_in_public_use_is_shown(service, store, clock):
    renderer = Counting()
    official = games.get("dirt").library.stages.official(week_of(clock()))
    async with TestClient(TestServer(create_app(store, WebOptions(clock=clock), renderer=renderer))) as client:
        assert official.startswith("gen-") and await answers(client, "dirt", official) == (200, 200)  # this week's
        assert await answers(client, "rallyman", "gen-31") == (404, 404)
        await lobby(service, PUBLISHED, "gen-31")
        await service.channel_web.set(PUBLISHED, ORGANISER, "public")  # a published channel's rally
        assert await answers(client, "rallyman", "gen-31") == (200, 200)
        champs = service.championships
        await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Gen Cup", "UTC")
        await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "gen-77", opens="+1d", closes="+2d")
        assert await answers(client, "rallyman", "gen-77") == (404, 404)  # a private league's round
        await champs.leagues.web(LEAGUE_CHANNEL, ORGANISER, "public")
        assert await answers(client, "rallyman", "gen-77") == (200, 200)  # a public league's
        assert await answers(client, "rallyman", "gen-7") == (404, 404)  # a name that only looks alike
    assert sorted(renderer.previews) == sorted([official, "gen-31", "gen-77"])
