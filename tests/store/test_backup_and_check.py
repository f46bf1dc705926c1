"""Online backup, and the consistency check that replays every log against its snapshot."""

from __future__ import annotations

import asyncio
import json

import pytest
from store_helpers import dump, log_snapshot, new_rally

from bot.store import Store
from bot.store.check import compare_snapshots


def replay_texts(rally_row: dict, actions: list[dict]) -> str | None:
    """A stand-in for the engine's replay: the snapshot is the JSON list of the action texts."""
    assert "snapshot" not in rally_row, "the replay must rebuild the state, not copy it"
    return json.dumps([a["action"] for a in actions]) if actions else None


async def _play(store: Store, channel_id: int, texts: list[str]) -> int:
    rally = await new_rally(store, channel_id=channel_id)
    await store.drivers.join(rally.id, 1, "Ann")
    for i, text in enumerate(texts):
        await store.append_action(rally.id, i, 1, text, log_snapshot(texts[: i + 1]))
    return rally.id


async def test_backup_holds_the_same_rows_and_opens(store, tmp_path):
    await _play(store, 1, ["roll 3", "roll white", "stop"])
    await _play(store, 2, ["roll 2"])
    await store.guilds.put(1, {"lang": "fr"})
    target = tmp_path / "backups" / "copy.sqlite3"
    size = await store.backup(target)
    assert size == target.stat().st_size > 0
    assert not target.with_name("copy.sqlite3.partial").exists()
    async with Store.open(target) as copy:
        assert await dump(copy) == await dump(store)
        assert (await copy.check(replay_texts)).ok


async def test_backup_while_writing_is_one_consistent_state(store, tmp_path):
    rally_id = await _play(store, 1, ["a"])
    texts = ["a"]

    async def keep_writing():
        for i in range(200):
            texts.append(f"roll {i}")
            await store.append_action(rally_id, len(texts) - 1, 1, texts[-1], log_snapshot(texts))

    await asyncio.gather(keep_writing(), store.backup(tmp_path / "live.sqlite3"))
    assert (await store.rallies.get(rally_id)).version == 201, "the store kept working during the backup"
    async with Store.open(tmp_path / "live.sqlite3") as copy:
        report = await copy.check(replay_texts)
        assert report.ok, report.mismatches
        assert report.rallies == 1 and 1 <= report.actions <= 201


async def test_backup_onto_the_database_itself_is_refused(sqlite_store):
    store = sqlite_store
    await _play(store, 1, ["a"])
    before = await dump(store)
    with pytest.raises(ValueError, match="onto itself"):
        await store.backup(store.path)
    assert await dump(store) == before


async def test_check_finds_nothing_when_consistent(store):
    await _play(store, 1, ["roll 3", "stop"])
    await _play(store, 2, [])
    report = await store.check(replay_texts)
    assert report.ok and (report.rallies, report.actions) == (2, 2)


async def tamper(store, sql, params):
    """Change a row behind the store's back (as a hand-edited database would be)."""
    await store.db.write(lambda tx: tx.execute(sql, params))


async def test_check_reports_a_tampered_snapshot(store):
    good = await _play(store, 1, ["roll 3", "stop"])
    bad = await _play(store, 2, ["roll 3", "roll 4", "stop"])
    await tamper(store, "UPDATE rallies SET snapshot = ? WHERE id = ?", (json.dumps(["roll 3", "roll 5", "stop"]), bad))
    report = await store.check(replay_texts)
    assert [m.rally_id for m in report.mismatches] == [bad]
    assert good not in [m.rally_id for m in report.mismatches]
    detail = report.mismatches[0].detail
    assert "$[1]" in detail and "roll 5" in detail and "roll 4" in detail
    assert str(report.mismatches[0]).startswith(f"rally #{bad}: ")


async def test_check_reports_a_broken_log_and_a_crashing_replay(store):
    gap = await _play(store, 1, ["a", "b", "c"])
    await _play(store, 2, ["x"])
    await tamper(store, "DELETE FROM actions WHERE rally_id = ? AND seq = 2", (gap,))

    def fragile(rally_row, actions):
        if rally_row["channel_id"] == 2:
            raise KeyError("unknown action")
        return replay_texts(rally_row, actions)

    report = await store.check(fragile)
    details = {m.rally_id: m.detail for m in report.mismatches}
    assert "version 3 but 2 actions" in details[gap]
    assert any("replay failed: KeyError" in d for d in details.values())


async def test_check_gives_the_replay_the_drivers_and_the_log(store):
    rally_id = await _play(store, 1, ["roll 3"])
    seen = {}

    def spy(rally_row, actions):
        seen.update(rally_row=rally_row, actions=actions)
        return replay_texts(rally_row, actions)

    await store.check(spy)
    assert seen["rally_row"]["id"] == rally_id and seen["rally_row"]["seed"] == 42
    assert [d["display_name"] for d in seen["rally_row"]["drivers"]] == ["Ann"]
    assert [(a["seq"], a["action"]) for a in seen["actions"]] == [(1, "roll 3")]


def test_compare_snapshots_ignores_formatting_and_names_the_first_difference():
    assert compare_snapshots('{"a": 1, "b": [1, 2]}', '{"b":[1,2],"a":1}') is None
    found = compare_snapshots('{"cars": [{"gear": 3}]}', '{"cars": [{"gear": 4}]}')
    assert found == "$.cars[0].gear: stored 3, replayed 4"
    assert "missing in replay" in compare_snapshots('{"a": 1, "b": 2}', '{"a": 1}')
    assert "stored 2 items, replayed 1" in compare_snapshots("[1, 2]", "[1]")
    assert "not both valid JSON" in compare_snapshots("{oops", "{}")
    assert compare_snapshots(None, "[]") is not None
