"""The options each command takes, by the names Discord gives them (`python -m bot commands`): the
console reads the same names and refuses any other, naming the ones the command has, instead of
ignoring it (`deadline:12` is not `deadline_hours:12`). A test compares this table with the slash
command tree, so the two cannot drift; the few options only the console has are `CONSOLE_ONLY`."""

from __future__ import annotations

from bot.console.errors import ConsoleError
from bot.console.lines import Command
from bot.i18n import t

OPTIONS: dict[str, tuple[str, ...]] = {
    "act": ("action",),
    "attack": ("dice",),
    "driver": ("user", "game"),
    "hand": ("driver",),
    "help": (),
    "league round add": ("stage", "opens", "closes", "day", "hour", "rounds", "power_stage", "assistance", "league"),
    "league round list": ("league",),
    "league round cancel": ("round", "reason", "league"),
    "league create": ("name", "timezone", "channel", "points", "drop", "ruleset", "modules", "dice", "language",
                      "game"),
    "league join": ("league",),
    "league leave": ("league",),
    "league organisers": ("role", "add", "remove", "league"),
    "league web": ("visibility", "league"),
    "league settings": ("world_name",),
    "league penalty": ("driver", "seconds", "reason", "round", "league"),
    "league disqualify": ("driver", "round", "reason", "league"),
    "league standings": ("league",),
    "league results": ("round", "league"),
    "league export": ("league",),
    "league calendar": ("league",),
    "line": ("line",),
    "notify dm": ("value",),
    "notify next": ("value",),
    "odds": ("dice",),
    "order": ("order",),
    "pass": (),
    "place": ("die",),
    "play": ("cards", "store", "shortcut", "draw"),
    "rally create": ("stage", "drivers", "deadline_hours", "ruleset", "sisu", "shakedown", "ai_on_timeout",
                     "assistance", "order", "modules", "language", "game", "preset"),
    "rally join": (),
    "rally leave": (),
    "rally start": (),
    "rally status": (),
    "rally board": (),
    "rally abandon": (),
    "rally kick": ("driver",),
    "rally results": ("rally",),
    "rally history": (),
    "rally add-ai": ("count", "style"),
    "rally remove-ai": ("name",),
    "rally web": ("visibility",),
    "ratings": ("game", "scope"),
    "replay": ("rally",),
    "reveal": ("stage",),
    "roll": ("dice", "end"),
    "rules": ("game", "ruleset"),
    "run start": ("league", "round", "ghost"),
    "run replay": ("driver", "round", "turn", "league"),
    "scratch ranking": ("game", "week"),
    "scratch run": ("game", "ghost"),
    "scratch me": ("game",),
    "spare": (),
    "stage list": ("game",),
    "stage show": ("name", "game"),
    "steward withdraw": ("driver", "round", "reason", "league"),
    "steward change": ("driver", "round", "seconds", "reason", "league"),
    "steward lift-dsq": ("driver", "round", "reason", "league"),
    "steward move": ("round", "reason", "opens", "closes", "league"),
    "steward kick": ("driver", "reason", "league"),
    "stop": (),
    "tires": ("tires",),
    "verify": ("file",),
}

#: Options only the console has: `/verify`"s published hash (on Discord the bot knows it).
CONSOLE_ONLY: dict[str, tuple[str, ...]] = {"verify": ("seed_sha256",)}


def check_options(cmd: Command) -> None:
    """Refuse an option the command does not have, naming the ones it has (a console-only
    command, such as `/clock`, is not in the table and is left to its own reader)."""
    known = OPTIONS.get(cmd.name)
    if known is None:
        return
    allowed = known + CONSOLE_ONLY.get(cmd.name, ())
    for option in cmd.options:
        if option not in allowed:
            raise ConsoleError(t("console.unknown_option", command="/" + cmd.name, option=option[:40],
                                 known=", ".join(f"{name}:" for name in allowed) or "—"))
