"""Every extension loads; command names are unique and everything has a description; the
`python -m bot commands` JSON and the README's table agree with the live tree; the README's
invite asks for exactly the permissions the bot checks."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.client import EXTENSIONS, RallyBot
from bot.cogs.permissions import missing_permissions, needed_permissions
from bot.cogs.tree_info import markdown_table, summary, tree_payload
from bot.views.turn_buttons import TEMPLATE, TurnButton
from tests.docs_text import section

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def bot():
    b = RallyBot(start_loops=False, sync=False)
    await b._async_setup_hook()  # what login() does first (an AutoShardedBot closes its event queue)
    await b.load_extensions()
    yield b
    await b.close()


def walk(command: dict, prefix: str = ""):
    """(full name, item) for every command, group and option of a payload entry."""
    name = f"{prefix} {command['name']}".strip()
    yield name, command
    for option in command.get("options", []):
        if option["type"] in (1, 2):
            yield from walk(option, name)
        else:
            yield f"{name} {option['name']}", option


async def test_every_extension_loads_without_error(bot):
    assert bot.extension_errors == {}
    assert set(bot.extensions) == set(EXTENSIONS)


async def test_command_names_are_unique_and_everything_is_described(bot):
    payload = tree_payload(bot.tree)
    names = [row["name"] for row in summary(payload)]
    assert len(names) == len(set(names))
    assert sorted(names) == sorted(["rally create", "rally join", "rally leave", "rally start", "rally status",
                                    "rally board", "rally abandon", "rally kick", "rally results", "rally history",
                                    "rally add-ai", "rally remove-ai", "rally web", "act", "roll", "stop", "line",
                                    "spare", "odds", "help", "tires", "attack", "order", "place",
                                    "league create", "league join", "league leave", "league organisers",
                                    "league settings", "league web", "league round add", "league round list",
                                    "league round cancel",
                                    "league penalty", "league disqualify", "league standings", "league results",
                                    "league export", "league calendar", "notify dm", "notify next",
                                    "run start", "run replay", "scratch ranking", "scratch run", "scratch me", "rules",
                                    "verify", "stage list", "stage show", "hand", "play", "reveal", "pass",
                                        "ratings", "driver", "replay", "steward withdraw", "steward change",
                                    "steward lift-dsq", "steward move", "steward kick"])
    for command in payload:
        for name, item in walk(command):
            assert item["description"] and item["description"] != "…", name
            assert len(item["description"]) <= 100, name
            assert re.fullmatch(r"[a-z0-9_-]{1,32}", item["name"]), name


async def test_a_broken_extension_is_logged_and_the_others_still_load(caplog):
    b = RallyBot(start_loops=False, sync=False, extensions=("bot.cogs.help", "bot.cogs.does_not_exist"))
    await b._async_setup_hook()
    try:
        await b.load_extensions()
        assert "bot.cogs.does_not_exist" in b.extension_errors
        assert [c.name for c in b.tree.get_commands()] == ["help"]
        assert "could not load extension bot.cogs.does_not_exist" in caplog.text
    finally:
        await b.close()


async def test_turn_buttons_are_registered_as_persistent_dynamic_items(tmp_path):
    from tests.discord.fakes import Harness

    async with Harness(tmp_path / "items.sqlite3") as h:
        store = h.bot._connection._view_store
        assert any(pattern.pattern == TEMPLATE and item is h.bot.turn_button and issubclass(item, TurnButton)
                   for pattern, item in store._dynamic_items.items())


async def test_the_commands_cli_prints_the_live_tree_without_connecting(bot):
    result = subprocess.run([sys.executable, "-m", "bot", "commands"], capture_output=True, text=True, cwd=ROOT,
                            timeout=120, env={"PATH": "", "PYTHONPATH": str(ROOT), "RALLYBOT_DOTENV": "/nonexistent"})
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == summary(tree_payload(bot.tree))


async def test_the_readme_command_table_matches_the_tree(bot):
    table = "\n".join(line for line in section("commands").splitlines() if line.startswith("|"))
    assert table == markdown_table(summary(tree_payload(bot.tree))), "run `python -m bot commands --markdown`"


def test_the_readme_invite_asks_for_what_the_bot_checks_and_no_thread_creation():
    """The invite link's permissions integer is `needed_permissions()`: enough to run a rally in
    a channel and in a thread, and no Create Public Threads (the bot posts in place)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    asked = needed_permissions()
    assert f"permissions={asked.value}`" in readme
    assert asked.send_messages and asked.send_messages_in_threads and not asked.create_public_threads
    assert missing_permissions(asked, in_thread=False) == [] and missing_permissions(asked, in_thread=True) == []
