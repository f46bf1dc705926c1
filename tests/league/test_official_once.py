"""The week's official stage is one attempt per driver wherever it counts: the
one run, started by `/scratch run` or by `/run start` in a league round on the official stage, is
the driver's world scratch entry and their result in every league round on that stage of a league
they are in (see `bot/services/league/official_runs.py` for each order of events, (a) to (e))."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.engine.core.errors import RallyError
from bot.engine.core.official import week_bounds, week_of
from bot.engine.core.scores import format_time
from bot.services import Actor, Place
from bot.services.world.card_check import verify_text
from bot.store.clock import from_text
from bot.store.leagues import cards_tx, official_run_tx, results_of_league_tx, results_of_round_tx, rounds_of_league_tx
from tests.league.conftest import deliver
from tests.league.league_helpers import ALICE, BOB, LEAGUE_CHANNEL, ORGANISER, drive, new_thread, start_run

OTHER_CHANNEL = Place(guild_id=77, channel_id=88)  # another server, another league
OTHER_ORGANISER = Actor(2004, "Boss", can_manage=True)


async def scratch_run(service, actor, place=LEAGUE_CHANNEL) -> Place:
    """What the cog does for `/scratch run`: check, make a thread, start the run in it."""
    scratch = service.championships.scratch
    await scratch.check_run(place, actor)
    thread = Place(place.guild_id, new_thread())
    await scratch.start_run(place, actor, thread.channel_id, "Test server")
    return thread


def to_next_week(clock) -> str:
    """Move the clock to the next ISO week's Monday 01:00 UTC: a whole week of official rounds."""
    start, _ = week_bounds(week_of(clock() + timedelta(days=7)))
    clock.now = start + timedelta(hours=1)
    return week_of(clock())


async def league(service, place=LEAGUE_CHANNEL, organiser=ORGANISER, name="Sunday Cup", drivers=(ALICE, BOB)):
    await service.championships.leagues.create(place, organiser, name, "UTC")
    for driver in drivers:
        await service.championships.leagues.join(place, driver)


async def official_round(service, deadlines, place=LEAGUE_CHANNEL, organiser=ORGANISER, opens="now", closes="+2d"):
    await service.championships.rounds.round_add(place, organiser, "official", opens=opens, closes=closes)
    await deadlines.run_due()


async def the_round(store, league_id=1, number=1):
    rounds = await store.db.read(lambda tx: rounds_of_league_tx(tx, league_id))
    return next(r for r in rounds if r.number == number)


async def snapshot(store) -> dict:
    """What a refused run start must leave as it was."""
    out = {}
    for table in ("runs", "run_answers", "rallies", "outbox", "league_members"):
        out[table] = [tuple(r) for r in await store.db.fetch_all(f"SELECT * FROM {table} ORDER BY 1, 2")]
    return out


async def official_of(store, week, driver=ALICE):
    return await store.db.read(lambda tx: official_run_tx(tx, week, driver.user_id))


async def close(clock, deadlines, rnd) -> None:
    clock.now = from_text(rnd.closes_at) + timedelta(minutes=1)
    await deadlines.run_due()


def reminder_pings(posts: list, channel: int) -> list[list[int]]:
    return [ping for lines, ping, _, _ in posts.by_channel.get(channel, []) if "Still to drive" in "\n".join(lines)]


async def test_a_scratch_run_first_answers_the_open_official_round_of_the_league(service, store, clock, deadlines,
                                                                                   posts):
    """(a) `/scratch run` first, the league's official round open: `/run start` says which result
    stands and changes nothing; the reminders do not ping him; the close lists his time with
    points, the standings count them, a penalty and a replay find his run, his card verifies."""
    week = to_next_week(clock)
    await league(service)
    await official_round(service, deadlines)
    rnd = await the_round(store)
    await drive(service, ALICE, await scratch_run(service, ALICE))
    alice = await official_of(store, week)
    assert alice.status == "finished" and alice.round_id != rnd.id  # driven in the world round
    await deliver(service, posts)
    assert f"Alice finished Sunday Cup — round 1 in {format_time(alice.time_s)}: provisionally 1 of 1." in \
        posts.text(LEAGUE_CHANNEL.channel_id)

    before = await snapshot(store)
    with pytest.raises(RallyError) as refused:
        await start_run(service, ALICE)
    assert str(refused.value) == (f"Your run of **World scratch {week}** ({format_time(alice.time_s)}) is your one "
                                  f"attempt at the official stage of {week}: it counts for this round too, so there "
                                  "is no second run.")
    assert await snapshot(store) == before

    replay = await service.championships.replay(LEAGUE_CHANNEL, ALICE, ALICE.user_id)
    assert replay.lines[0].startswith("Alice in Sunday Cup — round 1: the board after turn")

    clock.now = from_text(rnd.closes_at) - timedelta(hours=24) + timedelta(minutes=1)
    await deadlines.run_due()
    await deliver(service, posts)
    assert reminder_pings(posts, LEAGUE_CHANNEL.channel_id) == [[BOB.user_id]]  # Alice's run answers the round

    await service.championships.stewarding.penalty(LEAGUE_CHANNEL, ORGANISER, ALICE.user_id, "Alice", 5, "cut")
    await close(clock, deadlines, rnd)
    (result,) = await store.db.read(lambda tx: results_of_round_tx(tx, rnd.id))
    assert (result.user_id, result.status, result.position, result.time_s, result.points) == (
        ALICE.user_id, "classified", 1, alice.time_s + 5, 25)
    assert [r.points for r in await store.db.read(lambda tx: results_of_league_tx(tx, 1))] == [25]
    await deliver(service, posts)
    assert f"1. Alice — {format_time(alice.time_s + 5)}" in posts.text(LEAGUE_CHANNEL.channel_id)

    cards = await store.db.read(lambda tx: cards_tx(tx, rnd.id))
    report = verify_text(cards, rnd.seed_hash)
    assert report.ok, report.lines
    assert report.lines[0] == (f"✅ Alice — {format_time(alice.time_s)} (round 1 of Sunday Cup; driven in: official "
                               f"stage of week {week}): genuine")


async def test_a_league_run_first_is_the_drivers_world_scratch_entry(service, store, clock, deadlines):
    """(b) `/run start` in the league's official round first, then `/scratch run`: refused,
    saying the league run stands; that run ranks in the world."""
    week = to_next_week(clock)
    await league(service)
    await official_round(service, deadlines)
    await drive(service, ALICE, await start_run(service, ALICE))
    alice = await official_of(store, week)
    before = await snapshot(store)
    with pytest.raises(RallyError) as refused:
        await scratch_run(service, ALICE)
    assert str(refused.value) == (f"Your run of **Sunday Cup — round 1** ({format_time(alice.time_s)}) is your one "
                                  f"attempt at the official stage of {week}: it is already your world scratch entry, "
                                  "so there is no second run.")
    assert await snapshot(store) == before
    ranking = await service.championships.scratch.ranking(LEAGUE_CHANNEL, ALICE)
    assert "Alice is ranked 1 of 1." in ranking.lines


async def test_an_official_round_added_after_the_scratch_run_counts_it(service, store, clock, deadlines, posts):
    """(c) the league adds a round on the official stage after his scratch run, the same week,
    opening later: the run answers it; he is not pinged; the results include him."""
    to_next_week(clock)
    await league(service)
    await drive(service, ALICE, await scratch_run(service, ALICE))
    await official_round(service, deadlines, opens="+1h", closes="+3d")
    rnd = await the_round(store)
    assert rnd.status == "scheduled"
    clock.advance(hours=2)
    await deadlines.run_due()  # opens
    with pytest.raises(RallyError, match="it counts for this round too"):
        await start_run(service, ALICE)
    clock.now = from_text(rnd.closes_at) - timedelta(hours=24) + timedelta(minutes=1)
    await deadlines.run_due()
    await close(clock, deadlines, rnd)
    await deliver(service, posts)
    assert reminder_pings(posts, LEAGUE_CHANNEL.channel_id) == [[BOB.user_id]]  # 24 h before the close
    results = await store.db.read(lambda tx: results_of_round_tx(tx, rnd.id))
    assert [(r.user_id, r.status, r.points) for r in results] == [(ALICE.user_id, "classified", 25)]


async def test_a_scratch_run_answers_the_scheduled_official_rounds_of_every_league_of_the_driver(
        service, store, clock, deadlines, posts):
    """(c) with the round added first, opening after the run; and two leagues on two servers with
    the week's official round: the one run answers both, each channel hears of it, each counts it."""
    to_next_week(clock)
    await league(service)
    await league(service, OTHER_CHANNEL, OTHER_ORGANISER, "Other Cup", drivers=(ALICE,))
    await official_round(service, deadlines, opens="+3h", closes="+2d")
    await official_round(service, deadlines, OTHER_CHANNEL, OTHER_ORGANISER)
    first, other = await the_round(store, 1), await the_round(store, 2)
    assert (first.status, other.status) == ("scheduled", "open")
    await drive(service, ALICE, await scratch_run(service, ALICE))
    await deliver(service, posts)
    for channel, title in ((LEAGUE_CHANNEL, "Sunday Cup — round 1"), (OTHER_CHANNEL, "Other Cup — round 1")):
        assert f"Alice finished {title} in" in posts.text(channel.channel_id)
    for rnd in (first, other):
        await close(clock, deadlines, rnd)
    for rnd in (first, other):
        results = await store.db.read(lambda tx, rnd=rnd: results_of_round_tx(tx, rnd.id))
        assert [(r.user_id, r.points) for r in results] == [(ALICE.user_id, 25)]
    assert len(await store.db.fetch_all("SELECT id FROM runs WHERE user_id = ?", (ALICE.user_id,))) == 1


async def test_a_league_run_answers_the_official_round_of_the_drivers_other_league(service, store, clock, deadlines):
    """Two leagues' official rounds open at once, the run started in one of them: it counts in
    the other, whose cards file carries its card (driven in the first) and verifies."""
    to_next_week(clock)
    await league(service)
    await league(service, OTHER_CHANNEL, OTHER_ORGANISER, "Other Cup", drivers=(ALICE,))
    await official_round(service, deadlines)
    await official_round(service, deadlines, OTHER_CHANNEL, OTHER_ORGANISER)
    await drive(service, ALICE, await start_run(service, ALICE))
    with pytest.raises(RallyError, match=r"Your run of \*\*Sunday Cup — round 1\*\* .* counts for this round too"):
        await start_run(service, ALICE, OTHER_CHANNEL)
    other = await the_round(store, 2)
    await close(clock, deadlines, other)
    (result,) = await store.db.read(lambda tx: results_of_round_tx(tx, other.id))
    assert (result.user_id, result.points) == (ALICE.user_id, 25)
    report = verify_text(await store.db.read(lambda tx: cards_tx(tx, other.id)), other.seed_hash)
    assert report.ok and "(round 1 of Other Cup; driven in: round 1 of Sunday Cup)" in report.lines[0]


async def test_joining_after_the_scratch_run_counts_it_in_the_open_official_round(service, store, clock, deadlines):
    """(d) he joins the league after his scratch run, the same week: as (c)."""
    to_next_week(clock)
    await league(service, drivers=(BOB,))
    await official_round(service, deadlines)
    rnd = await the_round(store)
    await drive(service, ALICE, await scratch_run(service, ALICE))
    assert await store.db.fetch_all("SELECT * FROM run_answers") == []  # not a member yet
    await service.championships.leagues.join(LEAGUE_CHANNEL, ALICE)
    with pytest.raises(RallyError, match="it counts for this round too"):
        await start_run(service, ALICE)
    await close(clock, deadlines, rnd)
    results = await store.db.read(lambda tx: results_of_round_tx(tx, rnd.id))
    assert [(r.user_id, r.status) for r in results] == [(ALICE.user_id, "classified")]


async def test_a_run_answers_no_round_of_another_week_another_stage_or_already_closed(service, store, clock,
                                                                                      deadlines):
    """(e) not linked: a league round on another week's official stage, a round not on the
    official stage, a round on the same official stage that closed before the run started. The
    driver may still drive the first two; the closed one's results stay as they were."""
    week = to_next_week(clock)
    await league(service)
    champs = service.championships
    await official_round(service, deadlines, closes="+3h")  # round 1: closes before the run
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="now", closes="+3d")  # round 2
    nxt, _ = week_bounds(week_of(clock() + timedelta(days=7)))
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "official", opens=f"{nxt:%Y-%m-%d %H:%M}",  # round 3
                                  closes=f"{nxt + timedelta(days=2):%Y-%m-%d %H:%M}")  # on next week's official stage
    await deadlines.run_due()
    first = await the_round(store, number=1)
    await close(clock, deadlines, first)
    await drive(service, ALICE, await scratch_run(service, ALICE))
    assert await store.db.fetch_all("SELECT * FROM run_answers") == []
    assert await store.db.read(lambda tx: results_of_round_tx(tx, first.id)) == []
    await drive(service, ALICE, await start_run(service, ALICE, round_number=2))  # a stage of its own
    clock.now = nxt + timedelta(hours=1)
    await deadlines.run_due()
    await start_run(service, ALICE, round_number=3)  # another week: another official run
    assert [r[0] for r in await store.db.fetch_all("SELECT week FROM runs WHERE user_id = ? ORDER BY id",
                                                     (ALICE.user_id,))] == [week, None, week_of(clock())]


async def test_a_run_still_driven_when_a_round_it_answers_closes_is_not_finished_there_and_goes_on(
        service, store, clock, deadlines, posts):
    """The league round closes while his world run is being driven: a DNF there (not finished),
    and the run itself goes on in its thread, to count in the world ranking."""
    week = to_next_week(clock)
    await league(service)
    await official_round(service, deadlines, closes="+2h")
    rnd = await the_round(store)
    thread = await scratch_run(service, ALICE)
    await close(clock, deadlines, rnd)
    (result,) = await store.db.read(lambda tx: results_of_round_tx(tx, rnd.id))
    assert (result.user_id, result.status, result.reason, result.points) == (ALICE.user_id, "dnf", "not_finished", 0)
    assert (await official_of(store, week)).status == "running"
    await drive(service, ALICE, thread)
    assert (await official_of(store, week)).status == "finished"
    assert [r.status for r in await store.db.read(lambda tx: results_of_round_tx(tx, rnd.id))] == ["dnf"]


async def test_a_bad_counts_for_on_a_card_is_refused_by_name(service, store, clock, deadlines):
    """The family of altered `counts_for` values: each card is refused saying what is wrong (no
    control character echoed); a card moved to another round by its `counts_for` is an odd card."""
    import json

    to_next_week(clock)
    await league(service)
    await official_round(service, deadlines)
    rnd = await the_round(store)
    await drive(service, ALICE, await scratch_run(service, ALICE))
    await drive(service, BOB, await start_run(service, BOB))
    await close(clock, deadlines, rnd)
    document = json.loads(await store.db.read(lambda tx: cards_tx(tx, rnd.id)))
    alice = next(c for c in document["cards"] if c["name"] == "Alice")
    assert alice["counts_for"] == {"league": "Sunday Cup", "round": 1} and alice["league"] is None
    assert "counts_for" not in next(c for c in document["cards"] if c["name"] == "Bob")
    assert verify_text(json.dumps(document), rnd.seed_hash).ok
    for bad, reason in (("x\u0007", "counts_for: expected an object, got a text"),
                        ({"league": "Sunday Cup"}, "counts_for.round: missing"),
                        ({"round": 1}, "counts_for.league: missing"),
                        ({"league": "Sunday Cup", "round": -1}, "counts_for.round: expected a whole number from 0"),
                        ({"league": "Sunday Cup", "round": 1, "bonus\u0000": 1}, "counts_for.bonus?: not a field"),
                        ({"league": 7, "round": 1}, "counts_for.league: expected a text, got a number"),
                        ({"league": " ", "round": 1}, "counts_for.league")):
        report = verify_text(json.dumps({**alice, "counts_for": bad}))
        assert not report.ok and reason in report.lines[0], (bad, report.lines)
        assert all(ch.isprintable() for line in report.lines for ch in line)
    moved = {**document, "cards": [{**c, "counts_for": {"league": "Sunday Cup", "round": 2}} if c["name"] == "Alice"
                                   else c for c in document["cards"]]}
    report = verify_text(json.dumps(moved), rnd.seed_hash)
    assert not report.ok and "Alice" in report.lines[0] and "genuine" not in report.lines[0]
