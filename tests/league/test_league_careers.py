"""Careers from every race: a league round's and a world week's runs count with their real place
among the round's (week's) field, the gap to the winner and the time after penalties; a judgement
after the close moves them; the rebuild gives the same rows; the web page tells a DSQ from a DNF.
On both backends (the `store` fixture)."""

from __future__ import annotations

from datetime import timedelta

from bot.services.career.careers import place_round_tx, podium, stats_of, won
from bot.store.careers import earned_tx, results_tx
from bot.store.clock import from_text
from bot.store.leagues import results_of_round_tx, rounds_of_league_tx
from bot.web.league_page import league_page_tx
from tests.league.conftest import deliver
from tests.league.league_helpers import (
    ALICE,
    BOB,
    CAROL,
    LEAGUE_CHANNEL,
    ORGANISER,
    drive,
    new_thread,
    start_run,
    until,
)


async def career_rows(store):
    return [tuple(r) for r in await store.db.fetch_all("SELECT * FROM career_results ORDER BY rally_id, user_id")]


async def row_of(store, user_id):
    (row,) = await store.db.read(lambda tx: results_tx(tx, user_id))
    return row


async def closed_round(service, clock, deadlines, posts, drivers=(ALICE, BOB, CAROL)):
    """A league round on pinewood-sprint driven by `drivers`, then closed: the round."""
    champs = service.championships
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "UTC")
    for driver in drivers:
        await champs.leagues.join(LEAGUE_CHANNEL, driver)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="now", closes="+2d")
    await deadlines.run_due()
    for driver in drivers:
        await drive(service, driver, await start_run(service, driver))
    (rnd,) = await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    await until(clock, deadlines, service, posts, from_text(rnd.closes_at) + timedelta(minutes=1))
    return rnd


async def test_a_league_round_counts_with_its_place_in_the_field_gap_and_time(service, store, clock, deadlines, posts):
    rnd = await closed_round(service, clock, deadlines, posts)
    results = await store.db.read(lambda tx: results_of_round_tx(tx, rnd.id))
    best = min(r.score for r in results if r.score is not None)
    for result in results:
        row = await row_of(store, result.user_id)
        assert row.seats == 3  # the round's field, not the run's rally of one car
        assert (row.status, row.place, row.score) == ("finished", result.position, result.score)
        assert row.gap == result.score - best
    (winner,) = [r for r in results if r.position == 1]
    stats = stats_of([await row_of(store, winner.user_id)])
    assert stats["wins"] == 1 and stats["podiums"] == 1 and stats["average_gap"] == 0


async def test_a_penalty_and_a_dsq_after_the_close_move_the_careers(service, store, clock, deadlines, posts):
    rnd = await closed_round(service, clock, deadlines, posts)
    before = {r.user_id: r for r in await store.db.read(lambda tx: results_of_round_tx(tx, rnd.id))}
    (first,) = [uid for uid, r in before.items() if r.position == 1]
    name = {ALICE.user_id: "Alice", BOB.user_id: "Bob", CAROL.user_id: "Carol"}[first]
    await service.championships.stewarding.penalty(LEAGUE_CHANNEL, ORGANISER, first, name, 900, "cut", 1)
    after = {r.user_id: r for r in await store.db.read(lambda tx: results_of_round_tx(tx, rnd.id))}
    row = await row_of(store, first)
    assert row.score == before[first].score + 900 and row.place == after[first].position > 1 and not won(row)
    for uid, result in after.items():  # every driver of the round moved with the judged results
        assert ((await row_of(store, uid)).place, (await row_of(store, uid)).score) == (result.position, result.score)
    now_first = next(uid for uid in before if uid != first and after[uid].position == 1)

    other = next(uid for uid in before if uid not in (first, now_first))
    other_name = {ALICE.user_id: "Alice", BOB.user_id: "Bob", CAROL.user_id: "Carol"}[other]
    await service.championships.stewarding.disqualify(LEAGUE_CHANNEL, ORGANISER, other, other_name, 1, "tow")
    dsq = await row_of(store, other)
    assert (dsq.status, dsq.place, dsq.score, dsq.gap) == ("dsq", None, None, None)
    stats = stats_of([dsq])
    assert stats["dsqs"] == 1 and stats["dnfs"] == 0 and stats["finishes"] == 0

    judged = await career_rows(store)
    assert await service.careers.rebuild() == 3  # the logs, then every closed round placed again
    assert await career_rows(store) == judged


async def test_the_web_page_counts_a_dsq_apart_from_the_dnfs(service, store, clock, deadlines, posts):
    from bot.store.web import set_league_web_tx

    await closed_round(service, clock, deadlines, posts, (ALICE, BOB))
    await service.championships.stewarding.disqualify(LEAGUE_CHANNEL, ORGANISER, BOB.user_id, "Bob", 1, "tow")
    await store.db.write(lambda tx: set_league_web_tx(tx, 1, True))
    page = await store.db.read(lambda tx: league_page_tx(tx, 1))
    assert page is not None
    bob = next(r for r in page.rows if r.standing.user_id == BOB.user_id)
    assert (bob.dnfs, bob.dsqs) == (0, 1)


async def test_a_world_week_counts_with_its_place_among_every_servers_runs(service, store, clock, deadlines, posts):
    from bot.engine.core.official import week_bounds
    from bot.services import Place

    scratch = service.championships.scratch
    rnd = await scratch.this_week()
    for actor, guild in ((ALICE, 10), (BOB, 77)):
        place = Place(guild_id=guild, channel_id=20 + guild)
        await scratch.check_run(place, actor)
        thread = Place(guild_id=guild, channel_id=new_thread())
        await scratch.start_run(place, actor, thread.channel_id, "Server")
        await drive(service, actor, thread)
    assert (await row_of(store, ALICE.user_id)).place is None  # the week is open: not placed yet
    _, end = week_bounds(rnd.week)
    clock.now = end + timedelta(minutes=1)
    await deadlines.run_due()
    await deliver(service, posts)
    runs = {int(r[0]): int(r[1]) for r in await store.db.fetch_all(
        "SELECT user_id, score FROM runs WHERE week = ? AND status = 'finished'", (rnd.week,))}
    rows = {uid: await row_of(store, uid) for uid in runs}
    ranked = sorted(runs, key=lambda uid: runs[uid])
    assert all(rows[uid].seats == 2 for uid in runs)
    assert rows[ranked[0]].place == 1 and won(rows[ranked[0]]) and rows[ranked[0]].gap == 0
    if runs[ranked[1]] > runs[ranked[0]]:
        assert rows[ranked[1]].place == 2 and rows[ranked[1]].gap == runs[ranked[1]] - runs[ranked[0]]
    assert not podium(rows[ranked[1]])  # second of two is last (a podium is ahead of a car)
    assert await store.db.write(lambda tx: place_round_tx(tx, rnd.id)) == 2  # placing again: the same rows
    assert {uid: await row_of(store, uid) for uid in runs} == rows


async def test_the_rounds_winner_earns_the_win_and_podium_achievements_at_the_close(service, store, clock, deadlines,
                                                                                     posts):
    rnd = await closed_round(service, clock, deadlines, posts)
    results = await store.db.read(lambda tx: results_of_round_tx(tx, rnd.id))
    winner = next(r for r in results if r.position == 1)
    earned = {e.achievement for e in await store.db.read(lambda tx: earned_tx(tx, winner.user_id))}
    assert {"first_win", "first_podium"} <= earned
    text = posts.text(LEAGUE_CHANNEL.channel_id)
    assert f"{winner.display_name} earns an achievement: **First win**" in text
