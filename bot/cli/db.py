"""`python -m bot db migrate|backup|check|copy|ratings`: look after the database from the command line.

- `migrate` creates the database or brings it to the current schema and prints the version;
- `backup PATH` copies it online (safe while the bot runs) and prints the path and size; it does
  not migrate, so a backup taken before an upgrade holds the old schema untouched. From
  PostgreSQL it writes a portable export: an SQLite file any rallybot opens (`pg_dump` is the
  tool for a backup of the server itself);
- `check` replays the action log of every rally changed since the last check (`--all`: every
  rally, and the database's own integrity check) with the rules engine, on every core, compares
  the result with the stored snapshot, and checks every logged action is in the log's canonical
  form; exit 1 and one line per mismatch if anything differs;
- `careers --rebuild` writes every driver's career stats again from the logs of the
  ended rallies (`CareerService.rebuild`: the same rows the end of each rally wrote) and prints
  how many;
- `copy --to TARGET` copies every row into another, empty database (SQLite → PostgreSQL to move
  to a host without a disk, or back), then runs `check` on the target and compares the row
  counts of every table;
- `stats` prints the bot processes running on the database (their shards, their last heartbeat)
  and, per shard, the posts owed (and how old the oldest is) and the jobs due and not done (and
  the lag of the most overdue one): a shard whose process is down or falls behind shows a growing
  queue; `--shard-count N` (default: the running processes', else SHARD_COUNT, else one line);
- `ratings` prints how many games and drivers have ratings; `--rebuild` first recomputes every
  rating from the stored results (finished rallies, closed rounds and world weeks), replayed in
  the order they were applied (`bot/services/career/ratings.py`), in one transaction.

`--db` picks the database: an SQLite file or a `postgresql://` URL; default `RALLYBOT_DB`, else
`DATABASE_URL`, else `data/rallybot.sqlite3`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from bot.cli import Subparsers, add_db_option
from bot.paths import default_db
from bot.store.connection import is_postgres_url, redact

REPLAY_MODULE = "bot.services.play.replay"
NO_REPLAY = "db check needs the rules engine (bot.services.play.replay), not available yet"


def register(subparsers: Subparsers) -> None:
    """Add `db` and its actions to the `python -m bot` parser."""
    parser = subparsers.add_parser("db", help="database tools: migrate, backup, check, copy, stats, ratings, careers")
    common = argparse.ArgumentParser(add_help=False)
    add_db_option(common)
    actions = parser.add_subparsers(dest="db_action", metavar="ACTION")
    migrate = actions.add_parser(
        "migrate", parents=[common], help="create or upgrade the database; print its schema version"
    )
    migrate.set_defaults(func=_plainly(cmd_migrate))
    backup = actions.add_parser("backup", parents=[common], help="online backup to PATH (safe while the bot runs)")
    backup.add_argument("path", type=Path, metavar="PATH", help="backup file to write (replaced if it exists)")
    backup.set_defaults(func=_plainly(cmd_backup))
    check = actions.add_parser(
        "check", parents=[common], help="replay the rallies changed since the last check (--all: every rally) "
                                        "and compare with their stored snapshots"
    )
    check.add_argument("--all", action="store_true", help="replay every rally, and check the whole file")
    check.set_defaults(func=_plainly(cmd_check))
    copy = actions.add_parser(
        "copy", parents=[common], help="copy every row into another, empty database, then check it there"
    )
    copy.add_argument("--to", required=True, metavar="TARGET", help="SQLite file or postgresql:// URL to fill")
    copy.set_defaults(func=_plainly(cmd_copy))
    careers = actions.add_parser(
        "careers", parents=[common], help="--rebuild: write every driver's career stats again from the rallies' logs"
    )
    careers.add_argument("--rebuild", action="store_true", required=True,
                         help="replay every ended rally and write its career rows again (achievements are kept)")
    careers.set_defaults(func=_plainly(cmd_careers))

    stats = actions.add_parser(
        "stats", parents=[common], help="the bot processes and, per shard, the posts owed and the jobs' lag"
    )
    stats.add_argument("--shard-count", type=int, default=None, metavar="N",
                       help="group by N shards (default: the running processes' SHARD_COUNT, else SHARD_COUNT)")
    stats.set_defaults(func=_plainly(cmd_stats))

    ratings = actions.add_parser(
        "ratings", parents=[common], help="print how many games and drivers have ratings (--rebuild: recompute "
                                          "every rating from the stored results, in their stored order)"
    )
    ratings.add_argument("--rebuild", action="store_true",
                         help="recompute every rating from the stored results, in one transaction")
    ratings.set_defaults(func=_plainly(cmd_ratings))

    def usage(_: argparse.Namespace) -> int:
        parser.print_help(sys.stderr)
        return 2

    parser.set_defaults(func=usage)


def _plainly(command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """The command, with the errors of a setting, of the store or of a server it cannot reach told
    in one line (exit 1) instead of a traceback: a `DATABASE_URL` that is not a PostgreSQL URL, a
    schema too new, a server that refuses the connection or the login."""

    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except ValueError as exc:  # a setting (DATABASE_URL) or an argument the store refuses
            print(exc, file=sys.stderr)
            return 1
        except OSError as exc:  # the database server cannot be reached
            print(f"cannot reach the database: {exc}", file=sys.stderr)
            return 1
        except Exception as exc:
            from bot.store import StoreError  # here: the parser is built without importing the store

            if isinstance(exc, StoreError):  # a database the store refuses (schema too new...)
                print(exc, file=sys.stderr)
                return 1
            if type(exc).__module__.startswith("asyncpg"):  # PostgreSQL refused (login, database name...)
                print(f"PostgreSQL refused: {exc}", file=sys.stderr)
                return 1
            raise

    return run


def _db_path(args: argparse.Namespace) -> Path | str:
    chosen = getattr(args, "db", None)
    if chosen is None:
        return default_db()
    return chosen if is_postgres_url(chosen) else Path(chosen)


def _shown(target: Path | str) -> str:
    return redact(target) if isinstance(target, str) else str(target)


def _existing(path: Path | str) -> bool:
    if isinstance(path, str) or path.is_file():  # a server is asked when connecting
        return True
    print(f"no database at {path} (run `python -m bot db migrate` to create one)", file=sys.stderr)
    return False


def cmd_migrate(args: argparse.Namespace) -> int:
    from bot.store import Store

    path = _db_path(args)

    async def run() -> int:
        async with Store.open(path) as store:
            return await store.schema_version()

    version = asyncio.run(run())
    print(f"{_shown(path)}: schema version {version}")
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    from bot.store.backends import open_database

    path = _db_path(args)
    if not _existing(path):
        return 1

    async def run() -> int:
        db = await open_database(path)
        try:
            return await db.backup(args.path)
        finally:
            await db.close()

    size = asyncio.run(run())
    print(f"{args.path}: {size} bytes")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    try:
        from bot.services.play.replay import log_problem, replay_snapshot
    except ImportError as exc:
        if exc.name != REPLAY_MODULE:
            raise
        print(NO_REPLAY, file=sys.stderr)
        return 2
    from bot.store import Store

    path = _db_path(args)
    if not _existing(path):
        return 1

    async def run():
        async with Store.open(path, migrate=False) as store:
            return await store.check(replay_snapshot, log_problem, changed_only=not args.all,
                                     workers=os.cpu_count() or 1)

    report = asyncio.run(run())
    return _print_report(report)


def cmd_careers(args: argparse.Namespace) -> int:
    from bot.services.career.careers import CareerService
    from bot.services.work import RallyWork
    from bot.store import Store

    path = _db_path(args)
    if not _existing(path):
        return 1

    async def run() -> int:
        async with Store.open(path) as store:
            return await CareerService(RallyWork(store)).rebuild()

    rows = asyncio.run(run())
    print(f"{_shown(path)}: {rows} career rows written again from the logs")
    return 0


def _print_report(report) -> int:
    skipped = (f" ({report.unchanged} unchanged since the last check, not replayed: --all replays them)"
               if report.unchanged else "")
    if report.ok:
        print(f"ok: {report.rallies} rallies, {report.actions} actions{skipped}")
        return 0
    for mismatch in report.mismatches:
        print(mismatch)
    print(f"{len(report.mismatches)} mismatches in {report.rallies} rallies, {report.actions} actions")
    return 1


def cmd_copy(args: argparse.Namespace) -> int:
    from bot.services.play.replay import log_problem, replay_snapshot
    from bot.store import Store
    from bot.store.copy import copy_rows, count_rows

    source = _db_path(args)
    target: Path | str = args.to if is_postgres_url(args.to) else Path(args.to)
    if not _existing(source):
        return 1
    if _shown(source) == _shown(target) or (isinstance(source, Path) and isinstance(target, Path)
                                            and source.resolve() == target.resolve()):
        print(f"refusing to copy {_shown(source)} onto itself", file=sys.stderr)
        return 1

    def progress(table: str, rows: int) -> None:
        print(f"  {table}: {rows} rows", file=sys.stderr)

    async def run():
        async with Store.open(source) as src, Store.open(target) as dst:
            copied = await copy_rows(src.db, dst.db, progress)
            counts = await count_rows(dst.db)
            report = await dst.check(replay_snapshot, log_problem)
            return copied, counts, report

    copied, counts, report = asyncio.run(run())
    differ = [t for t, n in copied.rows.items() if counts.get(t) != n]
    if differ:
        print(f"row counts differ after the copy: {', '.join(differ)}", file=sys.stderr)
        return 1
    print(f"copied {copied.total} rows from {_shown(source)} to {_shown(target)}")
    return _print_report(report)


def cmd_ratings(args: argparse.Namespace) -> int:
    """Print `games`/`drivers` rated; with `--rebuild`, recompute every rating first."""
    from bot.services.career.ratings import rebuild_tx
    from bot.store import Store
    from bot.store.ratings import counts_tx

    path = _db_path(args)
    if not _existing(path):
        return 1

    async def run() -> tuple[int | None, tuple[int, int]]:
        async with Store.open(path) as store:
            replayed = await store.db.write(rebuild_tx) if args.rebuild else None
            return replayed, await store.db.read(counts_tx)

    replayed, (games, drivers) = asyncio.run(run())
    if replayed is not None:
        print(f"{_shown(path)}: ratings rebuilt from {replayed} results")
    print(f"{_shown(path)}: ratings of {games} games, {drivers} drivers")
    return 0


def _age(stamp: str | None, now: datetime) -> str:
    """How long ago a stored UTC time was, in whole seconds ("-" for none)."""
    from bot.store.clock import from_text

    return "-" if stamp is None else f"{max(0, round((now - from_text(stamp)).total_seconds()))} s"


def cmd_stats(args: argparse.Namespace) -> int:
    from bot.config import ConfigError, shards_from
    from bot.store import Store
    from bot.store.clock import from_text, utc_now
    from bot.store.shards import STALE_S, shard_loads

    path = _db_path(args)
    if not _existing(path):
        return 1
    count = args.shard_count
    if count is not None and count < 0:
        print("--shard-count must be 0 (no sharding) or more", file=sys.stderr)
        return 2
    now = utc_now()
    lines: list[str] = []

    async def run() -> None:
        nonlocal count
        async with Store.open(path, migrate=False) as store:
            lines.append(f"{_shown(path)}: schema version {await store.schema_version()}")
            processes = await store.shard_processes.processes()
            live = [p for p in processes if (now - from_text(p.heartbeat_at)).total_seconds() <= STALE_S]
            lines.append(f"bot processes: {len(live)} running, {len(processes) - len(live)} stale "
                         f"(no heartbeat for {STALE_S} s)")
            for p in processes:
                state = "running" if p in live else "stale"
                lines.append(f"  {state}: process {p.pid} on {p.host} ({p.shards.text()}), started {p.started_at}, "
                             f"last heartbeat {_age(p.heartbeat_at, now)} ago")
            if count is None:
                counts = {p.shards.count for p in live}
                if len(counts) == 1:
                    count = counts.pop()
                else:
                    try:
                        count = shards_from(os.environ).count
                    except ConfigError:
                        count = 0
            lines.append(f"{'shard':<6} {'owed posts':>10} {'oldest owed':>12} {'due jobs':>9} {'job lag':>9} "
                         f"{'later jobs':>11}")
            for load in await shard_loads(store.db, count, now):
                shard = "all" if load.shard is None else str(load.shard)
                lines.append(f"{shard:<6} {load.owed_posts:>10} {_age(load.oldest_post, now):>12} "
                             f"{load.due_jobs:>9} {_age(load.oldest_due, now):>9} {load.later_jobs:>11}")

    asyncio.run(run())
    print("\n".join(lines))
    return 0
