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
from tests.docs_text import section


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


def test_the_readme_stewarding_season_plays_every_correction_with_its_trail(tmp_path):
    session = section("console-stewarding").split("```text\n")[1].split("```")[0]
    out = console(tmp_path / "c.sqlite3", session, "--seed", "1", "--now", "2026-11-23T08:00Z", "--admins", "mod")
    assert "[only mod]" not in out  # nothing refused
    last = out[out.rindex("Results of Sunday Cup — round 1 updated"):]
    for line in ("[channel] 1. bob — 2:10 (+0:00) — 25 pts", "Penalty of bob changed to +20 s by @mod",
                 "Penalty of bob withdrawn by @mod: appeal upheld", "Disqualification of alice lifted by @mod"):
        assert line in last
    assert "round 2 moved by @mod" in out and "bob was removed from Sunday Cup" in out
    assert out.rstrip().endswith("[channel] 👋 alice left Sunday Cup. Their results in past rounds stay.")


def test_autopilot_drives_the_run_it_was_switched_on_in_and_not_the_next_rounds(tmp_path):
    session = ("mod: /league create name:Cup timezone:UTC\n"
               "mod: /league round add stage:pinewood-sprint opens:now closes:+1d\n"
               "mod: /league round add stage:pinewood-sprint opens:+2d closes:+3d\n"
               "alice: /league join\nalice: /run start\nalice: /autopilot\nmod: /clock +2d\nalice: /run start\n")
    out = console(tmp_path / "c.sqlite3", session, "--seed", "1", "--now", "2026-11-23T08:00Z", "--admins", "mod")
    first, second = out.split("Your run is in #run-alice-r1")[1].split("Your run is in #run-alice-r2")
    assert "[autopilot] alice:" in first
    assert "[autopilot]" not in second and "alice, your turn" in second


def test_a_leagues_times_are_written_in_its_zone_and_other_times_in_utc():
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    from bot.services.play.deadlines import plain_time
    moment = datetime(2026, 11, 23, 19, 0, tzinfo=UTC)
    assert plain_time(moment) == "2026-11-23 19:00 UTC"
    assert plain_time(moment.astimezone(ZoneInfo("Europe/Paris"))) == "2026-11-23 20:00 Europe/Paris"
