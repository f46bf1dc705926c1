"""`python -m bot db migrate|backup|check` through bot.__main__.main (sync tests: the CLI runs its own loop)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
import types

import pytest
from store_helpers import log_snapshot, new_rally

from bot.__main__ import main
from bot.engine.rallyman.action_codec import log_text
from bot.engine.rallyman.actions import Roll, Stop
from bot.services.play.replay import log_problem
from bot.store import Store
from bot.store.migrations import latest_version

ROLL, STOP = log_text(Roll(("3",))), log_text(Stop())


def _fake_replay_module(monkeypatch):
    """A replay whose 'state' is the list of logged texts; the real check of canonical texts."""
    module = types.ModuleType("bot.services.play.replay")
    module.replay_snapshot = lambda rally_row, actions: json.dumps([a["action"] for a in actions]) if actions else None
    module.log_problem = log_problem
    monkeypatch.setitem(sys.modules, "bot.services.play.replay", module)


async def _filled(path) -> int:
    async with Store.open(path) as store:
        rally = await new_rally(store)
        await store.append_action(rally.id, 0, 1, ROLL, log_snapshot([ROLL]))
        await store.append_action(rally.id, 1, 1, STOP, log_snapshot([ROLL, STOP]))
        return rally.id


def test_migrate_creates_the_database_and_prints_its_version(tmp_path, capsys):
    path = tmp_path / "new" / "db.sqlite3"
    assert main(["db", "migrate", "--db", str(path)]) == 0
    assert capsys.readouterr().out.strip() == f"{path}: schema version {latest_version()}"
    assert path.is_file()


def test_default_database_comes_from_rallybot_db(tmp_path, monkeypatch, capsys):
    path = tmp_path / "env.sqlite3"
    monkeypatch.setenv("RALLYBOT_DB", str(path))
    assert main(["db", "migrate"]) == 0
    assert str(path) in capsys.readouterr().out and path.is_file()


def test_backup_prints_path_and_size(tmp_path, capsys):
    path = tmp_path / "db.sqlite3"
    asyncio.run(_filled(path))
    target = tmp_path / "b" / "backup.sqlite3"
    assert main(["db", "backup", str(target), "--db", str(path)]) == 0
    assert capsys.readouterr().out.strip() == f"{target}: {target.stat().st_size} bytes"
    with sqlite3.connect(target) as conn:
        assert conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 2


def test_backup_of_a_missing_database_is_refused_without_creating_it(tmp_path, capsys):
    path = tmp_path / "missing.sqlite3"
    assert main(["db", "backup", str(tmp_path / "b.sqlite3"), "--db", str(path)]) == 1
    assert "no database at" in capsys.readouterr().err
    assert not path.exists() and not (tmp_path / "b.sqlite3").exists()


def test_check_without_the_rules_engine_exits_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "bot.services.play.replay", None)  # import fails as if not written
    assert main(["db", "check", "--db", str(tmp_path / "db.sqlite3")]) == 2
    assert "db check needs the rules engine (bot.services.play.replay), not available yet" in capsys.readouterr().err


def test_check_ok_and_mismatch(tmp_path, monkeypatch, capsys):
    _fake_replay_module(monkeypatch)
    path = tmp_path / "db.sqlite3"
    rally_id = asyncio.run(_filled(path))
    assert main(["db", "check", "--db", str(path)]) == 0
    assert capsys.readouterr().out.strip() == "ok: 1 rallies, 2 actions"

    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE rallies SET snapshot = ? WHERE id = ?", (json.dumps([ROLL, "go"]), rally_id))
    assert main(["db", "check", "--db", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"rally #{rally_id}: $[1]: stored 'go', replayed {STOP!r}" in out


def test_check_names_a_logged_action_that_is_not_canonical(tmp_path, monkeypatch, capsys):
    """A hand-edited row of the log (here in the old text grammar) is a mismatch naming the
    rally, the action's number and why, even when the snapshot agrees with it."""
    _fake_replay_module(monkeypatch)
    path = tmp_path / "db.sqlite3"
    rally_id = asyncio.run(_filled(path))
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE actions SET action = 'stop' WHERE rally_id = ? AND seq = 2", (rally_id,))
        conn.execute("UPDATE rallies SET snapshot = ? WHERE id = ?", (json.dumps([ROLL, "stop"]), rally_id))
    assert main(["db", "check", "--db", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"rally #{rally_id}: action 2 'stop' is not canonical: text: not JSON" in out
    assert "1 mismatches in 1 rallies, 2 actions" in out


def test_db_without_an_action_shows_usage(capsys):
    assert main(["db"]) == 2
    assert "migrate" in capsys.readouterr().err


@pytest.mark.parametrize("action", ["check", "backup"])
def test_too_new_database_is_refused_by_every_tool(tmp_path, monkeypatch, capsys, action):
    _fake_replay_module(monkeypatch)
    path = tmp_path / "db.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 999")
    target = [] if action == "check" else [str(tmp_path / "b")]
    args = ["db", action, *target, "--db", str(path)]
    assert main(["db", "migrate", "--db", str(path)]) == 1
    assert "schema version 999" in capsys.readouterr().err
    if action == "check":
        assert main(args) == 1
        assert "schema version 999" in capsys.readouterr().err
    else:
        assert main(args) == 0  # a backup copies any version untouched
