"""Move each game's own message keys out of the shared catalogue into its package.

`python tools/split_catalogue.py [--dry-run]`, from the checkout's top. The shared catalogue
(`data/i18n/<lang>/*.json`) keeps the bot's own words, those every game uses; a key goes to
`bot/engine/<game>/text/<lang>.json` when it is the game's alone:

- its namespace is the game's (`dirt.…`, `roadrally.…`, the painter's `render.dirt_…`, `render.rr_…`);
- or every file of `bot/` that names it (literally, or through a place that builds it from a
  value, both as the house test `tests/house/test_every_key_exists.py` finds them) is in that
  game's own folders (`bot/engine/<game>/`, `bot/render/<game>/`);
- or it is the Discord name of a command, option or choice (`name.…`, `choice.…`) that only that
  game's commands have (the slash-command tree, `python -m bot commands`).

Every language moves the same keys, in the order its shared file wrote them, after the keys the
game's file has already (running it again after a merge moves only what was added since); files
are written as the catalogue writes them (two-space JSON, UTF-8, a final newline).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

I18N = ROOT / "data" / "i18n"
ENGINE = ROOT / "bot" / "engine"
#: key prefixes that are a game's own whether or not the code names the whole key (its painter's
#: words are looked up through tables of short names)
PREFIXES = {"dirt": ("dirt.", "render.dirt_"), "roadrally": ("roadrally.", "render.rr_")}


def _games() -> list[str]:
    return sorted(d.name for d in ENGINE.iterdir() if (d / "__init__.py").exists() and d.name != "core")


def _owner(relative: str, games: Iterable[str]) -> str:
    """The game whose own folders hold `relative` (a path under bot/), else "shared"."""
    for game in games:
        if relative.startswith((f"engine/{game}/", f"render/{game}/")):
            return game
    return "shared"


def _users() -> dict[str, set[str]]:
    """key → the files of bot/ that name it (a literal key, or a place that builds it)."""
    from tests.house.test_every_key_exists import BUILT, LITERAL

    users: dict[str, set[str]] = {}
    for relative, keys in LITERAL.items():
        for key in keys:
            users.setdefault(key, set()).add(relative)
    for (relative, _), values in BUILT.items():
        for key in values() if values is not None else ():
            users.setdefault(key, set()).add(relative)
    return users


def _command_words(games: list[str]) -> dict[str, str]:
    """`name.…` / `choice.…` key → the one game whose commands alone use that word."""
    from bot import games as registry
    from bot.cli.commands import build_tree

    payload, _ = asyncio.run(build_tree())
    verbs = {verb.name for verb in registry.verbs()}
    shared: set[str] = set()

    def walk(node: dict) -> None:
        shared.add(f"name.{node['name']}")
        shared.update(f"choice.{choice['value']}" for choice in node.get("choices") or ())
        for option in node.get("options") or ():
            walk(option)

    for command in payload:
        if command["name"] not in verbs:
            walk(command)
    owners: dict[str, set[str]] = {}
    for game in registry.games():
        for verb in game.commands.verbs:
            owners.setdefault(f"name.{verb.name}", set()).add(game.id)
            for option in verb.options:
                owners.setdefault(f"name.{option.name}", set()).add(game.id)
                for value, _ in option.choices:
                    owners.setdefault(f"choice.{value}", set()).add(game.id)
    return {key: next(iter(ids)) for key, ids in owners.items()
            if len(ids) == 1 and key not in shared and next(iter(ids)) in games}


def plan() -> dict[str, str]:
    """key of the shared English catalogue → the game it moves to (keys that stay are absent)."""
    games = _games()
    users = _users()
    words = _command_words(games)
    moves: dict[str, str] = {}
    for path in sorted((I18N / "en").glob("*.json")):
        for key in json.loads(path.read_text(encoding="utf-8")):
            by_prefix = [game for game, heads in PREFIXES.items() if key.startswith(heads)]
            owners = {_owner(relative, games) for relative in users.get(key, ())}
            if by_prefix:
                moves[key] = by_prefix[0]
            elif len(owners) == 1 and owners != {"shared"}:
                moves[key] = owners.pop()
            elif key in words:
                moves[key] = words[key]
    return moves


def _write(path: Path, entries: dict[str, str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(entries, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def apply(moves: dict[str, str], dry_run: bool) -> dict[tuple[str, str], int]:
    """Move the keys in every language; (game, lang) → how many keys moved."""
    counts: dict[tuple[str, str], int] = {}
    for folder in sorted(p for p in I18N.iterdir() if p.is_dir()):
        lang = folder.name
        own: dict[str, dict[str, str]] = {}
        for game in sorted(set(moves.values())):
            target = ENGINE / game / "text" / f"{lang}.json"
            own[game] = json.loads(target.read_text(encoding="utf-8")) if target.exists() else {}
        for path in sorted(folder.glob("*.json")):
            entries = json.loads(path.read_text(encoding="utf-8"))
            kept = {key: text for key, text in entries.items() if key not in moves}
            for key, text in entries.items():
                if key in moves:
                    if key in own[moves[key]]:
                        raise SystemExit(f"{key} is in {path} and in {moves[key]}'s {lang}.json already")
                    own[moves[key]][key] = text
                    counts[(moves[key], lang)] = counts.get((moves[key], lang), 0) + 1
            if not dry_run and kept != entries:
                _write(path, kept)
        if not dry_run:
            for game, entries in own.items():
                _write(ENGINE / game / "text" / f"{lang}.json", entries)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="count what would move, write nothing")
    args = parser.parse_args()
    for (game, lang), count in sorted(apply(plan(), args.dry_run).items()):
        print(f"{game} {lang}: {count} keys")


if __name__ == "__main__":
    main()
