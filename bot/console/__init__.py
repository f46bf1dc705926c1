"""The offline console: play a rally or a whole championship in a terminal exactly as on Discord,
through the same services, with a clock you can move.

Each input line is `name: /command options`, e.g. `alice: /rally create stage:pinewood-sprint`,
`bob: /rally join`, `alice: /roll 3 white`. Replies are printed with who sees them:
`[channel]` for everybody in the main channel, `[only alice]` for a private (ephemeral) reply or a
DM, `[#run-alice-r1]` for a post in a driver's run (on Discord: the private thread the bot makes).

Championships: `/league …`, `/run …`, `/scratch …`, `/verify` call the league services.
The console owns the clock (`ConsoleClock`, bot/console/clock.py): `/clock +3d` moves it forward and runs every job that
falls due on the way at its own time (round opens, reminders, closes, turn deadlines), so a season
can be tried offline in minutes; `/clock +30h offline` jumps as if the bot had been down, so each
overdue job runs once, late, with its note. Due jobs also run before and after every command.

Console users are plain members; the names given with `--admins` have Manage Server (they may
create leagues), and `--roles bob:987654321987654321` gives a member a role (a league's organisers' role).

The package's parts, each named after what it holds: `lines` (a typed line → `Command`),
`commands` (`Command` → the service call), `printer` (what a reader sees), `sender` (the outbox
printed, files written), `channels` (the main channel, runs' channels and their labels), `clock`
and `jobs` (the console's time and the jobs it runs), `autopilot`, and `loop` (the `Console` that
wires them and reads lines).
"""

from __future__ import annotations

from bot.console.channels import GUILD_NAME, PLACE
from bot.console.commands import TURN_COMMANDS
from bot.console.dice_script import load_dice_script
from bot.console.errors import ConsoleError
from bot.console.jobs import CLOCK_SETTING
from bot.console.lines import Command, split_command, user_id
from bot.console.loop import Console, run_console
from bot.console.sender import written_count

__all__ = ["CLOCK_SETTING", "GUILD_NAME", "PLACE", "TURN_COMMANDS", "Command", "Console", "ConsoleError",
           "load_dice_script", "run_console", "split_command", "user_id", "written_count"]
