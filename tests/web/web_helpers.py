"""A public league with closed and open rounds, driven through the real services (as
tests/league/test_league_season.py drives its season)."""

from __future__ import annotations

from datetime import timedelta

from bot.services import Actor
from bot.store.clock import from_text
from bot.store.leagues import rounds_of_league_tx
from tests.league.conftest import Posts
from tests.league.league_helpers import ALICE, BOB, CAROL, LEAGUE_CHANNEL, ORGANISER, drive, start_run, until

SCRIPT = "<script>alert(1)</script>"
MALLORY = Actor(1006, SCRIPT)


async def season(service, deadlines, clock, public: bool = True, name: str = "Sunday Cup", posts: Posts | None = None):
    """A league of three drivers (one named like a script) and two rounds: the first closed with
    results, the second open with one run finished. Returns (league id, [round 1, round 2]); what
the channels were told goes to `posts`."""
    champs = service.championships
    leagues = champs.leagues
    await leagues.create(LEAGUE_CHANNEL, ORGANISER, name, "Europe/Paris", drop="3")
    for driver in (ALICE, BOB, MALLORY):
        await leagues.join(LEAGUE_CHANNEL, driver)
    if public:
        await leagues.web(LEAGUE_CHANNEL, ORGANISER, "public")
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", day="mon", hour="20", rounds=2)
    rounds = await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    posts = posts if posts is not None else Posts()
    first, second = rounds
    await until(clock, deadlines, service, posts, from_text(first.opens_at) + timedelta(minutes=1))
    for driver in (ALICE, MALLORY):
        await drive(service, driver, await start_run(service, driver))
    await until(clock, deadlines, service, posts, from_text(first.closes_at) + timedelta(minutes=1))
    await until(clock, deadlines, service, posts, from_text(second.opens_at) + timedelta(minutes=1))
    await drive(service, BOB, await start_run(service, BOB))
    rounds = await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    return 1, rounds


__all__ = ["ALICE", "BOB", "CAROL", "MALLORY", "SCRIPT", "season"]
