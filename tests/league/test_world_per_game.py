"""A world scratch per game, on both backends: each game with solo runs has its
own world round a week on its own official stage, its own ranking and its own jobs; a driver's
one attempt a week is one per game, and a league round on the official stage of a league of game
G is G's official run only (it never locks its driver out of game H, nor counts there)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot import games
from bot.engine.core.errors import RallyError
from bot.engine.core.official import official_stage, week_bounds, week_of
from bot.services import Place
from bot.services.world.rounds import week_of_ref, week_ref
from bot.store.leagues import world_round_tx
from tests.league.conftest import deliver
from tests.league.league_helpers import ALICE, BOB, LEAGUE_CHANNEL, ORGANISER, dash, drive, new_thread, start_run
from tests.toy_game.conftest import toy  # noqa: F401  (the toy game, registered for these tests)
from tests.toy_game.game import DashLibrary, DashRules, dice_dash

TOY = "dicedash"
TOY_CHANNEL = Place(guild_id=LEAGUE_CHANNEL.guild_id, channel_id=21)


async def scratch_run(service, actor, game=None, place=LEAGUE_CHANNEL) -> Place:
    scratch = service.championships.scratch
    await scratch.check_run(place, actor, game)
    thread = Place(place.guild_id, new_thread())
    await scratch.start_run(place, actor, thread.channel_id, "Test server", game)
    return thread



async def test_a_toy_week_and_a_classic_week_rank_apart_and_a_driver_drives_both(service, store, clock,
                                                                                 toy):  # noqa: F811
    week = week_of(clock())
    alice_toy = await scratch_run(service, ALICE, TOY)
    await dash(service, toy, ALICE, alice_toy)
    alice_classic = await scratch_run(service, ALICE)  # her toy run does not lock her out of classic
    await drive(service, ALICE, alice_classic)
    await dash(service, toy, BOB, await scratch_run(service, BOB, TOY))

    rounds = {r["game"]: r for r in await store.db.fetch_all(
        "SELECT game, specials, ruleset, week FROM rounds WHERE league_id IS NULL")}
    assert set(rounds) == {"rallyman", TOY}
    assert rounds["rallyman"]["specials"] == f'["{official_stage(week)}"]'  # classic's stage, as before
    assert rounds[TOY]["specials"] == f'["{toy.library.stages.official(week)}"]'
    assert rounds[TOY]["ruleset"] == "provisional"  # the toy's first ruleset
    runs = [tuple(r) for r in await store.db.fetch_all("SELECT user_id, game, status FROM runs ORDER BY id")]
    assert runs == [(ALICE.user_id, TOY, "finished"), (ALICE.user_id, "rallyman", "finished"),
                    (BOB.user_id, TOY, "finished")]

    toy_ranking = await service.championships.scratch.ranking(LEAGUE_CHANNEL, BOB, game=TOY)
    classic_ranking = await service.championships.scratch.ranking(LEAGUE_CHANNEL, BOB)
    assert f"World scratch {week} (Dice Dash): 2 drivers." in toy_ranking.lines[0]
    assert f"World scratch {week} (Rallyman): 1 driver." in classic_ranking.lines[0]
    assert "Bob is ranked" in "\n".join(toy_ranking.lines)
    assert "Bob" not in "\n".join(classic_ranking.lines)
    mine = await service.championships.scratch.me(LEAGUE_CHANNEL, ALICE, TOY)
    assert mine.lines[0] == f"Your official runs in Dice Dash (this week: {week}):" and len(mine.lines) == 2
    bob_classic = await service.championships.scratch.me(LEAGUE_CHANNEL, BOB)
    assert bob_classic.lines == [f"Your official runs in Rallyman (this week: {week}):", "None yet: `/scratch run`."]

    with pytest.raises(RallyError, match="is your one attempt at the official stage"):
        await scratch_run(service, ALICE, TOY)  # one attempt a week in each game
    with pytest.raises(RallyError, match="is your one attempt at the official stage"):
        await scratch_run(service, ALICE)
    assert len(await store.db.fetch_all("SELECT id FROM runs")) == 3  # the refusals changed nothing


async def test_an_unknown_game_is_refused_naming_the_games_and_changes_nothing(service, store, toy):  # noqa: F811
    scratch = service.championships.scratch
    for call in (scratch.check_run(LEAGUE_CHANNEL, ALICE, "nosuchgame"),
                 scratch.ranking(LEAGUE_CHANNEL, ALICE, None, "nosuchgame"),
                 scratch.me(LEAGUE_CHANNEL, ALICE, "nosuchgame")):
        with pytest.raises(RallyError, match=r"no game called `nosuchgame`.*rallyman, dirt, roadrally, dicedash"):
            await call
    assert await store.db.fetch_all("SELECT id FROM rounds") == []
    assert await store.db.fetch_all("SELECT id FROM jobs") == []
    with pytest.raises(RallyError, match=r"Nobody drove the official stage of .* in Dice Dash"):
        await scratch.ranking(LEAGUE_CHANNEL, ALICE, None, TOY)


async def test_a_toy_league_s_official_round_is_the_toy_s_official_run_only(service, store, clock, deadlines,
                                                                             toy):  # noqa: F811
    champs = service.championships
    await champs.leagues.create(TOY_CHANNEL, ORGANISER, "Dash Cup", "UTC", game=TOY)
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "UTC")
    for place in (TOY_CHANNEL, LEAGUE_CHANNEL):
        await champs.leagues.join(place, ALICE)
    start, _ = week_bounds(week_of(clock() + timedelta(days=7)))
    clock.now = start + timedelta(hours=1)
    await champs.rounds.round_add(TOY_CHANNEL, ORGANISER, "official", opens="now", closes="+2d")
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "official", opens="now", closes="+2d")
    await deadlines.run_due()
    week = week_of(start)
    toy_world = await store.db.read(lambda tx: world_round_tx(tx, week, TOY))
    classic_world = await store.db.read(lambda tx: world_round_tx(tx, week))
    assert toy_world.game == TOY and classic_world.game == "rallyman" and toy_world.seed != classic_world.seed
    leagues_rounds = {r["game"]: r for r in await store.db.fetch_all(
        "SELECT game, specials, seed, ruleset FROM rounds WHERE league_id IS NOT NULL")}
    assert leagues_rounds[TOY]["specials"] == f'["{toy.library.stages.official(week)}"]'
    assert (leagues_rounds[TOY]["seed"], leagues_rounds[TOY]["ruleset"]) == (toy_world.seed, toy_world.ruleset)
    assert leagues_rounds["rallyman"]["specials"] == f'["{official_stage(week)}"]'

    # Alice drives the toy league's round: it is her toy world entry, never her classic one
    await dash(service, toy, ALICE, await start_run(service, ALICE, TOY_CHANNEL))
    with pytest.raises(RallyError, match="is your one attempt at the official stage"):
        await scratch_run(service, ALICE, TOY)
    toy_ranking = await champs.scratch.ranking(LEAGUE_CHANNEL, ALICE, game=TOY)
    assert "Alice is ranked 1 of 1." in toy_ranking.lines
    # ... and her classic league round is still hers to drive, then counts in classic's world scratch
    await drive(service, ALICE, await start_run(service, ALICE, LEAGUE_CHANNEL))
    classic_ranking = await champs.scratch.ranking(LEAGUE_CHANNEL, ALICE)
    assert "Alice is ranked 1 of 1." in classic_ranking.lines
    answers = await store.db.fetch_all("SELECT round_id FROM run_answers")
    assert answers == []  # each run counts in its own game's rounds only: no cross-game links
    with pytest.raises(RallyError, match="is your one attempt at the official stage"):
        await scratch_run(service, ALICE)


async def test_each_game_s_week_has_its_own_jobs_and_posts_to_its_own_leagues(service, store, clock, deadlines,
                                                                                posts, toy):  # noqa: F811
    champs = service.championships
    await champs.leagues.create(TOY_CHANNEL, ORGANISER, "Dash Cup", "UTC", game=TOY)
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "UTC")
    week = week_of(clock())
    await dash(service, toy, ALICE, await scratch_run(service, ALICE, TOY))
    await champs.scratch.this_week()
    refs = sorted({r[0] for r in await store.db.fetch_all("SELECT ref FROM jobs WHERE kind LIKE 'scratch.%'")})
    assert refs == [f"week:{week}", f"week:{week}:{TOY}"]  # classic's ref as it always was
    assert week_of_ref(week_ref(week, TOY)) == (week, TOY) and week_of_ref(f"week:{week}") == (week, "rallyman")

    _, end = week_bounds(week)
    clock.now = end + timedelta(minutes=1)
    await deadlines.run_due()
    await deliver(service, posts)
    toy_text = posts.text(TOY_CHANNEL.channel_id)
    classic_text = posts.text(LEAGUE_CHANNEL.channel_id)
    assert f"Dice Dash: the world scratch of {week} is closed" in toy_text and "1. Alice" in toy_text
    assert "provisional rules" in toy_text  # the toy's world week plays its provisional ruleset
    assert f"Rallyman: the world scratch of {week} is closed" in classic_text
    assert "Dice Dash" not in classic_text and "Rallyman:" not in toy_text
    assert "provisional rules" not in classic_text
    following = week_of(end)
    assert (await store.db.read(lambda tx: world_round_tx(tx, following, TOY))).specials == [
        toy.library.stages.official(following)]  # the rollover makes each game's next week


async def test_a_game_without_solo_runs_has_no_world_scratch(service, store, toy):  # noqa: F811
    class Duel(DashRules):  # every seat plays at one table: nothing to rank across servers
        id = "duel"

    class AtOneTable(DashLibrary):
        solo_runs = False
        texts = None

    games.register(dice_dash(rules=Duel(), library=AtOneTable()))
    try:
        with pytest.raises(RallyError, match="Dice Dash has no world scratch"):
            await service.championships.scratch.check_run(LEAGUE_CHANNEL, ALICE, "duel")
    finally:
        games.unregister("duel")
    assert await store.db.fetch_all("SELECT id FROM rounds") == []
