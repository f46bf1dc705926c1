"""AI opponents: `/rally add-ai` seats 🤖 drivers in the lobby, who drive their
own turns a short pause after their prompt reached the channel; refusals change nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.engine.core.errors import RallyError
from bot.engine.rallyman.ai import choose_action
from bot.services import RallyService
from bot.services.play.ai_drivers import AI_STYLES, is_ai, risk_of
from bot.services.play.deadlines import DeadlineService
from bot.services.work import AI_PAUSE, KIND_AI, KIND_DEADLINE
from tests.services.conftest import ALICE, BOB, HERE, MOD, snapshot_of

START = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def ai_service(store, clock):
    return RallyService(store, seed_source=lambda: 7, clock=clock)


async def lobby_with_ai(service, count=2, style="bold"):
    await service.create(HERE, ALICE, "pinewood-sprint", drivers=3)
    await service.join(HERE, ALICE)
    return await service.add_ai(HERE, ALICE, count, style)


async def drivers(store):
    rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
    return rally, await store.drivers.list(rally.id, active_only=True)


async def test_add_ai_seats_named_robots_with_their_style(ai_service, store):
    reply = await lobby_with_ai(ai_service)
    rally, seated = await drivers(store)
    robots = [d for d in seated if is_ai(d.user_id)]
    assert [d.user_id for d in robots] == [-1, -2]
    assert all(d.display_name.startswith("🤖 ") for d in robots)
    assert len({d.display_name for d in robots}) == 2
    assert rally.modules["ai"] == {"-1": "bold", "-2": "bold"}
    assert risk_of(rally.modules, "-1") == AI_STYLES["bold"]
    names = " and ".join(d.display_name for d in robots)
    assert reply.text == f"{names} join the rally as AI drivers, bold (3/3)."
    assert not reply.ephemeral


async def test_one_ai_reads_in_the_singular_and_defaults_to_balanced(ai_service, store):
    await ai_service.create(HERE, ALICE, "pinewood-sprint", drivers=2)
    reply = await ai_service.add_ai(HERE, ALICE)
    rally, seated = await drivers(store)
    assert reply.text == f"{seated[0].display_name} joins the rally as an AI driver, balanced (1/2)."
    assert rally.modules["ai"] == {"-1": "balanced"}


@pytest.mark.parametrize("call, needle", [
    (lambda s: s.add_ai(HERE, BOB, 1), "Only the host or a member with Manage Server can seat AI drivers"),
    (lambda s: s.add_ai(HERE, ALICE, 2), "room for 1 more driver(s) in this rally of 3, not 2"),
    (lambda s: s.add_ai(HERE, ALICE, 0), "`count` must be a number from 1 to 4, not `0`"),
    (lambda s: s.add_ai(HERE, ALICE, "two"), "`count`"),
    (lambda s: s.add_ai(HERE, ALICE, 1, "reckless"), "Unknown driving style: choose one of careful, balanced, bold"),
    (lambda s: s.remove_ai(HERE, BOB), "Only the host or a member with Manage Server can take AI drivers out"),
    (lambda s: s.remove_ai(HERE, ALICE, "Zed"), "No AI driver of that name here"),
    (lambda s: s.join(HERE, BOB), None),  # fills the last seat: then no AI fits at all
])
async def test_bad_add_or_remove_is_refused_and_changes_nothing(ai_service, store, call, needle):
    await lobby_with_ai(ai_service, count=1)
    if needle is None:
        await call(ai_service)
        call = lambda s: s.add_ai(HERE, ALICE, 1)  # noqa: E731
        needle = "The rally is full (3/3): no seat is left for an AI driver."
    before = await snapshot_of(store)
    with pytest.raises(RallyError) as err:
        await call(ai_service)
    assert needle in str(err.value)
    assert await snapshot_of(store) == before


async def test_no_ai_outside_a_lobby(ai_service, store):
    with pytest.raises(RallyError) as err:
        await ai_service.add_ai(HERE, ALICE, 1)
    assert "no rally in this channel" in str(err.value).lower()
    await lobby_with_ai(ai_service, count=1)
    await ai_service.start(HERE, ALICE)
    before = await snapshot_of(store)
    for call in (ai_service.add_ai(HERE, ALICE, 1), ai_service.remove_ai(HERE, ALICE)):
        with pytest.raises(RallyError) as err:
            await call
        assert "already started" in str(err.value)
    assert await snapshot_of(store) == before


async def test_the_host_takes_one_or_all_robots_out_before_the_start(ai_service, store):
    await lobby_with_ai(ai_service, count=2)
    _, seated = await drivers(store)
    first = next(d for d in seated if is_ai(d.user_id))
    reply = await ai_service.remove_ai(HERE, MOD, first.display_name.removeprefix("🤖 ").lower())
    assert reply.text == f"{first.display_name} leaves the rally."
    rally, seated = await drivers(store)
    assert [d.user_id for d in seated if is_ai(d.user_id)] == [-2] and rally.modules["ai"] == {"-2": "bold"}
    await ai_service.remove_ai(HERE, ALICE)
    rally, seated = await drivers(store)
    assert [d.user_id for d in seated] == [ALICE.user_id] and "ai" not in rally.modules
    with pytest.raises(RallyError) as err:
        await ai_service.remove_ai(HERE, ALICE)
    assert "no AI driver" in str(err.value)


async def test_a_rally_of_robots_alone_does_not_start(ai_service, store):
    await ai_service.create(HERE, ALICE, "pinewood-sprint", drivers=2)
    await ai_service.add_ai(HERE, ALICE, 2)
    before = await snapshot_of(store)
    with pytest.raises(RallyError) as err:
        await ai_service.start(HERE, ALICE)
    assert "at least one person" in str(err.value)
    assert await snapshot_of(store) == before


async def deliver_all(service) -> list:
    """The sender: every owed post delivered (which starts what its turn waits for)."""
    sent = []
    while True:
        batch = await service.delivery.claim()
        if not batch:
            return sent
        for out in batch:
            await service.delivery.sent(out, None)
            sent.append(out)


async def test_robots_drive_their_turns_after_a_pause_and_the_rally_finishes(ai_service, store, clock):
    """Alice against two bold AI drivers, as on Discord: each AI prompt pings nobody and has no
    buttons; its drive waits `AI_PAUSE` after delivery, then runs as a job; Alice plays her own."""
    await lobby_with_ai(ai_service)
    await ai_service.start(HERE, ALICE)
    deadlines = DeadlineService(ai_service.work, clock=clock)
    ai_prompts = 0
    for _ in range(400):
        for out in await deliver_all(ai_service):
            if out.turn is not None and out.turn.driver_id < 0:
                ai_prompts += 1
                assert out.ping == () and out.turn.options == () and out.due is None
        rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
        if rally is None:
            break
        state = ai_service.work.state_of(rally)
        if is_ai(state.active.id):
            jobs = await store.jobs.for_rally(rally.id, (KIND_AI, KIND_DEADLINE))
            assert [j.kind for j in jobs] == [KIND_AI]  # a robot is never given a deadline
            assert await deadlines.run_due(clock.now) == 0  # a human-looking pause first
            clock.now += AI_PAUSE
            assert await deadlines.run_due(clock.now) == 1
        else:
            await ai_service.act(HERE, ALICE, str(choose_action(state)))
    finished = (await store.rallies.list_by_status(("finished",)))
    assert len(finished) == 1 and ai_prompts >= 4
    final = ai_service.work.state_of(finished[0])
    assert {c.name.startswith("🤖") for c in final.cars} == {True, False}
    assert final.finished and all(c.status in ("finished", "out") for c in final.cars)
    robots = [d for d in await store.drivers.list(finished[0].id) if is_ai(d.user_id)]
    assert all(d.missed_turns == 0 for d in robots)  # driving on time is not a missed turn


async def test_two_hosts_seating_robots_at_once_never_overfill_the_rally(ai_service, store):
    """`/rally add-ai` by the host and by a manager at the same moment, one seat left: the rally's
    lock orders them, one seats its robot, the other is told the rally is full; never 4 of 3."""
    import asyncio

    await lobby_with_ai(ai_service, count=1)  # Alice and one robot: one seat of 3 left
    results = await asyncio.gather(ai_service.add_ai(HERE, ALICE, 1), ai_service.add_ai(HERE, MOD, 1),
                                   return_exceptions=True)
    refused = [r for r in results if isinstance(r, RallyError)]
    assert len(refused) == 1 and "The rally is full (3/3)" in str(refused[0])
    rally, seated = await drivers(store)
    assert len(seated) == 3 and len(rally.modules["ai"]) == 2
