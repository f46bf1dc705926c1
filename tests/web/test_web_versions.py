"""Shared version reads (bot/web/versions.py): concurrent requests of one page share one query, an
answer is reused only for `version_ttl` seconds, an error reaches every sharer and is not kept,
and a rally's live stream that sees a new version makes the page fetched after it the new one."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.web.app import SITE
from bot.web.versions import SharedReads
from tests.web.live_helpers import running_public_rally
from tests.web.test_web_live import next_event, open_client, page_version
from tests.web.test_web_rally import one_move, rally_here
from tests.web.web_helpers import season


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def slow_read(answers: list[int], gate: asyncio.Event):
    async def read() -> int:
        await gate.wait()
        answers.append(len(answers) + 1)
        return answers[-1]
    return read


async def test_concurrent_callers_share_one_read_and_nothing_is_kept_without_a_ttl():
    reads, gate, answers = SharedReads(), asyncio.Event(), []
    waiting = [asyncio.create_task(reads.get("k", slow_read(answers, gate))) for _ in range(50)]
    await asyncio.sleep(0)
    gate.set()
    assert await asyncio.gather(*waiting) == [1] * 50 and reads.reads == 1
    assert await reads.get("k", slow_read(answers, gate)) == 2  # a later caller reads again
    assert await reads.get("other", slow_read(answers, gate)) == 3 and reads.reads == 3


async def test_a_caller_that_goes_away_does_not_cancel_the_others_read():
    reads, gate, answers = SharedReads(), asyncio.Event(), []
    first = asyncio.create_task(reads.get("k", slow_read(answers, gate)))
    second = asyncio.create_task(reads.get("k", slow_read(answers, gate)))
    await asyncio.sleep(0)
    first.cancel()
    gate.set()
    assert await second == 1 and first.cancelled()


async def test_an_answer_is_reused_for_the_ttl_only_and_forget_reads_again():
    clock, gate, answers = Clock(), asyncio.Event(), []
    gate.set()
    reads = SharedReads(ttl=0.5, clock=clock)
    assert await reads.get("k", slow_read(answers, gate)) == 1
    clock.now += 0.4
    assert await reads.get("k", slow_read(answers, gate)) == 1 and reads.reads == 1
    clock.now += 0.2  # 0.6 s after the read started: too old
    assert await reads.get("k", slow_read(answers, gate)) == 2
    reads.forget("k")
    assert await reads.get("k", slow_read(answers, gate)) == 3 and reads.reads == 3


async def test_a_read_forgotten_in_flight_is_neither_shared_later_nor_kept():
    reads, gate, answers = SharedReads(ttl=60.0), asyncio.Event(), []
    early = asyncio.create_task(reads.get("k", slow_read(answers, gate)))
    await asyncio.sleep(0)
    reads.forget("k")  # the news came while the read ran
    late = asyncio.create_task(reads.get("k", slow_read(answers, gate)))
    await asyncio.sleep(0)
    gate.set()
    early_answer, late_answer = await early, await late
    assert sorted([early_answer, late_answer]) == [1, 2] and reads.reads == 2
    assert await reads.get("k", slow_read(answers, gate)) == late_answer  # the later read is the one kept
    assert reads.reads == 2


async def test_an_error_reaches_every_sharer_and_is_not_kept():
    reads, gate = SharedReads(ttl=60.0), asyncio.Event()

    async def broken() -> int:
        await gate.wait()
        raise OSError("the store hiccuped")

    waiting = [asyncio.create_task(reads.get("k", broken)) for _ in range(3)]
    await asyncio.sleep(0)
    gate.set()
    for task in waiting:
        with pytest.raises(OSError, match="hiccuped"):
            await task
    assert reads.reads == 1
    assert await reads.get("k", slow_read([], gate)) == 1 and reads.reads == 2


async def test_a_storm_of_page_loads_shares_its_version_queries(service, deadlines, clock, client):
    league_id, _ = await season(service, deadlines, clock)
    site = client.server.app[SITE]
    answers = await asyncio.gather(*(client.get(f"/league/{league_id}") for _ in range(40)))
    assert {r.status for r in answers} == {200} and len({r.headers["ETag"] for r in answers}) == 1
    assert site.versions.reads < 40


async def test_a_live_event_makes_the_remembered_rally_version_stale(store, options):
    guard, rally = await running_public_rally(store)
    client = await open_client(store, replace(options, version_ttl=60.0, live_poll=0.05))
    try:
        shown = page_version(await (await client.get(f"/rally/{rally.id}")).text())
        await one_move(guard, store)
        now = await rally_here(store)
        fresh = f"{now.version}-{now.status}"
        assert fresh != shown
        # within the TTL the page is the remembered version: the staleness the option allows …
        assert page_version(await (await client.get(f"/rally/{rally.id}")).text()) == shown
        async with client.get(f"/rally/{rally.id}/events") as stream:
            assert await next_event(stream) == ("version", {"version": fresh})
            # … but never once the live stream said it changed
            assert page_version(await (await client.get(f"/rally/{rally.id}")).text()) == fresh
    finally:
        await client.close()
