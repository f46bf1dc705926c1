"""Command-line subcommands of `python -m bot`; one module per subcommand, each with `register`.

`register(subparsers)` receives what `ArgumentParser.add_subparsers()` returned; `Subparsers`
names the one method the modules use, so no module needs argparse's private class name.
"""

from __future__ import annotations

import argparse
from typing import Any, Protocol


class Subparsers(Protocol):
    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


def add_db_option(parser: argparse.ArgumentParser, note: str = "") -> None:
    """The `--db` option every command that opens the database takes (`note`: what it adds)."""
    parser.add_argument("--db", default=None, metavar="DB",
                        help="SQLite file or postgresql:// URL (default: RALLYBOT_DB, DATABASE_URL or "
                             f"data/rallybot.sqlite3){note}")
