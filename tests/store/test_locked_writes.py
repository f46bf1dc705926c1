"""What a task holding a lock writes, on both backends: each `write` stands or falls alone, what
was written stays written when the block ends (with an error too), the lock's transaction ends
with the block; `write_one` and `read_one` (one statement, sent alone on PostgreSQL) behave as
`write` and `read`. On PostgreSQL the lock's transaction is begun, savepointed and ended by the
store itself (BEGIN and the lock in one round trip, savepoints left to the commit), so these
are the contract of that code."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Store
from bot.store.connection import POSTGRESQL
from tests.store.store_helpers import dump_every_table, new_rally


@pytest.fixture
async def pg_store(pg_url):
    """The store on PostgreSQL only: what its sessions and locks show between two processes."""
    opened = await Store.open(pg_url)
    try:
        yield opened
    finally:
        await opened.close()


async def _messages(store, rally_id):
    rows = await store.db.fetch_all("SELECT kind, message_id FROM messages WHERE rally_id = ? ORDER BY kind",
                                    (rally_id,))
    return [tuple(r) for r in rows]


def _put(rally_id, kind, message_id):
    async def body(tx):
        await tx.execute("INSERT INTO messages (rally_id, kind, channel_id, message_id, created_at) "
                         "VALUES (?, ?, 5, ?, 'x')", (rally_id, kind, message_id))
    return body


async def test_a_refused_write_under_a_lock_changes_nothing_and_the_others_stand(store):
    rally = await new_rally(store)
    async with store.db.locked("rally", rally.id):
        await store.db.write(_put(rally.id, "a", 1))
        with pytest.raises(Exception) as refused:  # the same key twice: the unique key refuses it
            await store.db.write(_put(rally.id, "a", 2))
        assert "unique" in str(refused.value).lower() or "constraint" in str(refused.value).lower()

        async def two_then_fail(tx):
            await tx.execute("INSERT INTO messages (rally_id, kind, channel_id, message_id, created_at) "
                             "VALUES (?, 'b', 5, 3, 'x')", (rally.id,))
            raise RuntimeError("the body changed its mind")

        with pytest.raises(RuntimeError):
            await store.db.write(two_then_fail)  # its first statement goes with it
        await store.db.write(_put(rally.id, "c", 4))  # the transaction went on
        assert await _messages(store, rally.id) == [("a", 1), ("c", 4)]  # seen inside the lock
    assert await _messages(store, rally.id) == [("a", 1), ("c", 4)]  # and committed with it


async def test_what_was_written_stays_when_the_block_ends_with_an_error(store):
    rally = await new_rally(store)
    with pytest.raises(LookupError):
        async with store.db.locked("rally", rally.id):
            await store.db.write(_put(rally.id, "a", 1))
            raise LookupError("after the write")
    assert await _messages(store, rally.id) == [("a", 1)]
    async with store.db.locked("rally", rally.id):  # the lock was released: taken again at once
        await store.db.write(_put(rally.id, "b", 2))
    assert await _messages(store, rally.id) == [("a", 1), ("b", 2)]


async def test_after_commit_callbacks_run_once_the_lock_ended(store):
    rally = await new_rally(store)
    seen = []
    async with store.db.locked("rally", rally.id):
        await store.db.write(_put(rally.id, "a", 1))
        store.db.after_commit(lambda: seen.append("done"))
        assert seen == ([] if store.db.dialect == POSTGRESQL else ["done"])
    assert seen == ["done"]


async def test_write_one_returns_its_rows_and_a_refused_one_changes_nothing(store):
    rally = await new_rally(store)
    rows = await store.db.write_one(lambda tx: tx.fetch_all(
        "UPDATE rallies SET turn_deadline_s = 60 WHERE id = ? RETURNING id, turn_deadline_s", (rally.id,)))
    assert [tuple(r) for r in rows] == [(rally.id, 60)]
    before = await dump_every_table(store.db)
    with pytest.raises(Exception):  # noqa: B017 - each backend has its own class for a NOT NULL refusal
        await store.db.write_one(lambda tx: tx.execute("UPDATE rallies SET stage = NULL WHERE id = ?", (rally.id,)))
    assert await dump_every_table(store.db) == before


async def test_write_one_and_read_one_under_a_lock_are_in_its_transaction(store):
    rally = await new_rally(store)
    async with store.db.locked("rally", rally.id):
        await store.db.write_one(_put(rally.id, "a", 1))
        with pytest.raises(Exception):  # noqa: B017 - a repeated key: refused, the lock's transaction goes on
            await store.db.write_one(_put(rally.id, "a", 2))
        rows = await store.db.read_one(lambda tx: tx.fetch_all(
            "SELECT kind, message_id FROM messages WHERE rally_id = ?", (rally.id,)))
        assert [tuple(r) for r in rows] == [("a", 1)]  # its own write seen before the commit
    assert await _messages(store, rally.id) == [("a", 1)]


async def test_postgresql_leaves_no_transaction_open_after_a_lock(pg_store):
    store = pg_store
    rally = await new_rally(store)
    async with store.db.locked("rally", rally.id):
        await store.db.write(_put(rally.id, "a", 1))
    with pytest.raises(KeyError):
        async with store.db.locked("rally", rally.id):
            raise KeyError("failed block")
    rows = await store.db.fetch_all(
        "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND state LIKE 'idle in transaction%'")
    assert rows[0][0] == 0
    rows = await store.db.fetch_all("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory'")
    assert rows[0][0] == 0


async def test_postgresql_a_second_store_waits_for_the_lock_until_the_first_block_ends(pg_store, pg_url):
    store, db_target = pg_store, pg_url
    rally = await new_rally(store)
    other = await Store.open(db_target)
    order = []
    try:
        inside = asyncio.Event()

        async def first():
            async with store.db.locked("rally", rally.id):
                inside.set()
                await asyncio.sleep(0.3)
                await store.db.write(_put(rally.id, "a", 1))
                order.append("first done")

        async def second():
            await inside.wait()
            async with other.db.locked("rally", rally.id):
                order.append("second in")
                assert await _messages(other, rally.id) == [("a", 1)]  # the first's commit is seen

        await asyncio.wait_for(asyncio.gather(first(), second()), 10)
    finally:
        await other.close()
    assert order == ["first done", "second in"]


async def test_postgresql_a_task_cancelled_while_it_waits_for_the_lock_leaves_nothing_open(pg_store, pg_url):
    store, db_target = pg_store, pg_url
    rally = await new_rally(store)
    other = await Store.open(db_target)
    try:
        entered = []

        async def wait_for_it():
            async with other.db.locked("rally", rally.id):
                entered.append(True)

        async with store.db.locked("rally", rally.id):
            waiting = asyncio.create_task(wait_for_it())
            await asyncio.sleep(0.3)  # it waits on the server for the lock this block holds
            waiting.cancel()
            with pytest.raises(asyncio.CancelledError):
                await waiting
        assert entered == []
        async with asyncio.timeout(5):  # the other store takes the lock at once, on any of its connections
            async with other.db.locked("rally", rally.id):
                await other.db.write(_put(rally.id, "a", 1))
        rows = await store.db.fetch_all(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND state LIKE 'idle in transaction%'")
        assert rows[0][0] == 0
        assert await _messages(store, rally.id) == [("a", 1)]
    finally:
        await other.close()


async def test_a_lock_whose_transaction_failed_never_reports_a_commit(store):
    """A failed read under the lock, caught by the caller: SQLite keeps the earlier write; on
    PostgreSQL the failed statement aborted the transaction, which COMMIT then rolls back without
    an error, so the block's end raises and the after-commit callbacks (the sender's wake-up) never
    run for rows that do not exist."""
    rally = await new_rally(store)
    seen = []

    async def block():
        async with store.db.locked("rally", rally.id):
            await store.db.write(_put(rally.id, "a", 1))
            store.db.after_commit(lambda: seen.append("committed"))
            with pytest.raises(Exception):  # noqa: B017 - each backend has its own class for it
                await store.db.read_one(lambda tx: tx.fetch_all("SELECT * FROM no_such_table"))

    if store.db.dialect == POSTGRESQL:
        with pytest.raises(RuntimeError, match="rolled it back at its end, nothing written under the lock was kept"):
            await block()
        assert seen == [] and await _messages(store, rally.id) == []
    else:
        await block()
        assert seen == ["committed"] and await _messages(store, rally.id) == [("a", 1)]
    async with store.db.locked("rally", rally.id):  # the lock and the connection are usable again
        await store.db.write(_put(rally.id, "b", 2))
    assert ("b", 2) in await _messages(store, rally.id)


async def test_the_first_write_under_a_lock_refused_leaves_the_lock_whole_for_the_next_ones(store):
    """Refused writes first and in between: each rolls back alone, the lock's transaction goes on."""
    rally = await new_rally(store)
    await store.db.write(_put(rally.id, "a", 1))
    async with store.db.locked("rally", rally.id):
        with pytest.raises(Exception):  # noqa: B017 - the same key again
            await store.db.write(_put(rally.id, "a", 2))
        await store.db.write(_put(rally.id, "b", 3))
        with pytest.raises(Exception):  # noqa: B017
            await store.db.write(_put(rally.id, "b", 4))
        await store.db.write(_put(rally.id, "c", 5))
    assert await _messages(store, rally.id) == [("a", 1), ("b", 3), ("c", 5)]


async def test_postgresql_a_lock_taken_inside_another_is_never_rolled_back_by_a_refused_write(pg_store, pg_url):
    """A refused write under two locks rolls back only itself: never to a point before the second
    lock was taken (that would release it while its block still runs). Another process's store
    still waits for the second lock."""
    store, db_target = pg_store, pg_url
    rally = await new_rally(store)
    await store.db.write(_put(rally.id, "a", 1))
    other = await Store.open(db_target)
    try:
        async with store.db.locked("rally", rally.id), store.db.locked("round", 77):
            with pytest.raises(Exception):  # noqa: B017 - the same key again
                await store.db.write(_put(rally.id, "a", 2))
            with pytest.raises(TimeoutError):  # the round's lock is still this block's
                async with asyncio.timeout(0.5), other.db.locked("round", 77):
                    pass
            await store.db.write(_put(rally.id, "b", 3))
    finally:
        await other.close()
    assert await _messages(store, rally.id) == [("a", 1), ("b", 3)]
