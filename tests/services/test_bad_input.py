"""Any text a user can type: no crash, a specific message, and a refusal changes nothing."""

from __future__ import annotations

import asyncio
import io
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.console import PLACE, Console, split_command
from bot.console.errors import ConsoleError
from bot.engine.core.errors import RallyError
from bot.services import Place, RallyService
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


@pytest.mark.parametrize("option, value, needle", [
    ("drivers", "abc", "`drivers` must be a plain number, not `abc`"),
    ("deadline_hours", "abc", "`deadline_hours` must be a plain number, not `abc`"),
    ("deadline_hours", "inf", "`deadline_hours` must be a plain number, not `inf`"),
    ("deadline_hours", "1e309", "`deadline_hours` must be a plain number, not `1e309`"),
    ("deadline_hours", "nan", "`deadline_hours` must be a plain number, not `nan`"),
    ("drivers", "2.5", "`drivers` must be a whole number, not `2.5`"),
    ("drivers", "99999999999999999999999", "`drivers` must be a plain number"),
    ("deadline_hours", "-3", "`deadline_hours` must be a number from 1 to 168, not `-3`"),
])
async def test_console_numbers_are_parsed_strictly_and_a_refusal_creates_nothing(store, option, value, needle):
    """`drivers:abc` used to give the generic error and `inf`/`1e309`/`nan` raised."""
    service = RallyService(store, seed_source=lambda: 3)
    out = io.StringIO()
    console = Console(service, out=out)
    await console.run_line(f"alice: /rally create stage:pinewood-sprint {option}:{value}")
    assert needle in out.getvalue() and out.getvalue().startswith("[only alice]"), out.getvalue()
    assert await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id) is None
    assert await store.outbox.all() == []


@pytest.mark.parametrize("stage", ["../../etc/passwd", "/etc/passwd", "..", "x" * 300, "pinewood-sprint/../x",
                                   "C:\\stages\\x"])
async def test_a_stage_name_is_looked_up_in_the_catalogue_never_as_a_path(service, store, stage):
    """Paths and long names are refused by name, and the channel stays free."""
    with pytest.raises(RallyError) as refused:
        await service.create(HERE, ALICE, stage)
    text = str(refused.value)
    assert "There is no stage called" in text or "`stage` is too long (300 characters; at most 265)" in text
    assert await snapshot_of(store) is None
    await service.create(HERE, ALICE, "pinewood-sprint")  # the channel is still free


async def test_a_command_from_a_direct_message_is_refused_by_the_service(service, store):
    """Guild id 0 (a DM) never creates a rally."""
    with pytest.raises(RallyError, match="not in a direct message"):
        await service.create(Place(0, 5), ALICE, "pinewood-sprint")
    assert await store.rallies.list_by_status(("lobby", "running")) == []
