"""Organiser rights and hostile input: every refusal is specific and changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.engine.core.errors import RallyError
from bot.services import Actor, Place
from bot.store.clock import from_text
from bot.store.leagues import rounds_of_league_tx
from tests.league.league_helpers import ALICE, BOB, LEAGUE_CHANNEL, ORGANISER, drive, start_run

TABLES = ("leagues", "league_members", "rounds", "runs", "round_results", "league_log", "jobs", "outbox",
          "rallies", "actions", "round_cards")
STEWARDS = 1_180_000_000_000_000_777  # a role's id (a Discord snowflake)


async def everything(store) -> dict:
    out = {}
    for table in TABLES:
        rows = await store.db.fetch_all(f"SELECT * FROM {table}")
        out[table] = [tuple(r) for r in rows]
    return out


@pytest.fixture
async def champs(service):
    champs = service.championships
    leagues = champs.leagues
    await leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "Europe/Paris")
    await leagues.join(LEAGUE_CHANNEL, ALICE)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="now", closes="+2d")
    return champs


async def refused(store, call, match: str) -> None:
    before = await everything(store)
    with pytest.raises(RallyError, match=match):
        await call()
    assert await everything(store) == before


async def test_a_non_organiser_cannot_add_rounds_penalties_disqualifications_or_cancel(service, store, champs):
    rules = "Only the organisers of Sunday Cup"
    await refused(store, lambda: champs.rounds.round_add(LEAGUE_CHANNEL, ALICE, "pinewood-sprint", opens="now",
                                                         closes="+1d"), rules)
    stewarding = champs.stewarding
    await refused(store, lambda: stewarding.penalty(LEAGUE_CHANNEL, ALICE, BOB.user_id, "Bob", 30, "spite"), rules)
    await refused(store, lambda: stewarding.disqualify(LEAGUE_CHANNEL, ALICE, BOB.user_id, "Bob", 1, "spite"), rules)
    await refused(store, lambda: champs.rounds.round_cancel(LEAGUE_CHANNEL, ALICE, 1, "boring"), rules)
    await refused(store, lambda: champs.leagues.create(LEAGUE_CHANNEL, ALICE, "Mine", "UTC"), "Manage Server")
    await refused(store, lambda: champs.leagues.organisers(LEAGUE_CHANNEL, ALICE, STEWARDS), "Manage Server")


async def test_the_organisers_role_makes_its_members_organisers(service, store, champs):
    await champs.leagues.organisers(LEAGUE_CHANNEL, ORGANISER, STEWARDS)
    steward = Actor(2001, "Steward", roles=(STEWARDS,))
    await champs.rounds.round_add(LEAGUE_CHANNEL, steward, "black-moor", opens="+1d", closes="+3d")
    rounds = await store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    assert [r.specials for r in rounds] == [["pinewood-sprint"], ["black-moor"]]
    log = await store.db.fetch_all("SELECT actor_id, action FROM league_log ORDER BY id")
    assert (2001, "round_add") in [tuple(r) for r in log]  # who did it is logged


@pytest.mark.parametrize(("options", "match"), [
    ({"stage": "../../etc/passwd", "opens": "now", "closes": "+1d"}, "stage"),
    ({"stage": "pinewood-sprint", "opens": "tomorrow", "closes": "+1d"}, "is not a time"),
    ({"stage": "pinewood-sprint", "opens": "2026-02-30 10:00", "closes": "+1d"}, "is not a time"),
    ({"stage": "pinewood-sprint", "opens": "+2d", "closes": "+1d"}, "close after it opens"),
    ({"stage": "pinewood-sprint", "opens": "+1d", "closes": "+90d"}, "at most 60 days"),
    ({"stage": "pinewood-sprint", "opens": "now", "closes": "+999d"}, "is not a time|400 days"),
    ({"stage": "pinewood-sprint", "day": "someday", "hour": "20"}, "day of the week"),
    ({"stage": "pinewood-sprint", "day": "mon", "hour": "25"}, "whole hour"),
    ({"stage": "pinewood-sprint", "day": "mon", "hour": "20", "rounds": "1e309"}, "rounds"),
    ({"stage": "pinewood-sprint", "day": "mon", "hour": "20", "rounds": 27}, "rounds"),
    ({"stage": "pinewood-sprint", "day": "mon", "hour": "20", "opens": "now"}, "either"),
    ({"stage": "pinewood-sprint"}, "either"),
    ({"stage": "pinewood-sprint", "opens": "now", "closes": "+1d", "league": "Nope"}, "no league named"),
])
async def test_hostile_round_options_are_refused_by_name_and_change_nothing(service, store, champs, options, match):
    await refused(store, lambda: champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, **options), match)


@pytest.mark.parametrize(("options", "match"), [
    ({"name": "", "timezone": "UTC"}, "empty"),
    ({"name": "x" * 41, "timezone": "UTC"}, "too long"),
    ({"name": "Sunday Cup", "timezone": "UTC"}, "already has a league named"),
    ({"name": "B", "timezone": "Mars/Olympus"}, "not a time zone"),
    ({"name": "B", "timezone": "../../etc/localtime"}, "not a time zone"),
    ({"name": "B", "timezone": "UTC", "points": "25-x-3"}, "whole numbers"),
    ({"name": "B", "timezone": "UTC", "points": "3-25"}, "go down"),
    ({"name": "B", "timezone": "UTC", "drop": "0"}, "drop"),
    ({"name": "B", "timezone": "UTC", "drop": "nan"}, "drop"),
    ({"name": "B", "timezone": "UTC", "dice": "loaded"}, "personal"),
    ({"name": "B", "timezone": "UTC", "ruleset": "/etc/passwd"}, "ruleset"),
])
async def test_hostile_league_options_are_refused_and_change_nothing(service, store, champs, options, match):
    await refused(store, lambda: champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, **options), match)


@pytest.mark.parametrize(("seconds", "reason", "match"), [
    (0, "late", "seconds"), (-30, "late", "seconds"), ("1e9", "late", "seconds"), (30, "", "empty"),
    (30, "r" * 201, "too long"),
])
async def test_hostile_penalties_are_refused_and_change_nothing(service, store, champs, seconds, reason, match):
    await refused(store, lambda: champs.stewarding.penalty(LEAGUE_CHANNEL, ORGANISER, ALICE.user_id, "Alice", seconds,
                                                           reason), match)


async def test_a_penalty_for_a_driver_without_a_run_is_refused(service, store, champs, deadlines):
    await deadlines.run_due()
    await refused(store, lambda: champs.stewarding.penalty(LEAGUE_CHANNEL, ORGANISER, BOB.user_id, "Bob", 10, "late"),
                  "no run in round 1")


async def test_runs_are_refused_to_non_members_and_outside_the_round_and_change_nothing(service, store, champs,
                                                                                       deadlines, clock):
    await deadlines.run_due()
    await refused(store, lambda: champs.check_run(LEAGUE_CHANNEL, BOB), "Join Sunday Cup first")
    await refused(store, lambda: champs.check_run(Place(0, 5), ALICE), "server")
    rnd = (await store.db.read(lambda tx: rounds_of_league_tx(tx, 1)))[0]
    clock.now = from_text(rnd.closes_at) + timedelta(seconds=1)  # the close job has not run yet
    await refused(store, lambda: champs.check_run(LEAGUE_CHANNEL, ALICE), "No round is open")


async def test_a_round_on_a_course_with_a_power_stage_records_the_last_special_time(service, store, deadlines, clock):
    champs = service.championships
    leagues = champs.leagues
    await leagues.create(LEAGUE_CHANNEL, ORGANISER, "Rally Cup", "UTC")
    await leagues.join(LEAGUE_CHANNEL, ALICE)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint, black-moor", opens="now", closes="+2d",
                                  power_stage=True, assistance="none")
    await deadlines.run_due()
    thread = await start_run(service, ALICE)
    await drive(service, ALICE, thread, max_actions=1500)
    run = (await store.db.fetch_all("SELECT status, score AS time_s, power_s, reason FROM runs"))[0]
    rally = await store.rallies.get(1)
    assert rally.modules["course"] == {"specials": ["pinewood-sprint", "black-moor"], "assistance": [False, False]}
    if run["status"] == "finished":
        assert 0 < run["power_s"] < run["time_s"]
    else:
        assert run["reason"] in ("knocked_out", "retired")


async def test_a_league_post_the_bot_may_not_make_waits_and_goes_when_the_permission_is_back(service, store, champs,
                                                                                             clock):
    from bot.services.delivery import Failure

    [out] = [o for o in await service.delivery.claim() if o.row.rally_id is None][:1]
    await service.delivery.failed(out, Failure.FORBIDDEN, error="403 Missing Permissions")
    assert (await store.outbox.get(out.row.id)).done_at is None  # kept, not dropped
    clock.now += timedelta(minutes=10)
    again = [o for o in await service.delivery.claim() if o.row.id == out.row.id]
    assert again, "retried once the wait is over"
    await service.delivery.sent(again[0], 123)
    assert (await store.outbox.get(out.row.id)).outcome == "sent"


async def test_a_league_of_a_game_this_bot_does_not_have_is_refused_naming_the_games(service, store, champs):
    """A stored league whose game no longer exists: its standings are refused with the
    games there are, and nothing is written (no post owed)."""
    await store.db.write(lambda tx: tx.execute("UPDATE leagues SET game = 'gone'"))
    await refused(store, lambda: champs.standings(LEAGUE_CHANNEL, ORGANISER),
                  r"There is no game called `gone`\. Games: rallyman, dirt, roadrally\.")
