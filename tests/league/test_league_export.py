"""What league tools give organisers: `/league export` (the standings and every
round's results as CSV), `/league calendar` (the rounds as .ics, stable across exports), and the
round-closing reminder by DM for drivers who asked for DMs (`/notify dm on`)."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from icalendar import Calendar

from bot.engine.core.errors import RallyError
from bot.services.league.export import results_csv, round_uid, safe_cell, seconds_text, standings_csv
from bot.services.league.points import standings
from bot.services.league.round_close import scores_of
from bot.store.clock import from_text
from bot.store.leagues import League, Result, Round, results_of_league_tx, rounds_of_league_tx
from tests.league.league_helpers import ALICE, BOB, CAROL, LEAGUE_CHANNEL, ORGANISER, drive, start_run, until
from tests.league.test_league_refusals import everything


async def two_rounds(service):
    champs = service.championships
    leagues = champs.leagues
    await leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "Europe/Paris")
    for driver in (ALICE, BOB, CAROL):
        await leagues.join(LEAGUE_CHANNEL, driver)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", day="mon", hour="20", rounds=2)
    return await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))



def table(data: bytes) -> list[dict[str, str]]:
    assert data.startswith(b"\xef\xbb\xbf")  # UTF-8 with a byte-order mark, as Excel reads it
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))


async def test_an_organiser_exports_a_season_as_standings_and_results_csv(service, deadlines, clock, posts):
    rounds = await two_rounds(service)
    drivers = {1: (ALICE, BOB), 2: (ALICE,)}
    for rnd in rounds:
        await until(clock, deadlines, service, posts, from_text(rnd.opens_at) + timedelta(minutes=1))
        for driver in drivers[rnd.number]:
            await drive(service, driver, await start_run(service, driver))
        if rnd.number == 1:
            await service.championships.stewarding.penalty(LEAGUE_CHANNEL, ORGANISER, BOB.user_id, "Bob", 30, "cut")
        await until(clock, deadlines, service, posts, from_text(rnd.closes_at) + timedelta(minutes=1))
    reply = await service.championships.exports.export(LEAGUE_CHANNEL, ORGANISER)
    assert reply.ephemeral and not reply.outbox  # private, nothing posted
    files = dict(reply.files)
    assert set(files) == {"sunday-cup-standings.csv", "sunday-cup-results.csv"}
    results = await service.store.db.read(lambda tx: results_of_league_tx(tx, 1))

    season = table(files["sunday-cup-standings.csv"])
    expected = standings(scores_of(results))
    assert [(r["rank"], r["driver"], r["points"], r["wins"]) for r in season] == [
        (str(s.position), s.name, str(s.points), str(s.wins)) for s in expected]
    per_round = {(res.round_id, res.display_name): str(res.points + res.bonus) for res in results}
    for row in season:
        assert row["round_1"] == per_round.get((rounds[0].id, row["driver"]), "")
        assert row["round_2"] == per_round.get((rounds[1].id, row["driver"]), "")

    lines = table(files["sunday-cup-results.csv"])
    assert len(lines) == len(results) and {r["round"] for r in lines} == {"1", "2"}
    assert {r["status"] for r in lines} <= {"finished", "dnf", "dsq"}
    for row, res in zip(lines, sorted(results, key=lambda r: (r.round_id, r.position is None, r.position or 0))):
        assert (row["driver"], row["time_s"]) == (res.display_name, str(res.time_s) if res.time_s else "")
        assert row["time"] == seconds_text(res.time_s)
    bob = next(r for r in lines if r["round"] == "1" and r["driver"] == "Bob")
    assert (bob["penalty_s"], bob["penalty_reason"]) == ("30", "cut")
    assert all(r["penalty_reason"] == "" for r in lines if r["penalty_s"] == "0")
    winners = [r for r in lines if r["position"] == "1"]
    assert all(r["gap_s"] == "0" and r["gap"] == "0:00.0" for r in winners)
    assert all(r["stage"] for r in lines)


async def test_export_by_a_non_organiser_is_refused_privately_and_changes_nothing(service, store):
    await two_rounds(service)
    before = await everything(store)
    with pytest.raises(RallyError, match="Only the organisers of Sunday Cup"):
        await service.championships.exports.export(LEAGUE_CHANNEL, ALICE)
    assert await everything(store) == before


async def test_the_calendar_marks_each_round_opening_and_close_with_a_reminder_and_keeps_its_uids(service):
    rounds = await two_rounds(service)
    first = await service.championships.exports.calendar(LEAGUE_CHANNEL, ALICE)  # any member
    (name, data), = first.files
    assert name == "sunday-cup.ics" and first.ephemeral
    cal = Calendar.from_ical(data)
    assert str(cal.get("x-wr-timezone")) == "Europe/Paris"
    events = cal.walk("VEVENT")
    moments = [m for r in rounds for m in (from_text(r.opens_at), from_text(r.closes_at))]
    assert [e.decoded("dtstart") for e in events] == moments
    assert all(e.decoded("dtend") - e.decoded("dtstart") == timedelta(minutes=15) for e in events)  # no blocked week
    assert all(str(e.get("transp")) == "TRANSPARENT" for e in events)
    assert all(e.decoded("dtstart").utcoffset() == timedelta(0) for e in events)
    assert "Europe/Paris" in str(events[0].get("description"))
    assert [str(e.get("summary")) for e in events[:2]] == ["Opening of Sunday Cup — round 1",
                                                           "Close of Sunday Cup — round 1"]
    alarms = [(i, a) for i, e in enumerate(events) for a in e.walk("VALARM")]
    assert [i for i, _ in alarms] == [1, 3]  # on each close, none on an opening
    assert all(a.decoded("trigger") == -timedelta(hours=24) for _, a in alarms)
    uids = [str(e.get("uid")) for e in events]
    assert len(set(uids)) == 4
    await service.championships.rounds.round_cancel(LEAGUE_CHANNEL, ORGANISER, 2, "rain")
    again = Calendar.from_ical(dict((await service.championships.exports.calendar(LEAGUE_CHANNEL, BOB)).files)[name])
    assert [str(e.get("uid")) for e in again.walk("VEVENT")] == uids
    assert [str(e.get("status")) for e in again.walk("VEVENT")] == ["CONFIRMED"] * 2 + ["CANCELLED"] * 2


def test_a_rounds_uids_differ_between_two_bots_leagues():
    rnd = Round(7, 1, 1, ["black-moor"], [True], False, None, "2026-12-01T19:00:00+00:00",
                "2026-12-08T19:00:00+00:00", "scheduled", "0" * 64, "1" * 64, "personal", "classic", {}, 1, "x")
    here = League(1, 10, "Cup", 20, "UTC", [25], None, "classic", {}, "personal", "en", None, 1,
                  "2026-11-22T12:00:00+00:00")
    elsewhere = League(1, 11, "Cup", 20, "UTC", [25], None, "classic", {}, "personal", "en", None, 1,
                       "2026-11-22T12:00:00+00:00")
    assert round_uid(here, rnd, "closes") != round_uid(elsewhere, rnd, "closes")
    assert round_uid(here, rnd, "closes") == round_uid(here, rnd, "closes")
    assert round_uid(here, rnd, "opens") != round_uid(here, rnd, "closes")


async def test_a_french_league_exports_semicolon_columns(service):
    champs = service.championships
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Coupe", "Europe/Paris", language="fr")
    files = dict((await champs.exports.export(LEAGUE_CHANNEL, ORGANISER)).files)
    header = files["coupe-results.csv"].decode("utf-8-sig").splitlines()[0]
    assert header.split(";")[:3] == ["manche", "speciale", "position"] and "," not in header


async def test_the_24h_reminder_also_goes_by_dm_to_drivers_who_asked_and_have_not_driven(service, deadlines, clock,
                                                                                          posts):
    rnd = (await two_rounds(service))[0]
    for driver in (ALICE, CAROL):
        await service.notify.set(LEAGUE_CHANNEL, driver, "dm", "on")
    await until(clock, deadlines, service, posts, from_text(rnd.opens_at) + timedelta(minutes=1))
    await drive(service, ALICE, await start_run(service, ALICE))
    await until(clock, deadlines, service, posts, from_text(rnd.closes_at) - timedelta(hours=23))
    dms = await service.store.db.fetch_all("SELECT user_id, body FROM outbox WHERE user_id IS NOT NULL")
    assert [r[0] for r in dms] == [CAROL.user_id]  # Alice drove; Bob has no DMs on
    assert "closes" in dms[0][1] and "Sunday Cup" in dms[0][1]
    reminder = [p for p in posts.by_channel[LEAGUE_CHANNEL.channel_id] if "Still to drive" in "\n".join(p[0])]
    assert reminder and sorted(reminder[-1][1]) == [BOB.user_id, CAROL.user_id]  # the channel ping stays


def test_a_cell_a_spreadsheet_would_run_is_written_as_text():
    assert [safe_cell(v) for v in ("=1+1", "+33", "-2", "@SUM(A1)", "\tx", "Ann", 7, None)] == [
        "'=1+1", "'+33", "'-2", "'@SUM(A1)", "'\tx", "Ann", "7", ""]
    league = League(1, 10, "Cup", 20, "UTC", [25, 18], None, "classic", {}, "personal", "en", None, 1, "t")
    rnd = Round(5, 1, 1, ["pinewood-sprint"], [True], False, None, "2026-01-01T00:00:00+00:00",
                "2026-01-02T00:00:00+00:00", "closed", "00", "00", "personal", "classic", {}, 1, "t")
    evil = Result(5, 1, 7, '=HYPERLINK("http://x","y")', 1, 65, 0, "classified", None, 25, 0)
    for data in (results_csv(league, [rnd], [evil]), standings_csv(league, [rnd], [evil])):
        rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
        assert rows[1][rows[0].index("driver")] == "'" + evil.display_name
    assert table(results_csv(league, [rnd], [evil]))[0]["time"] == "1:05.0"
