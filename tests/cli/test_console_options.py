"""The console reads Discord's option names and refuses any other by name (it used to ignore
`deadline:12` and leave 24 h): its table (`bot.console.options`) is the slash command tree's."""

from __future__ import annotations

import pytest

from bot.cli.commands import build_tree
from bot.cogs.tree_info import summary
from bot.console.errors import ConsoleError
from bot.console.lines import split_command
from bot.console.options import OPTIONS, check_options
from tests.cli.test_console_sessions import console


async def test_the_console_knows_every_command_with_the_options_discord_gives_it():
    payload, errors = await build_tree()
    assert errors == {}
    assert {row["name"]: tuple(o["name"] for o in row.get("options", [])) for row in summary(payload)} == OPTIONS


@pytest.mark.parametrize("line, known", [
    ("/rally create stage:black-moor deadline:12", "stage:, drivers:, deadline_hours:"),
    ("/league round add stage:black-moor course:a,b", "stage:, opens:, closes:"),
    ("/steward withdraw driver:bob round:1 reason:x secs:10", "driver:, round:, reason:, league:"),
])
def test_an_option_a_command_has_not_is_refused_naming_the_ones_it_has(line, known):
    with pytest.raises(ConsoleError) as refused:
        check_options(split_command(line))
    assert known in str(refused.value)


def test_deadline_hours_is_read_and_deadline_refused_in_a_session(tmp_path):
    out = console(tmp_path / "c.sqlite3", "alice: /rally create stage:black-moor deadline:12\n"
                                          "alice: /rally create stage:black-moor deadline_hours:12\n")
    first, second = out.splitlines()[:2]
    assert first.startswith("[only alice] `/rally create` has no option `deadline:`. Its options: stage:")
    assert second.startswith("[channel] alice opens a rally") and "12 h per turn" in second
