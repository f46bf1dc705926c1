"""`db check` replays only what changed since its last run (`--all`: everything), on every core."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from store_helpers import log_snapshot, new_rally
from test_backup_and_check import _play, replay_texts

ROOT = Path(__file__).resolve().parents[2]


async def tamper(store, sql, params):
    await store.db.write(lambda tx: tx.execute(sql, params))


async def test_a_second_check_replays_nothing_when_nothing_changed(store):
    for channel in range(1, 6):
        await _play(store, channel, ["roll 3", "stop"])
    first = await store.check(replay_texts, changed_only=True)
    assert first.ok and (first.rallies, first.unchanged) == (5, 0)
    second = await store.check(replay_texts, changed_only=True)
    assert second.ok and (second.rallies, second.actions, second.unchanged) == (0, 0, 5)


async def test_only_the_rally_that_moved_on_is_replayed_again(store):
    ids = [await _play(store, channel, ["roll 3"]) for channel in range(1, 4)]
    assert (await store.check(replay_texts)).ok  # a full check marks them all
    await store.append_action(ids[1], 1, 1, "stop", log_snapshot(["roll 3", "stop"]))
    report = await store.check(replay_texts, changed_only=True)
    assert report.ok and (report.rallies, report.actions, report.unchanged) == (1, 2, 2)


async def test_a_snapshot_changed_behind_the_bots_back_is_found_without_all(store):
    ids = [await _play(store, channel, ["roll 3", "stop"]) for channel in range(1, 3)]
    assert (await store.check(replay_texts, changed_only=True)).ok
    await tamper(store, "UPDATE rallies SET snapshot = ? WHERE id = ?", (json.dumps(["roll 4", "stop"]), ids[0]))
    report = await store.check(replay_texts, changed_only=True)
    assert [m.rally_id for m in report.mismatches] == [ids[0]] and report.unchanged == 1
    again = await store.check(replay_texts, changed_only=True)
    assert [m.rally_id for m in again.mismatches] == [ids[0]], "a rally that failed is not marked: found again"


async def test_an_old_action_edited_alone_needs_all_which_finds_it(store):
    """The trade-off of the quick check, said in `bot.store.check`: it trusts a rally whose row did
    not change; `--all` replays every log."""
    rally_id = await _play(store, 1, ["roll 3", "stop"])
    assert (await store.check(replay_texts, changed_only=True)).ok
    await tamper(store, "UPDATE actions SET action = ? WHERE rally_id = ? AND seq = 1", ("roll 5", rally_id))
    assert (await store.check(replay_texts, changed_only=True)).ok
    full = await store.check(replay_texts)
    assert [m.rally_id for m in full.mismatches] == [rally_id]


async def test_workers_give_the_same_report_as_one_process(store):
    ids = [await _play(store, channel, ["roll 3", "roll 4", "stop"]) for channel in range(1, 150)]
    await tamper(store, "UPDATE rallies SET snapshot = ? WHERE id = ?", (json.dumps(["x"]), ids[100]))
    one = await store.check(replay_texts)
    two = await store.check(replay_texts, workers=2)
    assert (two.rallies, two.actions, [str(m) for m in two.mismatches]) == \
        (one.rallies, one.actions, [str(m) for m in one.mismatches])
    assert [m.rally_id for m in two.mismatches] == [ids[100]]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "db", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


async def test_the_command_checks_what_changed_and_all_with_all(sqlite_store, db_path):
    from bot.services import Actor, Place, RallyService

    service = RallyService(sqlite_store, seed_source=lambda: 42)
    here, bob, alice = Place(10, 20), Actor(1002, "Bob"), Actor(1001, "Alice")
    await service.create(here, bob, "pinewood-sprint", drivers=2)
    for actor in (bob, alice):
        await service.join(here, actor)
    await service.start(here, bob)
    await new_rally(sqlite_store, channel_id=99)
    first = _cli("check", "--db", str(db_path))
    assert first.returncode == 0 and first.stdout.startswith("ok: 2 rallies"), first.stdout + first.stderr
    second = _cli("check", "--db", str(db_path))
    assert second.returncode == 0, second.stderr
    assert second.stdout.startswith("ok: 0 rallies, 0 actions (2 unchanged since the last check"), second.stdout
    everything = _cli("check", "--all", "--db", str(db_path))
    assert everything.returncode == 0 and everything.stdout.startswith("ok: 2 rallies"), everything.stdout
