"""Any text a user can type: no crash, a specific message, and a refusal changes nothing."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.console import Console, ConsoleError, split_command
from bot.engine.errors import RallyError
from bot.services import RallyService
from bot.store import Store
from tests.services.conftest import ALICE, BOB, HERE, running_rally, snapshot_of

WORDS = ["1", "2", "3", "4", "5", "6", "0", "w", "white", "gaz", "weiss", "skid", "cut", "interior", "stop",
         "spare", "s", "end:yes", "dice:", "stage:x", "driver:bob", "'", '"', "-", "ß", "⚠", "🚗", ""]
COMMANDS = ["/roll", "/stop", "/line", "/spare", "/odds", "/rally join", "/rally start", "/rally kick",
            "/rally create", "/rally leave", "/rally abandon", "/rally nonsense", "/help", "/zzz", "/"]

lines = st.tuples(st.sampled_from(COMMANDS),
                  st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=6)), max_size=5))


async def _session(commands: list[tuple[str, list[str]]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "fuzz.sqlite3")
        try:
            service = RallyService(store, seed_source=lambda: 3)
            await running_rally(service)
            console = Console(service, out=None)
            for i, (command, words) in enumerate(commands):
                actor = (ALICE, BOB)[i % 2]
                text = " ".join([command, *words])
                before = await snapshot_of(store)
                try:
                    await console.dispatch(actor, split_command(text))
                except (RallyError, ConsoleError) as exc:
                    assert str(exc).strip(), f"empty message for {text!r}"
                    assert "Traceback" not in str(exc)
                    assert await snapshot_of(store) == before, f"refused {text!r} changed the rally"
        finally:
            await store.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(lines, min_size=5, max_size=25))
def test_random_command_lines_never_crash_and_refusals_change_nothing(commands):
    asyncio.run(_session(commands))
