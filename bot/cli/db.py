"""`python -m bot db migrate|backup|check`: look after the SQLite database from the command line.

- `migrate` creates the database or brings it to the current schema and prints the version;
- `backup PATH` copies it online (safe while the bot runs) and prints the path and size; it does
  not migrate, so a backup taken before an upgrade holds the old schema untouched;
- `check` replays every rally's action log with the rules engine and compares the result with the
  stored snapshot, and checks every logged action is in the log's canonical form; exit 1 and one
  line per mismatch if anything differs.

`--db PATH` picks the database; default `RALLYBOT_DB`, else `data/rallybot.sqlite3`.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.cli import Subparsers
from bot.paths import default_db_path

REPLAY_MODULE = "bot.services.replay"
NO_REPLAY = "db check needs the rules engine (bot.services.replay), not available yet"


def register(subparsers: Subparsers) -> None:
    """Add `db` and its actions to the `python -m bot` parser."""
    parser = subparsers.add_parser("db", help="database tools: migrate, backup, check")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db", type=Path, default=None, metavar="PATH",
        help="database file (default: RALLYBOT_DB or data/rallybot.sqlite3)",
    )
    actions = parser.add_subparsers(dest="db_action", metavar="ACTION")
    migrate = actions.add_parser(
        "migrate", parents=[common], help="create or upgrade the database; print its schema version"
    )
    migrate.set_defaults(func=cmd_migrate)
    backup = actions.add_parser("backup", parents=[common], help="online backup to PATH (safe while the bot runs)")
    backup.add_argument("path", type=Path, metavar="PATH", help="backup file to write (replaced if it exists)")
    backup.set_defaults(func=cmd_backup)
    check = actions.add_parser(
        "check", parents=[common], help="replay every rally and compare with its stored snapshot"
    )
    check.set_defaults(func=cmd_check)

    def usage(_: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return 2

    parser.set_defaults(func=usage)


def _db_path(args: argparse.Namespace) -> Path:
    return args.db if getattr(args, "db", None) is not None else default_db_path()


def _existing(path: Path) -> bool:
    if path.is_file():
        return True
    print(f"no database at {path} (run `python -m bot db migrate` to create one)", file=sys.stderr)
    return False


def cmd_migrate(args: argparse.Namespace) -> int:
    from bot.store import Store, StoreError
    from bot.store.legacy_actions import UntranslatableAction

    path = _db_path(args)

    async def run() -> int:
        async with Store.open(path) as store:
            return await store.schema_version()

    try:
        version = asyncio.run(run())
    except (StoreError, UntranslatableAction) as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"{path}: schema version {version}")
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    from bot.store.connection import Database

    path = _db_path(args)
    if not _existing(path):
        return 1

    async def run() -> int:
        db = await Database.open(path)
        try:
            return await db.backup(args.path)
        finally:
            await db.close()

    try:
        size = asyncio.run(run())
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"{args.path}: {size} bytes")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    try:
        from bot.services.replay import log_problem, replay_snapshot
    except ImportError as exc:
        if exc.name != REPLAY_MODULE:
            raise
        print(NO_REPLAY, file=sys.stderr)
        return 2
    from bot.store import Store, StoreError

    path = _db_path(args)
    if not _existing(path):
        return 1

    async def run():
        async with Store.open(path, migrate=False) as store:
            return await store.check(replay_snapshot, log_problem)

    try:
        report = asyncio.run(run())
    except StoreError as exc:
        print(exc, file=sys.stderr)
        return 1
    if report.ok:
        print(f"ok: {report.rallies} rallies, {report.actions} actions")
        return 0
    for mismatch in report.mismatches:
        print(mismatch)
    print(f"{len(report.mismatches)} mismatches in {report.rallies} rallies, {report.actions} actions")
    return 1
