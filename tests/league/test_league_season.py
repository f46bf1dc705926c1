"""A season driven by a fake clock: open → reminders → runs → close → standings, four weekly rounds
plus downtime, daylight saving and the one-attempt rule."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from bot.services.errors import ServiceError
from bot.store.clock import from_text
from bot.store.leagues import results_of_league_tx, rounds_of_league_tx, runs_of_round_tx
from tests.league.conftest import deliver
from tests.league.league_helpers import ALICE, BOB, CAROL, LEAGUE_CHANNEL, ORGANISER, drive, start_run, until

CHANNEL = LEAGUE_CHANNEL.channel_id


async def league_with_rounds(service, rounds=4, **round_options):
    champs = service.championships
    leagues = champs.leagues
    await leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "Europe/Paris", drop="3")
    for driver in (ALICE, BOB, CAROL):
        await leagues.join(LEAGUE_CHANNEL, driver)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, round_options.pop("stage", "pinewood-sprint"), day="mon",
                                  hour="20", rounds=rounds, **round_options)
    return await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))



async def test_a_season_of_four_weekly_rounds_opens_reminds_closes_and_ranks_on_schedule(service, deadlines, clock,
                                                                                          posts):
    rounds = await league_with_rounds(service, power_stage=True)
    assert [r.number for r in rounds] == [1, 2, 3, 4]
    paris = ZoneInfo("Europe/Paris")
    assert all(from_text(r.opens_at).astimezone(paris).hour == 20 for r in rounds)
    assert all(from_text(r.opens_at).astimezone(paris).weekday() == 0 for r in rounds)
    await deliver(service, posts)
    finishers = {1: (ALICE, BOB, CAROL), 2: (ALICE, BOB), 3: (BOB, CAROL), 4: (ALICE, BOB, CAROL)}
    for rnd in rounds:
        await until(clock, deadlines, service, posts, from_text(rnd.opens_at) + timedelta(minutes=1))
        assert posts.count(CHANNEL, f"Sunday Cup — round {rnd.number}** is open") == 1
        assert rnd.seed_hash in posts.text(CHANNEL)  # the hash is published at the opening...
        assert rnd.seed not in posts.text(CHANNEL)  # ...the seed only at the close
        for driver in finishers[rnd.number]:
            thread = await start_run(service, driver)
            await drive(service, driver, thread)
            await deliver(service, posts)
        # 24 h before the close: the one who has not driven is pinged, nobody else
        await until(clock, deadlines, service, posts, from_text(rnd.closes_at) - timedelta(hours=23))
        last = posts.by_channel[CHANNEL][-1]
        missing = [d for d in (ALICE, BOB, CAROL) if d not in finishers[rnd.number]]
        if missing:
            assert "Still to drive" in "\n".join(last[0])
            assert last[1] == [d.user_id for d in missing]
        await until(clock, deadlines, service, posts, from_text(rnd.closes_at) + timedelta(minutes=1))
        text = posts.text(CHANNEL)
        assert f"**Sunday Cup — round {rnd.number}** is closed" in text
        assert rnd.seed in text  # revealed at the close
    # each run finishing got one line in the league channel, no dice
    assert posts.count(CHANNEL, "provisionally") == sum(len(v) for v in finishers.values())
    assert "rolls" not in posts.text(CHANNEL)
    # the results posts carry their image and their cards file; the standings follow
    closes = [p for p in posts.by_channel[CHANNEL] if "is closed" in "\n".join(p[0])]
    assert len(closes) == 4 and all(p[2] == "table" and p[3]["kind"] == "cards" for p in closes)
    results = await service.store.db.read(lambda tx: results_of_league_tx(tx, 1))
    assert len(results) == 10
    # the standings of the season: best 3 of 4 rounds, points + power-stage bonus
    from bot.services.league.points import RoundScore, standings

    table = standings([RoundScore(r.round_id, r.user_id, r.display_name, r.position, r.time_s, r.points, r.bonus)
                       for r in results], 3)
    last_standings = [p for p in posts.by_channel[CHANNEL] if "Standings of" in "\n".join(p[0])][-1]
    assert last_standings[2] == "table"
    assert sum(s.counted for s in table) <= 9 and table[0].points >= table[-1].points


async def test_after_30_hours_of_downtime_each_overdue_job_runs_once_late_with_a_note(service, deadlines, clock,
                                                                                     posts):
    rounds = await league_with_rounds(service, rounds=1)
    rnd = rounds[0]
    clock.now = from_text(rnd.opens_at) + timedelta(minutes=1)
    await deadlines.run_due()
    thread = await start_run(service, ALICE)
    await drive(service, ALICE, thread)
    await deliver(service, posts)
    before = len(posts.by_channel[CHANNEL])
    clock.now = from_text(rnd.closes_at) + timedelta(hours=30)  # down through both reminders and the close
    acted = await deadlines.run_due()
    await deliver(service, posts)
    again = await deadlines.run_due()  # a second tick finds nothing left to do
    await deliver(service, posts)
    new = ["\n".join(p[0]) for p in posts.by_channel[CHANNEL][before:]]
    assert again == 0
    assert sum("is closed" in p for p in new) == 1
    assert all("while I was offline" in p for p in new if "is closed" in p)
    assert not any("Still to drive" in p for p in new)  # a reminder after its round's close says nothing
    assert acted == 1
    assert await service.store.jobs.pending() == []


async def test_a_weekly_round_keeps_its_local_hour_across_the_daylight_saving_change(service, clock):
    clock.now = datetime(2027, 3, 15, 12, 0, tzinfo=UTC)  # Paris changes to summer time on 28 March 2027
    champs = service.championships
    leagues = champs.leagues
    await leagues.create(LEAGUE_CHANNEL, ORGANISER, "Spring Cup", "Europe/Paris")
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", day="sun", hour="20", rounds=3)
    rounds = await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    paris = ZoneInfo("Europe/Paris")
    opens = [from_text(r.opens_at) for r in rounds]
    assert [o.astimezone(paris).hour for o in opens] == [20, 20, 20]
    assert [o.hour for o in opens] == [19, 18, 18]  # UTC: winter, then summer time
    assert from_text(rounds[1].opens_at) - from_text(rounds[0].opens_at) == timedelta(hours=167)


async def test_a_driver_cannot_run_a_round_twice_nor_re_roll_by_abandoning(service, deadlines, clock, posts):
    rounds = await league_with_rounds(service, rounds=1)
    clock.now = from_text(rounds[0].opens_at) + timedelta(minutes=1)
    await deadlines.run_due()
    thread = await start_run(service, ALICE)
    first = await service.store.rallies.get_active_in_channel(thread.guild_id, thread.channel_id)
    await service.abandon(thread, ALICE)  # give up, hoping for better dice
    with pytest.raises(ServiceError, match="one attempt per round"):
        await start_run(service, ALICE)
    runs = await service.store.db.read(lambda tx: runs_of_round_tx(tx, rounds[0].id))
    assert [(r.user_id, r.status) for r in runs] == [(ALICE.user_id, "dnf")]
    assert (await service.store.rallies.get(first.id)).status == "abandoned"


async def test_the_official_stage_is_the_same_for_two_bot_processes():
    import subprocess
    import sys

    code = "from bot.engine.core.official import official_stage; print(official_stage('2026-W48'))"
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
            for _ in range(2)}
    assert len(outs) == 1 and next(iter(outs)).startswith("gen-")
