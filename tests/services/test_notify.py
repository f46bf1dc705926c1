"""`/notify dm|next`: a driver's turn by DM, a heads-up when the driver before
them starts, and a league round's closing by DM; the channel ping always stays, and a DM that
Discord refuses (closed DMs) never starts a clock nor counts a missed turn."""

from __future__ import annotations

import pytest

from bot.engine.rallyman.ai import choose_action
from bot.i18n import render
from bot.services.delivery import Failure
from bot.services.errors import ServiceError
from bot.services.work import KIND_DEADLINE
from bot.store.notify import prefs_tx
from tests.services.conftest import ALICE, BOB, CAROL, HERE, running_rally


async def owed(service):
    """Every owed row (heads of lanes, claimed until none is left), delivered as sent, in id order:
    (user_id or None, channel_id, text, ping)."""
    out = []
    while batch := await service.delivery.claim():
        for row in sorted(batch, key=lambda o: o.row.id):
            out.append((row.row.user_id, row.row.channel_id, "\n".join(render(x) for x in row.lines), row.ping))
            await service.delivery.sent(row, None)
    return out


async def play_turn(service, actor):
    """The acting driver plays one action, as the AI would choose it."""
    rally = await service.store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
    await service.act(HERE, actor, str(choose_action(service.work.state_of(rally))))


async def test_with_dms_on_the_next_driver_also_gets_their_turn_by_dm_and_the_channel_ping_stays(service):
    await service.notify.set(HERE, ALICE, "dm", "on")
    await running_rally(service)  # Bob drives first, then Alice
    first = await owed(service)
    assert not [r for r in first if r[0] is not None]  # Bob's turn: Bob has no DMs on
    rally = await service.store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
    while service.work.state_of(await service.store.rallies.get(rally.id)).active.id == str(BOB.user_id):
        await play_turn(service, BOB)
    rows = await owed(service)
    dms = [r for r in rows if r[0] is not None]
    channel = [r for r in rows if r[0] is None and ALICE.user_id in r[3]]
    assert channel, "the channel prompt still pings Alice"
    assert [d[0] for d in dms] == [ALICE.user_id]
    assert f"<#{HERE.channel_id}>" in dms[0][2] and "Alice, your turn: you may roll" in dms[0][2]


async def test_a_driver_acting_in_the_channel_gets_no_dm_for_their_own_next_prompt(service):
    await service.notify.set(HERE, BOB, "dm", "on")
    await running_rally(service)  # Bob (the host) starts: he is in the channel
    assert not [r for r in await owed(service) if r[0] is not None]


async def test_a_refused_dm_is_dropped_and_only_the_channel_prompt_starts_the_turn_clock(service):
    await service.notify.set(HERE, BOB, "dm", "on")
    await service.create(HERE, ALICE, "pinewood-sprint", drivers=2, deadline_hours=24)
    await service.join(HERE, BOB)
    await service.join(HERE, ALICE)
    await service.start(HERE, ALICE)  # Bob joined first: Bob drives first, Alice started it
    rally = await service.store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
    held = []  # the channel's posts wait: the DM goes first, and fails
    while batch := await service.delivery.claim():
        held += [o for o in batch if not o.is_dm]
        for dm in (o for o in batch if o.is_dm):  # Discord: 403, cannot send messages to this user
            await service.delivery.failed(dm, Failure.REFUSED, error="50007")
    assert await service.store.jobs.for_rally(rally.id, (KIND_DEADLINE,)) == []  # no clock yet
    assert await service.store.drivers.get(rally.id, BOB.user_id) is not None
    assert (await service.store.drivers.get(rally.id, BOB.user_id)).missed_turns == 0
    refused = await service.store.db.fetch_all("SELECT outcome FROM outbox WHERE user_id = ?", (BOB.user_id,))
    assert [r[0] for r in refused] == ["dropped: 50007"]
    for out in sorted(held, key=lambda o: o.row.id):
        await service.delivery.sent(out, 1)
    await owed(service)
    assert len(await service.store.jobs.for_rally(rally.id, (KIND_DEADLINE,))) == 1  # the channel ping did


async def test_next_on_gives_a_heads_up_when_the_driver_before_starts(service):
    await service.notify.set(HERE, ALICE, "next", "on")
    await service.create(HERE, CAROL, "pinewood-sprint", drivers=3)
    for driver in (BOB, ALICE, CAROL):
        await service.join(HERE, driver)
    await service.start(HERE, CAROL)  # Bob first; a staggered start (A4.2): Bob alone in round 1
    assert not [r for r in await owed(service) if r[0] is not None]  # nobody is known to follow Bob yet
    rally = await service.store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
    while service.work.state_of(await service.store.rallies.get(rally.id)).round == 1:
        await play_turn(service, BOB)
    state = service.work.state_of(await service.store.rallies.get(rally.id))
    assert state.active.name == "Bob" and state.cars[state.queue[0]].name == "Alice"  # round 2: Bob, then Alice
    dms = [r for r in await owed(service) if r[0] is not None]
    assert [d[0] for d in dms] == [ALICE.user_id]
    assert "Bob has started their turn" in dms[0][2] and "you are next" in dms[0][2]


async def test_dms_off_by_default_and_after_off(service):
    await service.notify.set(HERE, ALICE, "dm", "on")
    await service.notify.set(HERE, ALICE, "dm", "off")
    await service.notify.set(HERE, ALICE, "next", "on")
    prefs = await service.store.db.read(lambda tx: prefs_tx(tx, [ALICE.user_id, BOB.user_id]))
    assert not prefs[ALICE.user_id].dm and prefs[ALICE.user_id].next_turn and BOB.user_id not in prefs


@pytest.mark.parametrize("what, value, key", [("dm", "maybe", "league.bad_on_off"), ("sms", "on", "notify.bad_kind"),
                                              ("next", "", "league.bad_on_off")])
async def test_bad_notify_input_is_refused_and_changes_nothing(service, what, value, key):
    await service.notify.set(HERE, ALICE, "dm", "on")
    before = await service.store.db.fetch_all("SELECT * FROM notify_prefs")
    with pytest.raises(ServiceError) as refused:
        await service.notify.set(HERE, ALICE, what, value)
    assert refused.value.key == key
    assert await service.store.db.fetch_all("SELECT * FROM notify_prefs") == before
