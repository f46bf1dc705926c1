"""The slash-command tree as data: the exact sync payload, its hash, a summary and a table.

`python -m bot commands` prints the summary (no connection to Discord; `--localized` adds each
command's and option's French and German names and descriptions); the bot syncs only when
`tree_hash` of `sync_payload` (localisations included) differs from the last synced one; the
README's command table is `markdown_table`, and a test checks that they agree.
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


async def sync_payload(tree: app_commands.CommandTree,
                       guild: discord.abc.Snowflake | None = None) -> list[dict]:
    """What `tree.sync(guild=...)` sends, sorted by name: with the tree's translator (the bot
    sets one), each entry carries `name_localizations` and `description_localizations`, as
    discord.py builds them for a sync; without one, `tree_payload`."""
    return sorted(await sent_payload(tree, guild), key=lambda c: c["name"])


async def sent_payload(tree: app_commands.CommandTree,
                       guild: discord.abc.Snowflake | None = None) -> list[dict]:
    """What `tree.sync(guild=...)` sends, in the order it sends it: the indexes of Discord's
    refusal of a sync (a 400 "Invalid Form Body") count in this list."""
    translator = tree.translator
    if translator is None:
        return [command.to_dict(tree) for command in tree.get_commands(guild=guild)]
    return [await command.get_translated_payload(tree, translator) for command in tree.get_commands(guild=guild)]


def tree_hash(payload: list[dict]) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _localized(out: dict[str, Any], item: dict) -> dict[str, Any]:
    """`out` with the item's localised name and description (locale → text), when it has any."""
    for key in ("name_localizations", "description_localizations"):
        if item.get(key):
            out[key] = dict(sorted(item[key].items()))
    return out


def _option(option: dict, localized: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"name": option["name"], "description": option["description"],
                           "type": OPTION_TYPES.get(option["type"], option["type"]),
                           "required": bool(option.get("required", False))}
    for key in ("min_value", "max_value"):
        if key in option:
            out[key] = option[key]
    if option.get("choices"):
        out["choices"] = [c["value"] for c in option["choices"]]
        if localized:
            names = {str(c["value"]): dict(sorted(c["name_localizations"].items()))
                     for c in option["choices"] if c.get("name_localizations")}
            if names:
                out["choice_localizations"] = names
    if option.get("autocomplete"):
        out["autocomplete"] = True
    return _localized(out, option) if localized else out


def summary(payload: list[dict], localized: bool = False) -> list[dict]:
    """Every command by full name (`rally create`), with its description and options; with
    `localized`, also the localisations of a translated payload (`sync_payload`): a command's
    full name per locale (`course rejoindre`), its description, its options' names, descriptions
    and choice names."""
    rows: list[dict] = []

    def walk(prefix: str, prefixes: dict[str, str], command: dict) -> None:
        name = f"{prefix} {command['name']}".strip()
        own = command.get("name_localizations") or {}
        locales = sorted(set(prefixes) | set(own))
        names = {loc: f"{prefixes.get(loc, prefix)} {own.get(loc, command['name'])}".strip() for loc in locales}
        subs = [o for o in command.get("options", []) if o["type"] in (1, 2)]
        if subs:
            for sub in subs:
                walk(name, names, sub)
            return
        row: dict[str, Any] = {"name": name, "description": command["description"],
                               "options": [_option(o, localized) for o in command.get("options", [])]}
        if localized:
            row = _localized(row, {**command, "name_localizations": names})
            row["options"] = row.pop("options")  # keep options last: easier to read
        rows.append(row)

    for command in payload:
        walk("", {}, command)
    return rows


def markdown_table(rows: list[dict]) -> str:
    """The README's command table; optional options in [brackets]."""
    lines = ["| command | options | what it does |", "| --- | --- | --- |"]
    for row in rows:
        options = " ".join(f"`{o['name']}`" if o["required"] else f"[`{o['name']}`]" for o in row["options"])
        lines.append(f"| `/{row['name']}` | {options or '—'} | {row['description']} |")
    return "\n".join(lines)
