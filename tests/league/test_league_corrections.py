"""Stewarding corrections (`/steward`): a penalty withdrawn or changed, a disqualification lifted,
each with who, when and why in the league log, shown under the round's results, and the results,
standings, ratings, careers and cards the same as a rebuild from scratch after each; every
refusal changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.services.career.careers import CareerService
from bot.services.career.ratings import rebuild_tx
from bot.services.league.round_close import _classify_tx, result_rows
from bot.services.work import RallyWork
from bot.services.world.verify import verify_upload
from bot.store.clock import from_text
from bot.store.leagues import cards_tx, league_tx, results_of_round_tx, round_tx, rounds_of_league_tx
from tests.league.league_helpers import ALICE, BOB, CAROL, LEAGUE_CHANNEL, ORGANISER, drive, start_run, until
from tests.league.test_league_refusals import everything, refused

RATED = ("ratings", "rating_events", "rating_history", "career_results")


async def rated(store) -> dict:
    return {table: sorted(tuple(r) for r in await store.db.fetch_all(f"SELECT * FROM {table}")) for table in RATED}


async def season(service, clock, deadlines, posts):
    """Two weekly rounds, three drivers in each, both closed."""
    champs = service.championships
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "Europe/Paris")
    for driver in (ALICE, BOB, CAROL):
        await champs.leagues.join(LEAGUE_CHANNEL, driver)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", day="mon", hour="20", rounds=2)
    rounds = await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    for rnd in rounds:
        await until(clock, deadlines, service, posts, from_text(rnd.opens_at) + timedelta(minutes=1))
        for driver in (ALICE, BOB, CAROL):
            await drive(service, driver, await start_run(service, driver))
        await until(clock, deadlines, service, posts, from_text(rnd.closes_at) + timedelta(minutes=1))
    return rounds


async def assert_as_rebuilt(service, round_id: int) -> None:
    """The stored results equal a classification from scratch; the ratings and careers equal what
    `db ratings --rebuild` and `db careers --rebuild` write; every card verifies against the round."""
    store = service.store

    async def fresh(tx):
        rnd = await round_tx(tx, round_id)
        league = await league_tx(tx, rnd.league_id)
        classified, _, _ = await _classify_tx(tx, rnd, league)
        return sorted(result_rows(rnd, league, classified), key=lambda r: r.user_id)

    stored = sorted(await store.db.read(lambda tx: results_of_round_tx(tx, round_id)), key=lambda r: r.user_id)
    assert stored == await store.db.read(fresh)
    before = await rated(store)
    await store.db.write(rebuild_tx)
    await CareerService(RallyWork(store)).rebuild()
    assert await rated(store) == before
    cards = await store.db.read(lambda tx: cards_tx(tx, round_id))
    report = await verify_upload(store, cards.encode())
    assert report.ok, report.lines


async def test_every_correction_leaves_a_trail_and_the_season_as_a_rebuild_would(service, clock, deadlines, posts):
    rounds = await season(service, clock, deadlines, posts)
    first = rounds[0]
    stewarding = service.championships.stewarding
    store = service.store

    async def result(user_id):
        return next(r for r in await store.db.read(lambda tx: results_of_round_tx(tx, first.id))
                    if r.user_id == user_id)

    await stewarding.penalty(LEAGUE_CHANNEL, ORGANISER, BOB.user_id, "Bob", 60, "cut", round_number=1)
    assert (await result(BOB.user_id)).penalty_s == 60
    await assert_as_rebuilt(service, first.id)

    reply = await stewarding.steward(LEAGUE_CHANNEL, ORGANISER, "change", BOB.user_id, "Bob", 1, "video shows less",
                                     seconds=20)
    assert "from +60 s to +20 s" in reply.lines[0]
    assert (await result(BOB.user_id)).penalty_s == 20
    await assert_as_rebuilt(service, first.id)

    await stewarding.steward(LEAGUE_CHANNEL, ORGANISER, "withdraw", BOB.user_id, "Bob", 1, "appeal upheld")
    assert (await result(BOB.user_id)).penalty_s == 0
    await assert_as_rebuilt(service, first.id)

    await stewarding.disqualify(LEAGUE_CHANNEL, ORGANISER, CAROL.user_id, "Carol", 1, "wrong car")
    assert (await result(CAROL.user_id)).status == "dsq"
    await assert_as_rebuilt(service, first.id)
    await stewarding.steward(LEAGUE_CHANNEL, ORGANISER, "lift-dsq", CAROL.user_id, "Carol", 1, "car was legal")
    assert (await result(CAROL.user_id)).status == "classified"
    await assert_as_rebuilt(service, first.id)

    await deliver_all(service, posts)
    text = posts.text(LEAGUE_CHANNEL.channel_id)
    for trail in ("Penalty of Bob changed to +20 s by <@1004>: video shows less",
                  "Penalty of Bob withdrawn by <@1004>: appeal upheld",
                  "Disqualification of Carol lifted by <@1004>: car was legal"):
        assert trail in text
    log = await store.db.fetch_all("SELECT action, actor_id, reason, corrects FROM league_log WHERE round_id = ? "
                                   "ORDER BY id", (first.id,))
    corrections = [tuple(r) for r in log if r[0] in ("penalty_change", "penalty_withdraw", "dsq_lift")]
    assert [(a, who, why) for a, who, why, _ in corrections] == [
        ("penalty_change", ORGANISER.user_id, "video shows less"),
        ("penalty_withdraw", ORGANISER.user_id, "appeal upheld"),
        ("dsq_lift", ORGANISER.user_id, "car was legal")]
    assert all(c[3] is not None for c in corrections)


async def deliver_all(service, posts):
    from tests.league.conftest import deliver
    await deliver(service, posts)


@pytest.fixture
async def judged_round(service, clock, deadlines, posts):
    """One closed round with Bob's 30 s penalty and Carol's disqualification, and one open round."""
    champs = service.championships
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "Europe/Paris")
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Other Cup", "Europe/Paris", channel_id=21)
    for driver in (ALICE, BOB, CAROL):
        await champs.leagues.join(LEAGUE_CHANNEL, driver, "Sunday Cup")
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", day="mon", hour="20", rounds=2,
                                  league="Sunday Cup")
    rnd = (await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1)))[0]
    await until(clock, deadlines, service, posts, from_text(rnd.opens_at) + timedelta(minutes=1))
    for driver in (BOB, CAROL):
        await drive(service, driver, await start_run(service, driver, league="Sunday Cup"))
    await champs.stewarding.penalty(LEAGUE_CHANNEL, ORGANISER, BOB.user_id, "Bob", 30, "cut", 1, "Sunday Cup")
    await champs.stewarding.disqualify(LEAGUE_CHANNEL, ORGANISER, CAROL.user_id, "Carol", 1, "car", "Sunday Cup")
    await until(clock, deadlines, service, posts, from_text(rnd.closes_at) + timedelta(minutes=1))
    return champs.stewarding


@pytest.mark.parametrize("who, action, driver, number, reason, seconds, league, match", [
    (ALICE, "withdraw", BOB, 1, "mate", None, "Sunday Cup", "Only the organisers of Sunday Cup"),
    (ORGANISER, "withdraw", ALICE, 1, "none", None, "Sunday Cup", "Alice has no penalty in force in round 1"),
    (ORGANISER, "lift-dsq", BOB, 1, "none", None, "Sunday Cup", "Bob is not disqualified from round 1"),
    (ORGANISER, "withdraw", BOB, 1, "x", None, "Other Cup", "no round 1"),
    (ORGANISER, "change", BOB, 1, "same", 30, "Sunday Cup", "already \\+30 s"),
    (ORGANISER, "change", BOB, 1, "neg", -60, "Sunday Cup", "seconds"),
    (ORGANISER, "change", BOB, 1, "zero", 0, "Sunday Cup", "seconds"),
    (ORGANISER, "withdraw", BOB, 1, "x" * 201, None, "Sunday Cup", "reason"),
    (ORGANISER, "withdraw", BOB, 1, "   ", None, "Sunday Cup", "reason"),
    (ORGANISER, "withdraw", BOB, 1, "why", 10, "Sunday Cup", "only with `action:change`"),
    (ORGANISER, "undo", BOB, 1, "why", None, "Sunday Cup", "Unknown action `undo`"),
    (ORGANISER, "withdraw", BOB, 3, "why", None, "Sunday Cup", "no round 3"),
])
async def test_bad_corrections_are_refused_and_change_nothing(service, judged_round, who, action, driver, number,
                                                              reason, seconds, league, match):
    await refused(service.store, lambda: judged_round.steward(LEAGUE_CHANNEL, who, action, driver.user_id,
                                                               driver.name, number, reason, seconds, league), match)


async def test_a_correction_made_twice_is_applied_once(service, judged_round):
    await judged_round.steward(LEAGUE_CHANNEL, ORGANISER, "withdraw", BOB.user_id, "Bob", 1, "appeal")
    await refused(service.store, lambda: judged_round.steward(LEAGUE_CHANNEL, ORGANISER, "withdraw", BOB.user_id,
                                                               "Bob", 1, "appeal"), "no penalty in force")
    await judged_round.steward(LEAGUE_CHANNEL, ORGANISER, "lift-dsq", CAROL.user_id, "Carol", 1, "legal")
    await refused(service.store, lambda: judged_round.steward(LEAGUE_CHANNEL, ORGANISER, "lift-dsq", CAROL.user_id,
                                                               "Carol", 1, "legal"), "not disqualified")


async def test_a_hostile_reason_is_shown_without_pinging_or_formatting(service, judged_round, posts):
    reply = await judged_round.steward(LEAGUE_CHANNEL, ORGANISER, "withdraw", BOB.user_id, "Bob", 1,
                                       "@everyone **bold** <@123> `code`")
    line = reply.lines[0]
    assert "@everyone" not in line and "<@123>" not in line
    assert "**bold**" not in line and "\\*\\*bold\\*\\*" in line


async def test_corrections_racing_each_other_apply_once(service, judged_round):
    import asyncio
    calls = [judged_round.steward(LEAGUE_CHANNEL, ORGANISER, "withdraw", BOB.user_id, "Bob", 1, "appeal")
             for _ in range(2)]
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    assert sum(1 for o in outcomes if not isinstance(o, BaseException)) == 1
    rows = await service.store.db.fetch_all("SELECT COUNT(*) FROM league_log WHERE action = 'penalty_withdraw'")
    assert rows[0][0] == 1


async def test_a_correction_on_an_open_round_is_logged_and_counts_at_the_close(service, clock, deadlines, posts):
    champs = service.championships
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "Europe/Paris")
    await champs.leagues.join(LEAGUE_CHANNEL, BOB)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="now", closes="+2d")
    await drive(service, BOB, await start_run(service, BOB))
    await champs.stewarding.penalty(LEAGUE_CHANNEL, ORGANISER, BOB.user_id, "Bob", 30, "cut", 1)
    before = await everything(service.store)
    await champs.stewarding.steward(LEAGUE_CHANNEL, ORGANISER, "withdraw", BOB.user_id, "Bob", 1, "appeal")
    after = await everything(service.store)
    assert after["round_results"] == before["round_results"] == []  # nothing computed before the close
    await until(clock, deadlines, service, posts, clock.now + timedelta(days=3))
    (res,) = await service.store.db.read(lambda tx: results_of_round_tx(tx, 1))
    assert res.penalty_s == 0


async def test_a_correction_racing_the_close_counts_once_whichever_goes_first(service, clock, deadlines, posts):
    import asyncio
    champs = service.championships
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "Europe/Paris")
    await champs.leagues.join(LEAGUE_CHANNEL, BOB)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="now", closes="+2d")
    await drive(service, BOB, await start_run(service, BOB))
    await champs.stewarding.penalty(LEAGUE_CHANNEL, ORGANISER, BOB.user_id, "Bob", 30, "cut", 1)
    clock.now += timedelta(days=2, minutes=1)
    await asyncio.gather(champs.stewarding.steward(LEAGUE_CHANNEL, ORGANISER, "withdraw", BOB.user_id, "Bob", 1,
                                                   "appeal"), deadlines.run_due())
    (res,) = await service.store.db.read(lambda tx: results_of_round_tx(tx, 1))
    assert res.penalty_s == 0
    rows = await service.store.db.fetch_all("SELECT COUNT(*) FROM league_log WHERE action = 'penalty_withdraw'")
    assert rows[0][0] == 1
    await assert_as_rebuilt(service, 1)
