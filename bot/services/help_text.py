"""`/help`: every command, one line each, grouped by what a reader wants to do.

One table serves Discord and the console, so neither can forget a command (a test holds the table
against the command tree): each group is a catalogue title and its commands, each command with the
catalogue key of its description (the one Discord shows in its own command list); the turn
commands come from the games' own tables (`Game.commands.verbs`), so a new game's commands need no line
here. How a command is named is the caller's: the console types English names, Discord shows the
reader's localised ones.
"""

from __future__ import annotations

from collections.abc import Callable

from bot import games
from bot.engine.core.game import ACT
from bot.engine.core.text import msg

TURN_GROUP = "help.group_turn"
#: (group title key, ((command as typed in English, description key), ...)), in reading order; the
#: turn group is filled by `help_groups` from the registry, so a game's commands need no line here.
HELP_GROUPS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("help.group_rally", (
        ("rally create", "discord.cmd.rally_create"),
        ("rally join", "discord.cmd.rally_join"),
        ("rally add-ai", "discord.cmd.rally_add_ai"),
        ("rally remove-ai", "discord.cmd.rally_remove_ai"),
        ("rally start", "discord.cmd.rally_start"),
        ("rally leave", "discord.cmd.rally_leave"),
        ("rally kick", "discord.cmd.rally_kick"),
        ("rally abandon", "discord.cmd.rally_abandon"),
        ("stage list", "discord.cmd.stage_list"),
        ("stage show", "discord.cmd.stage_show"),
    )),
    (TURN_GROUP, ()),  # every game's commands and `/act`, from the games' tables (`help_groups`)
    ("help.group_follow", (
        ("rally status", "discord.cmd.rally_status"),
        ("rally board", "discord.cmd.rally_board"),
        ("rally results", "discord.cmd.rally_results"),
        ("rally history", "discord.cmd.rally_history"),
        ("rally web", "discord.cmd.rally_web"),
        ("replay", "discord.cmd.replay"),
        ("rules", "discord.cmd.rules"),
    )),
    ("help.group_league", (
        ("league create", "discord.cmd.league_create"),
        ("league join", "discord.cmd.league_join"),
        ("league leave", "discord.cmd.league_leave"),
        ("league round add", "discord.cmd.league_round_add"),
        ("league round list", "discord.cmd.league_round_list"),
        ("league round cancel", "discord.cmd.league_round_cancel"),
        ("league organisers", "discord.cmd.league_organisers"),
        ("league settings", "discord.cmd.league_settings"),
        ("league web", "discord.cmd.league_web"),
        ("league penalty", "discord.cmd.league_penalty"),
        ("league disqualify", "discord.cmd.league_disqualify"),
        ("steward withdraw", "discord.cmd.steward_withdraw"),
        ("steward change", "discord.cmd.steward_change"),
        ("steward lift-dsq", "discord.cmd.steward_lift"),
        ("steward move", "discord.cmd.steward_move"),
        ("steward kick", "discord.cmd.steward_kick"),
        ("league standings", "discord.cmd.league_standings"),
        ("league results", "discord.cmd.league_results"),
        ("league export", "discord.cmd.league_export"),
        ("league calendar", "discord.cmd.league_calendar"),
    )),
    ("help.group_runs", (
        ("run start", "discord.cmd.run_start"),
        ("run replay", "discord.cmd.run_replay"),
        ("scratch run", "discord.cmd.scratch_run"),
        ("scratch ranking", "discord.cmd.scratch_ranking"),
        ("scratch me", "discord.cmd.scratch_me"),
        ("ratings", "discord.cmd.ratings"),
        ("verify", "discord.cmd.verify"),
    )),
    ("help.group_you", (
        ("notify dm", "discord.cmd.notify_dm"),
        ("notify next", "discord.cmd.notify_next"),
        ("driver", "discord.cmd.driver"),
        ("help", "discord.cmd.help"),
    )),
)


def help_groups() -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """`HELP_GROUPS` with the turn group filled: every registered game's commands (`/roll` …,
    each name once, in their tables' order), then the generic `/act`, then `/hand` (a seat's own
    cards, in a game that hides them)."""
    turn = tuple((verb.name, verb.help) for verb in (*games.verbs(), ACT)) + (("hand", "discord.cmd.hand"),)
    return tuple((title, turn if title == TURN_GROUP else commands) for title, commands in HELP_GROUPS)


def help_sections(named: Callable[[str], str] = str) -> list[tuple[str, list[str]]]:
    """(group title, one line per command) for each group, as messages; `named` turns a command
    as typed in English into the name the reader sees."""
    return [(msg(title), [msg("help.line", command=named(command), text=msg(description))
                          for command, description in commands])
            for title, commands in help_groups()]


def help_lines(named: Callable[[str], str] = str) -> list[str]:
    """The whole help as lines (the console): the intro, then each group's title and lines."""
    lines = [msg("help.intro")]
    for title, entries in help_sections(named):
        lines += [msg("help.group", title=title), *entries]
    return lines
