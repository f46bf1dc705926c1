"""A starting process decodes one running rally of each of its shards' most played stages before it
takes commands (`RallyWork.warm`, called by `RallyBot.warm` before the gateway connects), so its
first commands do not pay for parsing stages and building move tables; another shard's rallies
are not its business, and a rally that cannot be decoded does not stop the start."""

from __future__ import annotations

import logging

import pytest

from bot import games
from bot.services import Place, RallyService
from bot.store.shards import Shards
from tests.services.conftest import ALICE, BOB

OTHER_SHARD = 1 << 22  # a server id on shard 1 of 2 (Discord: (id >> 22) % count)


async def _start(service, place, stage):
    await service.create(place, BOB, stage, drivers=2)
    for driver in (BOB, ALICE):
        await service.join(place, driver)
    await service.start(place, BOB)
    return await service.work.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)


@pytest.fixture
async def rallies(store):
    played = RallyService(store, seed_source=lambda: 42)
    return {
        "pinewood 1": await _start(played, Place(10, 20), "pinewood-sprint"),
        "pinewood 2": await _start(played, Place(10, 21), "pinewood-sprint"),
        "black moor": await _start(played, Place(10, 22), "black-moor"),
        "other shard": await _start(played, Place(OTHER_SHARD, 20), "coastal-classic"),
    }


def _undecodable(monkeypatch):
    """From now on decoding a classic snapshot fails: what is not cached can no longer be read."""

    def refuse(text):
        raise AssertionError("decoded after the warm-up")

    monkeypatch.setattr(games.get("rallyman").rules, "from_json", refuse)


async def test_one_rally_per_stage_of_its_own_shards_is_decoded_before_any_command(store, rallies, monkeypatch):
    fresh = RallyService(store, seed_source=lambda: 42)  # a process that just started: nothing decoded
    fresh.work.shards = Shards(2, (0,))
    assert await fresh.work.warm() == 2  # pinewood-sprint and black-moor: the other shard's stage is not ours
    _undecodable(monkeypatch)
    fresh.work.state_of(rallies["pinewood 1"])  # the oldest of its stage: decoded by the warm-up
    fresh.work.state_of(rallies["black moor"])
    with pytest.raises(AssertionError, match="decoded after"):
        fresh.work.state_of(rallies["pinewood 2"])  # one per stage: its stage is parsed, its state is not
    with pytest.raises(AssertionError, match="decoded after"):
        fresh.work.state_of(rallies["other shard"])


async def test_the_most_played_stages_come_first(store, rallies, monkeypatch):
    fresh = RallyService(store, seed_source=lambda: 42)
    assert await fresh.work.warm(most=1) == 1
    _undecodable(monkeypatch)
    fresh.work.state_of(rallies["pinewood 1"])  # two rallies on pinewood-sprint, one on each other stage
    with pytest.raises(AssertionError, match="decoded after"):
        fresh.work.state_of(rallies["black moor"])


async def test_a_rally_that_cannot_be_decoded_is_logged_and_the_start_goes_on(store, rallies, caplog):
    broken = rallies["black moor"]
    await store.db.write(lambda tx: tx.execute("UPDATE rallies SET snapshot = ? WHERE id = ?", ("{}", broken.id)))
    fresh = RallyService(store, seed_source=lambda: 42)
    with caplog.at_level(logging.WARNING, logger="bot.services.work"):
        assert await fresh.work.warm() == 2  # pinewood-sprint and the other shard's stage (every shard here)
    assert f"could not warm rally {broken.id} (black-moor)" in caplog.text


async def test_the_bot_warms_its_messages_and_its_shards_rallies(store, rallies, monkeypatch):
    from bot.client import RallyBot
    from bot.config import Settings

    bot = RallyBot(Settings(db=store.db.path, shards=Shards(2, (1,))), start_loops=False, sync=False)
    await bot.open_services(store)
    try:
        assert await bot.warm() == 1  # shard 1 of 2: the other server's rally only
        _undecodable(monkeypatch)
        bot.rallies.work.state_of(rallies["other shard"])
    finally:
        bot.forget_store()  # the fixture closes it; the bot never connected, so nothing else to stop


async def test_a_row_that_cannot_be_read_leaves_the_warm_up_to_the_commands(store, rallies, caplog):
    broken = rallies["black moor"]
    await store.db.write(lambda tx: tx.execute("UPDATE rallies SET modules = ? WHERE id = ?", ("not json", broken.id)))
    fresh = RallyService(store, seed_source=lambda: 42)
    with caplog.at_level(logging.WARNING, logger="bot.services.work"):
        assert await fresh.work.warm() == 0  # the start goes on
    assert "could not read the running rallies to warm: JSONDecodeError" in caplog.text
