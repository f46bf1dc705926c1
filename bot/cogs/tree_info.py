"""The slash-command tree as data: the exact sync payload, its hash, a summary and a table.

`python -m bot commands` prints the summary (no connection to Discord); the bot syncs only when
`tree_hash` differs from the last synced one; the README's command table is `markdown_table`,
and a test checks that they agree.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import discord
from discord import app_commands

OPTION_TYPES = {t.value: t.name for t in discord.AppCommandOptionType}


def tree_payload(tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None = None) -> list[dict]:
    """What `tree.sync(guild=...)` would send, sorted by name."""
    return sorted((command.to_dict(tree) for command in tree.get_commands(guild=guild)), key=lambda c: c["name"])


def tree_hash(payload: list[dict]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _option(option: dict) -> dict[str, Any]:
    out: dict[str, Any] = {"name": option["name"], "description": option["description"],
                           "type": OPTION_TYPES.get(option["type"], option["type"]),
                           "required": bool(option.get("required", False))}
    for key in ("min_value", "max_value"):
        if key in option:
            out[key] = option[key]
    if option.get("choices"):
        out["choices"] = [c["value"] for c in option["choices"]]
    if option.get("autocomplete"):
        out["autocomplete"] = True
    return out


def summary(payload: list[dict]) -> list[dict]:
    """Every command by full name (`rally create`), with its description and options."""
    rows: list[dict] = []

    def walk(prefix: str, command: dict) -> None:
        name = f"{prefix} {command['name']}".strip()
        subs = [o for o in command.get("options", []) if o["type"] in (1, 2)]
        if subs:
            for sub in subs:
                walk(name, sub)
            return
        rows.append({"name": name, "description": command["description"],
                     "options": [_option(o) for o in command.get("options", [])]})

    for command in payload:
        walk("", command)
    return rows


def markdown_table(rows: list[dict]) -> str:
    """The README's command table; optional options in [brackets]."""
    lines = ["| command | options | what it does |", "| --- | --- | --- |"]
    for row in rows:
        options = " ".join(f"`{o['name']}`" if o["required"] else f"[`{o['name']}`]" for o in row["options"])
        lines.append(f"| `/{row['name']}` | {options or '—'} | {row['description']} |")
    return "\n".join(lines)
