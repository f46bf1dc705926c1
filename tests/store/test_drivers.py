"""Drivers: seats, capacity, lobby-only joining, leaving and kicking; refusals change nothing."""

from __future__ import annotations

import asyncio

import pytest
from store_helpers import dump, new_rally

from bot.store import AlreadyJoined, NotFound, RallyFull, WrongStatus


async def test_join_takes_the_lowest_free_seat(store):
    rally = await new_rally(store)
    ann = await store.drivers.join(rally.id, 1, "Ann")
    bob = await store.drivers.join(rally.id, 2, "Bob")
    assert (ann.seat, bob.seat) == (1, 2)
    await store.drivers.leave(rally.id, 1)
    cat = await store.drivers.join(rally.id, 3, "Cat")
    assert cat.seat == 1
    assert [(d.user_id, d.seat) for d in await store.drivers.list(rally.id)] == [(3, 1), (2, 2)]


async def test_joining_twice_is_refused(store):
    rally = await new_rally(store)
    await store.drivers.join(rally.id, 1, "Ann")
    before = await dump(store)
    with pytest.raises(AlreadyJoined, match="already in rally"):
        await store.drivers.join(rally.id, 1, "Ann again")
    assert await dump(store) == before


async def test_full_rally_is_refused(store):
    rally = await new_rally(store, max_drivers=2)
    await store.drivers.join(rally.id, 1, "Ann")
    await store.drivers.join(rally.id, 2, "Bob")
    before = await dump(store)
    with pytest.raises(RallyFull, match="2 of 2 seats"):
        await store.drivers.join(rally.id, 3, "Cat")
    assert await dump(store) == before


async def test_race_for_the_last_seat_has_one_winner(store):
    rally = await new_rally(store, max_drivers=1)
    results = await asyncio.gather(
        store.drivers.join(rally.id, 1, "Ann"), store.drivers.join(rally.id, 2, "Bob"), return_exceptions=True
    )
    assert sum(isinstance(r, RallyFull) for r in results) == 1
    assert len(await store.drivers.list(rally.id)) == 1


async def test_joining_a_started_rally_or_a_missing_one_is_refused(store):
    rally = await new_rally(store)
    await store.rallies.set_status(rally.id, 0, "running")
    before = await dump(store)
    with pytest.raises(WrongStatus, match="only join a rally in its lobby"):
        await store.drivers.join(rally.id, 1, "Ann")
    with pytest.raises(NotFound):
        await store.drivers.join(999, 1, "Ann")
    assert await dump(store) == before


async def test_leaving_a_running_rally_keeps_the_row_marked_left(store):
    rally = await new_rally(store)
    await store.drivers.join(rally.id, 1, "Ann")
    await store.drivers.join(rally.id, 2, "Bob")
    await store.rallies.set_status(rally.id, 0, "running")
    await store.drivers.leave(rally.id, 1)
    await store.drivers.kick(rally.id, 2)
    assert [(d.user_id, d.status) for d in await store.drivers.list(rally.id)] == [(1, "left"), (2, "kicked")]
    assert await store.drivers.list(rally.id, active_only=True) == []


async def test_leaving_when_not_in_is_refused(store):
    rally = await new_rally(store)
    before = await dump(store)
    with pytest.raises(NotFound, match="You are not in rally"):
        await store.drivers.leave(rally.id, 1)
    with pytest.raises(NotFound, match="That driver is not in rally"):
        await store.drivers.kick(rally.id, 1)
    assert await dump(store) == before


async def test_roster_of_a_finished_rally_is_frozen(store):
    rally = await new_rally(store)
    await store.drivers.join(rally.id, 1, "Ann")
    await store.rallies.set_status(rally.id, 0, "finished")
    before = await dump(store)
    with pytest.raises(WrongStatus, match="can no longer change"):
        await store.drivers.leave(rally.id, 1)
    assert await dump(store) == before


async def test_set_seats_renumbers_in_the_given_order(store):
    rally = await new_rally(store)
    for user in (1, 2, 3):
        await store.drivers.join(rally.id, user, f"D{user}")
    seated = await store.drivers.set_seats(rally.id, [3, 1, 2])
    assert [(d.user_id, d.seat) for d in seated] == [(3, 1), (1, 2), (2, 3)]


@pytest.mark.parametrize("order", [[1, 2], [1, 2, 2], [1, 2, 4]])
async def test_set_seats_with_a_wrong_list_is_refused_and_changes_nothing(store, order):
    rally = await new_rally(store)
    for user in (1, 2, 3):
        await store.drivers.join(rally.id, user, f"D{user}")
    before = await dump(store)
    with pytest.raises(ValueError, match="exactly once"):
        await store.drivers.set_seats(rally.id, order)
    assert await dump(store) == before


async def test_missed_turns_count_and_reset(store):
    rally = await new_rally(store)
    await store.drivers.join(rally.id, 1, "Ann")
    assert await store.drivers.add_missed_turn(rally.id, 1) == 1
    assert await store.drivers.add_missed_turn(rally.id, 1) == 2
    await store.drivers.reset_missed_turns(rally.id, 1)
    assert (await store.drivers.get(rally.id, 1)).missed_turns == 0
    before = await dump(store)
    with pytest.raises(NotFound):
        await store.drivers.add_missed_turn(rally.id, 2)
    with pytest.raises(NotFound):
        await store.drivers.reset_missed_turns(rally.id, 2)
    assert await dump(store) == before
