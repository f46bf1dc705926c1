"""The connection: pragmas, one-call transactions on aiosqlite's thread, cancellation, clean exit."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from store_helpers import log_snapshot, new_rally

from bot.store import Store
from bot.store.sqlite import BodyAwaitedOutside

ROOT = Path(__file__).resolve().parents[2]


async def test_pragmas_are_set(sqlite_store):
    store = sqlite_store
    async def pragma(name):
        return (await store.db.fetch_one(f"PRAGMA {name}"))[0]

    assert await pragma("journal_mode") == "wal"
    assert await pragma("synchronous") == 1  # NORMAL
    assert await pragma("foreign_keys") == 1
    assert await pragma("busy_timeout") == 5000


def test_the_store_uses_no_private_name_of_aiosqlite():
    """Public API only (aiosqlite is pinned, but a private name may change in any release)."""
    import ast
    from pathlib import Path

    import bot.store as package

    for path in Path(package.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("_execute", "_conn", "_thread", "_tx"):
                owner = node.value
                assert isinstance(owner, ast.Name) and owner.id == "self", f"{path.name}:{node.lineno}: {node.attr}"


async def test_a_transaction_body_runs_whole_on_the_database_thread(sqlite_store):
    store = sqlite_store
    """One call on the store's own thread: nothing of this process can run inside it."""
    seen = []

    async def body(tx):
        seen.append((threading.get_ident(), await tx.execute("SELECT 1")))

    await store.db.write(body)
    assert seen[0][0] != threading.get_ident()


async def test_a_body_that_awaits_anything_else_is_refused_and_rolled_back(sqlite_store):
    store = sqlite_store
    """A transaction never waits for Discord (or anything): such a body is refused, unwritten."""

    async def waits(tx):
        await tx.execute("INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (1, '{}', 'x')")
        await asyncio.sleep(0)

    with pytest.raises(BodyAwaitedOutside):
        await store.db.write(waits)
    assert await store.guilds.get(1) == {}


async def test_an_error_inside_a_transaction_rolls_it_back(store):
    async def half_then_fail(tx):
        await tx.execute("INSERT INTO guild_settings (guild_id, settings, updated_at) VALUES (1, '{}', 'x')")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        await store.db.write(half_then_fail)
    assert await store.guilds.get(1) == {}
    await store.guilds.put(1, {"ok": True})  # no transaction left open
    assert await store.guilds.get(1) == {"ok": True}


async def test_cancelled_callers_leave_no_half_written_rally(store):
    rally = await new_rally(store)
    log: list[str] = []

    async def press(i):
        current = (await store.rallies.get(rally.id)).version
        await store.append_action(rally.id, current, 1, f"a{i}", log_snapshot([*log, f"a{i}"]))

    for i in range(30):
        task = asyncio.create_task(press(i))
        for _ in range(i % 4):
            await asyncio.sleep(0)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        log[:] = [a.action for a in await store.actions.list(rally.id)]
    after = await store.rallies.get(rally.id)
    actions = await store.actions.list(rally.id)
    assert after.version == len(actions)
    assert [a.seq for a in actions] == list(range(1, len(actions) + 1))
    assert after.snapshot == (log_snapshot([a.action for a in actions]) if actions else None)
    assert await store.append_action(rally.id, after.version, 1, "still works", "[]") == after.version + 1


async def test_close_is_idempotent_and_a_closed_store_refuses_work(db_path):
    store = await Store.open(db_path)
    await store.close()
    await store.close()
    with pytest.raises(RuntimeError, match="closed"):
        await store.rallies.find(1)


@pytest.mark.parametrize("body", ["pass", "raise SystemExit(3)"])
def test_the_process_exits_after_using_the_store(tmp_path, body):
    """A database thread left running would hang the interpreter at exit; the store always closes."""
    code = textwrap.dedent(f"""
        import asyncio, sys
        sys.path.insert(0, {str(ROOT)!r})
        from bot.store import Store
        async def main():
            async with Store.open({str(tmp_path / 'exit.sqlite3')!r}) as store:
                await store.guilds.put(1, {{}})
                {body}
        asyncio.run(main())
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert done.returncode in (0, 3), done.stderr
