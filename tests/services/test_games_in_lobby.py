"""A rally is created in a game: the game's id is stored on the rally, an unknown
id is refused naming the games there are, and the seats a rally may take are its game's, not the
schema's (classic keeps its 1 to 4, with the same refusal as ever). Both backends."""

from __future__ import annotations

import pytest

from bot import games
from bot.engine.core.errors import RallyError
from bot.engine.core.game import SeatRange, UnknownGame
from bot.i18n import render
from tests.services.conftest import ALICE, HERE, snapshot_of
from tests.toy_game.game import DashRules, dice_dash


class SixSeats(DashRules):
    """The test-only toy game (tests/toy_game) with seats for two to six: the lobby's create
    bounds the drivers by the game's seats."""

    id = "six-seats"
    seats = SeatRange(2, 6)


@pytest.fixture
def six_seats():
    games.register(dice_dash(rules=SixSeats()))
    try:
        yield SixSeats.id
    finally:
        games.unregister(SixSeats.id)


async def test_a_rally_is_created_in_classic_unless_told_otherwise(service, store):
    await service.create(HERE, ALICE, "pinewood-sprint", drivers=3)
    rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
    assert (rally.game, rally.max_drivers) == ("rallyman", 3)


@pytest.mark.parametrize("game", ["chess", "RALLYMAN ", "rallyman; DROP TABLE rallies"])
async def test_an_unknown_game_is_refused_naming_the_games_and_nothing_is_created(service, store, game):
    with pytest.raises(UnknownGame) as refused:
        await service.create(HERE, ALICE, "pinewood-sprint", game=game)
    assert render(str(refused.value)) == f"There is no game called `{game.strip()}`. Games: rallyman, dirt, roadrally."
    assert await snapshot_of(store) is None
    assert await store.db.fetch_all("SELECT id FROM rallies") == []


async def test_the_seats_are_the_games(service, store, six_seats):
    await service.create(HERE, ALICE, "dash-3", drivers=6, game=six_seats)
    rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
    assert (rally.game, rally.max_drivers) == (six_seats, 6)  # beyond classic's 4: the schema takes it


@pytest.mark.parametrize("game, drivers, needle", [
    ("six-seats", 7, "`drivers` must be a number from 2 to 6, not `7`"),
    ("six-seats", 1, "`drivers` must be a number from 2 to 6, not `1`"),
    (None, 5, "`drivers` must be a number from 1 to 4, not `5`"),  # classic, as it always read
    ("rallyman", 5, "`drivers` must be a number from 1 to 4, not `5`"),
])
async def test_seats_beyond_the_games_are_refused_and_nothing_is_created(service, store, six_seats, game, drivers,
                                                                          needle):
    with pytest.raises(RallyError) as refused:
        await service.create(HERE, ALICE, "dash-3" if game == "six-seats" else "pinewood-sprint", drivers=drivers,
                             game=game)
    assert needle in str(refused.value)
    assert await snapshot_of(store) is None


async def test_db_check_replays_a_rally_in_the_game_of_its_row(service, store):
    """`db check` asks the registry for the row's game: classic replays to its snapshot; a row
    naming a game this bot does not have is reported, naming the games, and left as it was."""
    from bot.services.play.replay import log_problem, replay_snapshot
    from tests.services.conftest import running_rally

    await running_rally(service)
    assert (await store.check(replay_snapshot, log_problem)).ok
    await store.db.write(lambda tx: tx.execute("UPDATE rallies SET game = 'gone'"))
    before = await snapshot_of(store)
    report = await store.check(replay_snapshot, log_problem)
    assert not report.ok
    problems = [str(m) for m in report.mismatches]  # each logged entry, and the replay, for the game it lacks
    assert problems and any("replay failed" in p for p in problems)
    assert all("UnknownGame" in p and "gone" in p and "rallyman" in p for p in problems), problems
    assert await snapshot_of(store) == before
