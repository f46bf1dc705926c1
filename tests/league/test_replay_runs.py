"""`/replay` of a championship run: its finish owes the run's own thread its replay
once; anybody of the league's server may ask for it once the round is closed; while the round is
open it is refused wherever it is asked (DESIGN §6), and another server never sees a run of a
league of this one; a world scratch run is public once its week is closed. Refusals change nothing."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from bot.engine.core.official import week_bounds
from bot.services import Place
from bot.services.errors import ServiceError
from bot.store.clock import from_text
from bot.store.leagues import rounds_of_league_tx
from tests.league.league_helpers import ALICE, BOB, GUILD, LEAGUE_CHANNEL, ORGANISER, drive, new_thread, start_run


async def owed_rows(store) -> list[tuple[dict, int | None, int]]:
    rows = await store.db.fetch_all("SELECT body, rally_id, channel_id FROM outbox ORDER BY id", ())
    return [(json.loads(r[0]) if isinstance(r[0], str) else r[0], r[1], r[2]) for r in rows]


async def alices_run(service, deadlines) -> tuple[int, Place]:
    """Sunday Cup, round 1 open on pinewood-sprint, Alice's run driven to its finish: (rally id, thread)."""
    champs = service.championships
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "UTC")
    for actor in (ALICE, BOB):
        await champs.leagues.join(LEAGUE_CHANNEL, actor)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="now", closes="+2d")
    await deadlines.run_due()
    thread = await start_run(service, ALICE)
    await drive(service, ALICE, thread)
    (rally,) = await service.store.rallies.list_by_status(("finished",))
    assert rally.channel_id == thread.channel_id
    return rally.id, thread


async def test_a_runs_replay_is_owed_once_to_its_thread_and_shown_only_after_the_close(service, deadlines, clock):
    rally_id, thread = await alices_run(service, deadlines)
    replays = [(b, rid, ch) for b, rid, ch in await owed_rows(service.store)
               if (b.get("image") or {}).get("kind") == "replay"]
    assert [(rid, ch) for _, rid, ch in replays] == [(rally_id, thread.channel_id)]  # once, in the run's thread
    before = await owed_rows(service.store)
    for place, actor in ((LEAGUE_CHANNEL, BOB), (thread, ALICE), (Place(GUILD + 1, 77), BOB)):
        with pytest.raises(ServiceError) as refused:  # the round is open: its runs stay hidden
            await service.replay(place, actor, rally_id)
        assert refused.value.key == ("replay.not_here" if place.guild_id != GUILD else "replay.round_open")
    assert await owed_rows(service.store) == before
    (rnd,) = await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    clock.now = from_text(rnd.closes_at)
    await deadlines.run_due()
    (rnd,) = await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    assert rnd.status == "closed"
    reply = await service.replay(LEAGUE_CHANNEL, BOB, str(rally_id))  # closed: the league's server may see it
    assert reply.lines[0].startswith(f"🎬 Replay of rally #{rally_id}")
    (row_id,) = reply.outbox
    assert (await service.store.outbox.get(row_id)).body["image"]["rally_id"] == rally_id
    before = await owed_rows(service.store)
    with pytest.raises(ServiceError) as refused:  # a league of another server: never, even closed
        await service.replay(Place(GUILD + 1, 77), BOB, str(rally_id))
    assert refused.value.key == "replay.not_here"
    assert str(refused.value).startswith(f"There is no finished rally #{rally_id} here")
    assert await owed_rows(service.store) == before


async def test_a_world_scratch_runs_replay_is_public_once_its_week_is_closed(service, deadlines, clock):
    scratch = service.championships.scratch
    rnd = await scratch.this_week()
    await scratch.check_run(LEAGUE_CHANNEL, ALICE)
    thread = Place(GUILD, new_thread())
    await scratch.start_run(LEAGUE_CHANNEL, ALICE, thread.channel_id, "Test server")
    await drive(service, ALICE, thread)
    (rally,) = await service.store.rallies.list_by_status(("finished",))
    other_server = Place(GUILD + 67, 88)
    before = await owed_rows(service.store)
    for place in (LEAGUE_CHANNEL, other_server):
        with pytest.raises(ServiceError) as refused:  # the week is open: nobody else may see it yet
            await service.replay(place, BOB, rally.id)
        assert refused.value.key == "replay.round_open"
    assert await owed_rows(service.store) == before
    _, end = week_bounds(rnd.week)
    clock.now = end + timedelta(minutes=1)
    await deadlines.run_due()
    reply = await service.replay(other_server, BOB, rally.id)  # closed: public, on any server
    assert reply.lines[0].startswith(f"🎬 Replay of rally #{rally.id}")
    (row_id,) = reply.outbox
    row = await service.store.outbox.get(row_id)
    assert row.channel_id == other_server.channel_id and row.body["image"]["kind"] == "replay"
