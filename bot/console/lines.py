"""Typed console lines: `name: /command options` read into a `Command`, and the console user
names turned into stable ids.

A line is `alice: /rally create stage:pinewood-sprint`; `alice@fr: …` also sets that reader's
language. Options are `key:value` as Discord reads them (`stage:a, b` goes on after the comma).
"""

from __future__ import annotations

import hashlib
import re
import shlex
from dataclasses import dataclass

from bot.console.errors import ConsoleError
from bot.i18n import t

#: `name[@lang]: /command …`
LINE = re.compile(r"^\s*([\w.-]+)(?:@([a-z]{2}))?\s*:\s*(/\S.*)$")

#: commands that need a subcommand, and the message naming them
_SUBCOMMANDS = {"rally": "console.rally_sub", "league": "console.league_sub", "run": "console.run_sub",
                "notify": "console.notify_sub", "stage": "console.stage_sub", "steward": "console.steward_sub"}
_SCRATCH = ("ranking", "run", "me")


def user_id(name: str) -> int:
    """A stable id per console user name, so a database can be reopened and played on."""
    return int.from_bytes(hashlib.sha256(name.lower().encode()).digest()[:6], "big")


@dataclass
class Command:
    name: str  # e.g. "rally create", "roll", "league round add"
    words: list[str]  # free words after the command
    options: dict[str, str]  # key:value options


def split_command(text: str) -> Command:
    try:
        parts = shlex.split(text.lstrip("/"))
    except ValueError:
        raise ConsoleError(t("console.quotes")) from None
    if not parts:
        raise ConsoleError(t("console.empty"))
    head = parts[0].lower()
    rest = parts[1:]
    if head in _SUBCOMMANDS:
        if not rest or ":" in rest[0]:
            raise ConsoleError(t(_SUBCOMMANDS[head]))
        head, rest = f"{head} {rest[0].lower()}", rest[1:]
        if head == "league round":
            if not rest or ":" in rest[0]:
                raise ConsoleError(t("console.round_sub"))
            head, rest = f"league round {rest[0].lower()}", rest[1:]
    elif head == "scratch":  # `/scratch` and `/scratch week:…` are the ranking
        if rest and rest[0].lower() in _SCRATCH:
            head, rest = f"scratch {rest[0].lower()}", rest[1:]
        else:
            head = "scratch ranking"
    options: dict[str, str] = {}
    words = []
    last = None  # the option a following plain word may still belong to
    for part in rest:
        key, sep, value = part.partition(":")
        if sep and key.isidentifier():
            last = key.lower()
            options[last] = value
        elif last is not None and (options[last] == "" or options[last].endswith(",")):
            # `stage:a, b` and `stage: a` as Discord reads them: the value goes on after the comma
            options[last] = f"{options[last]} {part}" if options[last] else part
        else:
            last = None
            words.append(part)
    return Command(head, words, options)


def yes(value: str | None) -> bool:
    """A typed yes (`yes`, `on`, `true`, `1`…); anything else is no."""
    return (value or "").lower() in ("yes", "y", "true", "on", "1")
