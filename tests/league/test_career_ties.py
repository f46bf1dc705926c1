"""A tie for a place is a podium only ahead of someone: careers keep how many cars each result was
ahead of (`behind`), so two drivers tied first of two (ahead of nobody) have no podium, two tied
second behind a winner neither, and two tied first ahead of a car that did not finish both have
one. The round's close counts it, the "On the podium" achievement follows it, and `db careers
--rebuild` gives the very same rows. On both backends (the `store` fixture)."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from bot.services.career.careers import behind_of, podium, stats_of, won
from bot.store.careers import CareerResult, earned_tx, results_tx
from bot.store.clock import from_text
from bot.store.leagues import rounds_of_league_tx
from tests.league.league_helpers import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    LEAGUE_CHANNEL,
    ORGANISER,
    drive,
    start_run,
    until,
)

PODIUM = "first_podium"
FIRST_WIN = "first_win"


async def tied_round(service, clock, deadlines, posts, times, stopped=()):
    """A league round where each driver of `times` finishes with that time (equal times: a tie, as
    two drivers posting the same time give) and each of `stopped` starts a run and never ends it
    (a DNF at the close); then closed. Each driver's career row after the close."""
    champs = service.championships
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Tie Cup", "UTC")
    for driver in [*times, *stopped]:
        await champs.leagues.join(LEAGUE_CHANNEL, driver)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="now", closes="+2d")
    await deadlines.run_due()
    (rnd,) = await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    for driver, time in times.items():
        await drive(service, driver, await start_run(service, driver))
        await service.store.db.write(lambda tx, t=time, d=driver: tx.execute(
            "UPDATE runs SET score = ? WHERE round_id = ? AND user_id = ?", (t, rnd.id, d.user_id)))
    for driver in stopped:
        await start_run(service, driver)
    await until(clock, deadlines, service, posts, from_text(rnd.closes_at) + timedelta(minutes=1))
    return {d.user_id: await only_row(service.store, d.user_id) for d in [*times, *stopped]}


async def only_row(store, user_id) -> CareerResult:
    (row,) = await store.db.read(lambda tx: results_tx(tx, user_id))
    return row


async def earned(store, user_id) -> set[str]:
    return {e.achievement for e in await store.db.read(lambda tx: earned_tx(tx, user_id))}


async def has_podium_achievement(store, user_id) -> bool:
    return PODIUM in await earned(store, user_id)


async def rows_of(store):
    return [tuple(r) for r in await store.db.fetch_all("SELECT * FROM career_results ORDER BY rally_id, user_id")]


async def same_after_rebuild(service):
    before = await rows_of(service.store)
    await service.careers.rebuild()
    assert await rows_of(service.store) == before


async def test_two_drivers_tied_first_of_two_are_ahead_of_nobody(service, store, clock, deadlines, posts):
    rows = await tied_round(service, clock, deadlines, posts, {ALICE: 1000, BOB: 1000})
    for uid in (ALICE.user_id, BOB.user_id):
        row = rows[uid]
        assert (row.status, row.place, row.seats, row.behind, row.gap) == ("finished", 1, 2, 0, 0)
        assert not podium(row) and stats_of([row])["podiums"] == 0
        assert not await has_podium_achievement(store, uid)
        # a dead heat for first is still a win for both (A17: tied totals share the place), and
        # its achievement is announced at the close like any other win
        assert won(row) and FIRST_WIN in await earned(store, uid)
    told = [line for rows in posts.by_channel.values() for lines, _, _, _ in rows for line in lines]
    assert sum("First win" in line for line in told) == 2, "both tied winners' win announced at the close"
    await same_after_rebuild(service)


async def test_two_drivers_tied_second_behind_a_winner_have_no_podium(service, store, clock, deadlines, posts):
    rows = await tied_round(service, clock, deadlines, posts, {ALICE: 900, BOB: 1000, CAROL: 1000})
    winner = rows[ALICE.user_id]
    assert (winner.place, winner.behind) == (1, 2) and podium(winner) and won(winner)
    assert await has_podium_achievement(store, ALICE.user_id)
    for uid in (BOB.user_id, CAROL.user_id):
        assert (rows[uid].place, rows[uid].behind, rows[uid].gap) == (2, 0, 100)
        assert not podium(rows[uid]) and not await has_podium_achievement(store, uid)
    await same_after_rebuild(service)


async def test_two_drivers_tied_first_ahead_of_a_dnf_both_have_a_podium(service, store, clock, deadlines, posts):
    rows = await tied_round(service, clock, deadlines, posts, {ALICE: 1000, BOB: 1000}, stopped=(DAVE,))
    out = rows[DAVE.user_id]
    assert (out.status, out.place, out.behind) == ("dnf", None, None) and not podium(out)
    for uid in (ALICE.user_id, BOB.user_id):
        assert (rows[uid].place, rows[uid].seats, rows[uid].behind) == (1, 3, 1)
        assert podium(rows[uid]) and await has_podium_achievement(store, uid)
    await same_after_rebuild(service)


def test_behind_counts_worse_places_and_the_unplaced_never_the_tied():
    assert behind_of(1, [1, 1]) == 0
    assert behind_of(2, [1, 2, 2]) == 0
    assert behind_of(1, [1, 1, None]) == 1  # a DNF (or DSQ) is behind every placed car
    assert behind_of(1, [1, 3, 3, None]) == 3
    assert behind_of(None, [1, None]) is None


def test_a_row_written_before_careers_kept_behind_is_read_by_its_place():
    row = CareerResult(1, ALICE.user_id, "rallyman", 10, "pinewood-sprint", 2, "finished", 2, 310, "s", 15, False,
                       {}, "2026-11-01T00:00:00.000Z")
    assert row.behind is None and not podium(row)  # second of two: last
    assert podium(replace(row, place=1)) and not podium(replace(row, place=1, behind=0))
    assert podium(replace(row, seats=3)) and not podium(replace(row, place=4, seats=6, behind=2))
