"""append_action: action + snapshot + version bump in one transaction, refused when stale."""

from __future__ import annotations

import asyncio

import pytest
from store_helpers import dump, log_snapshot, new_rally

from bot.store import NotFound, StaleVersion, WrongStatus

STALE_TEXT = "Someone acted first: this turn has moved on. Look at the board and try again."


async def test_append_bumps_version_numbers_action_and_stores_snapshot(store):
    rally = await new_rally(store)
    assert rally.version == 0 and rally.snapshot is None
    v1 = await store.append_action(rally.id, 0, 111, "roll 3", log_snapshot(["roll 3"]))
    v2 = await store.append_action(rally.id, v1, 111, "roll white", log_snapshot(["roll 3", "roll white"]))
    assert (v1, v2) == (1, 2)
    after = await store.rallies.get(rally.id)
    assert after.version == 2
    assert after.snapshot == log_snapshot(["roll 3", "roll white"])
    assert after.updated_at >= rally.updated_at
    actions = await store.actions.list(rally.id)
    assert [(a.seq, a.actor, a.action) for a in actions] == [(1, 111, "roll 3"), (2, 111, "roll white")]
    assert await store.actions.count(rally.id) == 2
    assert [a.seq for a in await store.actions.list(rally.id, after_seq=1)] == [2]


async def test_append_can_change_status_in_the_same_transaction(store):
    rally = await new_rally(store)
    await store.append_action(rally.id, 0, None, "start", "{}", status="running")
    await store.append_action(rally.id, 1, 111, "stop", '{"done": true}', status="finished")
    after = await store.rallies.get(rally.id)
    assert (after.status, after.version, after.snapshot) == ("finished", 2, '{"done": true}')
    assert (await store.actions.list(rally.id))[0].actor is None


async def test_stale_version_is_refused_and_changes_nothing(store):
    rally = await new_rally(store)
    await store.append_action(rally.id, 0, 111, "roll 3", log_snapshot(["roll 3"]))
    before = await dump(store)
    with pytest.raises(StaleVersion) as refused:
        await store.append_action(rally.id, 0, 222, "roll 4", log_snapshot(["roll 4"]), status="finished")
    assert str(refused.value) == STALE_TEXT
    assert (refused.value.expected, refused.value.current) == (0, 1)
    assert await dump(store) == before
    after = await store.rallies.get(rally.id)
    assert (after.version, after.snapshot, after.status) == (1, log_snapshot(["roll 3"]), "lobby")
    assert await store.actions.count(rally.id) == 1


async def test_future_version_is_refused_too(store):
    rally = await new_rally(store)
    before = await dump(store)
    with pytest.raises(StaleVersion):
        await store.append_action(rally.id, 5, 111, "roll 3", "[]")
    assert await dump(store) == before


async def test_two_drivers_pressing_at_once_exactly_one_wins(store):
    rally = await new_rally(store)
    results = await asyncio.gather(
        store.append_action(rally.id, 0, 111, "roll 3", log_snapshot(["roll 3"])),
        store.append_action(rally.id, 0, 222, "roll 4", log_snapshot(["roll 4"])),
        return_exceptions=True,
    )
    wins = [r for r in results if r == 1]
    losses = [r for r in results if isinstance(r, StaleVersion)]
    assert len(wins) == 1 and len(losses) == 1
    actions = await store.actions.list(rally.id)
    assert len(actions) == 1
    winner = actions[0].action
    assert (await store.rallies.get(rally.id)).snapshot == log_snapshot([winner])


async def test_many_concurrent_presses_serialise_without_gaps(store):
    rally = await new_rally(store)
    version = 0
    for round_ in range(5):
        results = await asyncio.gather(
            *(store.append_action(rally.id, version, u, f"roll {round_}-{u}", "[]") for u in range(4)),
            return_exceptions=True,
        )
        assert sum(isinstance(r, int) for r in results) == 1
        assert sum(isinstance(r, StaleVersion) for r in results) == 3
        version += 1
    assert [a.seq for a in await store.actions.list(rally.id)] == [1, 2, 3, 4, 5]


async def test_missing_rally_is_not_found_and_nothing_written(store):
    before = await dump(store)
    with pytest.raises(NotFound, match="There is no rally #99"):
        await store.append_action(99, 0, 111, "roll 3", "[]")
    assert await dump(store) == before


async def test_finished_rally_takes_no_more_actions(store):
    rally = await new_rally(store)
    await store.append_action(rally.id, 0, 111, "stop", "[1]", status="finished")
    before = await dump(store)
    with pytest.raises(WrongStatus, match="finished: nothing more can happen"):
        await store.append_action(rally.id, 1, 111, "roll 3", "[2]")
    assert await dump(store) == before


async def test_abandoned_rally_takes_no_more_actions_and_the_refusal_names_it(store):
    """An abandoned rally is frozen like a finished one: a late press (a roll, or a host trying to
    start it again) is refused naming the rally and its status, and writes nothing."""
    rally = await new_rally(store)
    await store.rallies.set_status(rally.id, 0, "abandoned")
    before = await dump(store)
    for status in (None, "running"):
        with pytest.raises(WrongStatus) as refused:
            await store.append_action(rally.id, 1, 111, "roll 3", "[2]", status=status)
        assert str(refused.value) == f"Rally #{rally.id} is abandoned: nothing more can happen in it."
    assert await dump(store) == before


async def test_a_running_rally_cannot_go_back_to_the_lobby(store):
    """Two people racing to change the status: once running, a rally never returns to the lobby;
    the refusal says so, naming the rally, and nothing is written."""
    rally = await new_rally(store)
    await store.append_action(rally.id, 0, None, "start", "[0]", status="running")
    before = await dump(store)
    with pytest.raises(WrongStatus) as refused:
        await store.append_action(rally.id, 1, 111, "back", "[1]", status="lobby")
    assert str(refused.value) == f"Rally #{rally.id} is running: it cannot go back to the lobby."
    assert await dump(store) == before


async def test_a_status_change_keeps_the_snapshot_and_is_one_more_action(store):
    """Abandoning (a status change without a new snapshot) bumps the version, logs its action as
    the next in line and leaves the stored game state as it was; a stale one writes nothing."""
    rally = await new_rally(store)
    await store.append_action(rally.id, 0, None, "start", log_snapshot(["start"]), status="running")
    version = await store.rallies.set_status(rally.id, 1, "abandoned", actor=10, action="abandon")
    after = await store.rallies.get(rally.id)
    assert (version, after.version, after.status, after.snapshot) == (2, 2, "abandoned", log_snapshot(["start"]))
    assert after.updated_at >= rally.updated_at
    assert [(a.seq, a.actor, a.action) for a in await store.actions.list(rally.id)] == \
        [(1, None, "start"), (2, 10, "abandon")]
    before = await dump(store)
    with pytest.raises(StaleVersion):
        await store.rallies.set_status(rally.id, 1, "finished")
    assert await dump(store) == before


@pytest.mark.parametrize(
    ("kwargs", "error", "text"),
    [
        (dict(action="", snapshot_json="[]"), ValueError, "an action needs a non-empty text"),
        (dict(action="roll 3", snapshot_json={"not": "text"}), TypeError,
         "snapshot_json must be the JSON text (str) of the game state"),
        (dict(action="roll 3", snapshot_json="[]", status="paused"), ValueError,
         "unknown rally status 'paused'; expected one of lobby, running, finished, abandoned"),
        (dict(expected_version=-1, action="roll 3", snapshot_json="[]"), ValueError,
         "expected_version must be an int >= 0, got -1"),
        (dict(expected_version="0", action="roll 3", snapshot_json="[]"), ValueError,
         "expected_version must be an int >= 0, got '0'"),
    ],
)
async def test_programming_errors_write_nothing_and_say_what_is_wrong(store, kwargs, error, text):
    rally = await new_rally(store)
    before = await dump(store)
    kwargs = {"expected_version": 0, **kwargs}
    with pytest.raises(error) as refused:
        await store.append_action(rally.id, actor=111, **kwargs)
    assert str(refused.value) == text
    assert await dump(store) == before
