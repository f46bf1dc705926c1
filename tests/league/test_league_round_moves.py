"""Rounds as organisers plan them: numbered by date (a cancelled round leaves no gap), moved with
their jobs and the drivers told, overlaps said, a time that does not exist in the league's zone
refused, `closes:+N` said to count from now; and drivers leaving or removed, their results kept.
Every refusal changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.store.clock import from_text
from bot.store.leagues import results_of_league_tx, rounds_of_league_tx
from tests.league.conftest import deliver
from tests.league.league_helpers import ALICE, BOB, LEAGUE_CHANNEL, ORGANISER, drive, start_run, until
from tests.league.test_league_refusals import refused


@pytest.fixture
async def cup(service):
    champs = service.championships
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "Europe/Paris")
    for driver in (ALICE, BOB):
        await champs.leagues.join(LEAGUE_CHANNEL, driver)
    return champs


async def numbered(service) -> list[tuple[int, str, str]]:
    rounds = await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    return [(r.number, r.opens_at[:10], r.status) for r in rounds]


async def test_rounds_are_numbered_by_date_and_a_cancelled_one_goes_last(service, cup):
    rounds = cup.rounds
    await rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="2026-12-15 20:00",
                           closes="2026-12-16 20:00")
    reply = await rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "black-moor", opens="2026-12-14 20:00",
                                   closes="2026-12-15 19:00")
    assert "round 1" in reply.lines[0] and "round 1 is now round 2" in reply.lines[-1]
    await rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "black-moor", opens="2026-12-20 20:00",
                           closes="2026-12-21 20:00")
    assert await numbered(service) == [(1, "2026-12-14", "scheduled"), (2, "2026-12-15", "scheduled"),
                                       (3, "2026-12-20", "scheduled")]
    reply = await rounds.round_cancel(LEAGUE_CHANNEL, ORGANISER, 2, "snow")
    assert "round 3 is now round 2" in "\n".join(reply.lines)
    assert await numbered(service) == [(1, "2026-12-14", "scheduled"), (2, "2026-12-20", "scheduled"),
                                       (3, "2026-12-15", "cancelled")]


async def test_an_overlapping_round_is_added_with_a_warning(service, cup):
    await cup.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="2026-12-14 20:00",
                               closes="2026-12-21 20:00")
    reply = await cup.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "black-moor", opens="2026-12-16 20:00",
                                       closes="2026-12-17 20:00")
    assert any("overlaps round(s) 1" in line for line in reply.lines)


@pytest.mark.parametrize("opens, closes, match", [
    ("2027-03-28 02:30", "2027-03-29 20:00", "2027-03-28 02:30 does not exist in Europe/Paris.*2027-03-28 03:30"),
    ("+3d", "+1d", "counts from now, not from the opening"),
])
async def test_a_time_the_league_cannot_mean_is_refused_saying_why(service, cup, opens, closes, match):
    await refused(service.store, lambda: cup.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "black-moor", opens=opens,
                                                              closes=closes), match)


async def test_a_round_moved_takes_its_jobs_and_number_along_and_pings_the_drivers(service, cup, clock, deadlines,
                                                                                   posts):
    await cup.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="2026-12-01 20:00",
                               closes="2026-12-02 20:00")
    await cup.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "black-moor", opens="2026-12-08 20:00",
                               closes="2026-12-09 20:00")
    reply = await cup.rounds.round_move(LEAGUE_CHANNEL, ORGANISER, 1, "venue busy", opens="2026-12-10 20:00",
                                        closes="2026-12-11 20:00")
    assert "venue busy" in reply.lines[0] and "round 2 is now round 1" in reply.lines[-1]
    assert await numbered(service) == [(1, "2026-12-08", "scheduled"), (2, "2026-12-10", "scheduled")]
    await deliver(service, posts)
    (moved,) = [p for p in posts.by_channel[LEAGUE_CHANNEL.channel_id] if "moved by" in p[0][0]]
    assert sorted(moved[1]) == [ALICE.user_id, BOB.user_id]
    jobs = await service.store.db.fetch_all("SELECT kind, due_at FROM jobs WHERE ref LIKE 'round:1:%' "
                                            "AND done_at IS NULL ORDER BY due_at")
    assert [(k, d[:16]) for k, d in jobs] == [("league.open", "2026-12-10T19:00"),
                                              ("league.remind", "2026-12-11T18:00"),  # 24 h before: not open yet
                                              ("league.close", "2026-12-11T19:00")]
    rnd = (await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1)))[1]
    await until(clock, deadlines, service, posts, from_text(rnd.opens_at) + timedelta(minutes=1))
    assert (await numbered(service))[1][2] == "open"


@pytest.mark.parametrize("who, number, options, match", [
    (ALICE, 1, {"closes": "+3d"}, "Only the organisers"),
    (ORGANISER, 1, {}, "Give the new `opens`"),
    (ORGANISER, 1, {"opens": "+1d"}, "only its close can move"),
    (ORGANISER, 1, {"closes": "2026-11-22 10:00"}, "must close after it opens"),
    (ORGANISER, 2, {"closes": "+3d"}, "no round 2"),
    (ORGANISER, 1, {"closes": "+2d"}, "already has those times"),
])
async def test_bad_moves_are_refused_and_change_nothing(service, cup, who, number, options, match):
    await cup.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="now", closes="+2d")
    await until_open(service)
    await refused(service.store, lambda: cup.rounds.round_move(LEAGUE_CHANNEL, who, number, "why", **options), match)


async def until_open(service):
    from bot.services.play.deadlines import DeadlineService
    await DeadlineService(service.work, clock=service.championships.clock).run_due()


async def test_a_closed_round_cannot_move(service, cup, clock, deadlines, posts):
    await cup.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="now", closes="+2d")
    await until(clock, deadlines, service, posts, clock.now + timedelta(days=3))
    await refused(service.store, lambda: cup.rounds.round_move(LEAGUE_CHANNEL, ORGANISER, 1, "late", closes="+3d"),
                  "only a scheduled or open round can be moved")


async def test_a_leaver_and_a_removed_driver_keep_their_results(service, cup, clock, deadlines, posts):
    await cup.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="now", closes="+2d")
    for driver in (ALICE, BOB):
        await drive(service, driver, await start_run(service, driver))
    await until(clock, deadlines, service, posts, clock.now + timedelta(days=3))
    before = await service.store.db.read(lambda tx: results_of_league_tx(tx, 1))
    await cup.leagues.leave(LEAGUE_CHANNEL, ALICE)
    await refused(service.store, lambda: cup.leagues.leave(LEAGUE_CHANNEL, ALICE), "Alice is not a member")
    await refused(service.store, lambda: cup.leagues.kick(LEAGUE_CHANNEL, ALICE, BOB.user_id, "Bob", "spite"),
                  "Only the organisers")
    reply = await cup.leagues.kick(LEAGUE_CHANNEL, ORGANISER, BOB.user_id, "Bob", "abuse")
    assert "removed from Sunday Cup by <@1004>: abuse" in reply.lines[0]
    assert await service.store.db.read(lambda tx: results_of_league_tx(tx, 1)) == before
    assert await service.store.db.fetch_all("SELECT * FROM league_members") == []
    standings = await cup.standings(LEAGUE_CHANNEL, ORGANISER)
    assert standings.outbox
    actions = [tuple(r) for r in await service.store.db.fetch_all(
        "SELECT action, actor_id, target_id, reason FROM league_log WHERE action IN ('leave', 'kick') ORDER BY id")]
    assert actions == [("leave", ALICE.user_id, ALICE.user_id, ""), ("kick", ORGANISER.user_id, BOB.user_id, "abuse")]
