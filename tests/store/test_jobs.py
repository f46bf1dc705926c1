"""Jobs table for the deadline scheduler: schedule, atomic claim with a lease, complete, fail."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from store_helpers import dump

from bot.store import NotFound
from bot.store.clock import from_text

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


async def test_only_due_jobs_are_claimed_oldest_first(store):
    late = await store.jobs.schedule("deadline", "rally:1:v3", T0 + timedelta(minutes=5))
    early = await store.jobs.schedule("deadline", "rally:2:v9", T0)
    await store.jobs.schedule("deadline", "rally:3:v1", T0 + timedelta(hours=1))
    claimed = await store.jobs.claim_due(T0 + timedelta(minutes=10))
    assert [j.id for j in claimed] == [early.id, late.id]
    assert all(j.attempts == 1 and j.locked_until is not None for j in claimed)
    assert from_text(claimed[0].due_at) == T0


async def test_a_claimed_job_is_not_claimed_again_until_its_lease_ends(store):
    job = await store.jobs.schedule("deadline", "r", T0)
    assert [j.id for j in await store.jobs.claim_due(T0, lease_s=60)] == [job.id]
    assert await store.jobs.claim_due(T0 + timedelta(seconds=30)) == []
    again = await store.jobs.claim_due(T0 + timedelta(seconds=61))
    assert [(j.id, j.attempts) for j in again] == [(job.id, 2)]


async def test_concurrent_claims_never_hand_out_a_job_twice(store):
    for i in range(10):
        await store.jobs.schedule("deadline", f"r{i}", T0)
    batches = await asyncio.gather(*(store.jobs.claim_due(T0, limit=3) for _ in range(5)))
    ids = [j.id for batch in batches for j in batch]
    assert sorted(ids) == sorted(set(ids)) and len(ids) == 10


async def test_complete_fail_and_cancel(store):
    done = await store.jobs.schedule("deadline", "a", T0)
    retried = await store.jobs.schedule("deadline", "b", T0)
    given_up = await store.jobs.schedule("deadline", "c", T0)
    await store.jobs.schedule("deadline", "d", T0)
    await store.jobs.claim_due(T0)
    await store.jobs.complete(done.id, T0)
    await store.jobs.fail(retried.id, "Discord 503", retry_at=T0 + timedelta(minutes=1))
    await store.jobs.fail(given_up.id, "rally deleted")
    assert await store.jobs.cancel("deadline", "d") == 1
    assert [j.id for j in await store.jobs.pending()] == [retried.id]
    retried_now = await store.jobs.get(retried.id)
    assert retried_now.last_error == "Discord 503" and retried_now.locked_until is None
    assert [j.id for j in await store.jobs.claim_due(T0 + timedelta(minutes=2))] == [retried.id]
    assert (await store.jobs.get(given_up.id)).done_at is not None


async def test_finishing_an_unknown_or_done_job_is_refused_and_changes_nothing(store):
    job = await store.jobs.schedule("deadline", "a", T0)
    await store.jobs.complete(job.id, T0)
    before = await dump(store)
    with pytest.raises(NotFound):
        await store.jobs.complete(job.id, T0)
    with pytest.raises(NotFound):
        await store.jobs.fail(12345, "x")
    with pytest.raises(NotFound):
        await store.jobs.get(12345)
    assert await dump(store) == before


async def test_naive_due_time_is_refused(store):
    before = await dump(store)
    with pytest.raises(ValueError, match="naive datetime"):
        await store.jobs.schedule("deadline", "a", datetime(2026, 3, 1, 12, 0))
    assert await dump(store) == before
