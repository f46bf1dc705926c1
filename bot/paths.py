"""Where the bot finds its data and database; overridable by environment for tests and hosts."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def data_dir() -> Path:
    """The data folder: `RALLYBOT_DATA` if set, else `data/` at the top of the checkout."""
    env = os.environ.get("RALLYBOT_DATA")
    return Path(env) if env else ROOT / "data"


def default_db_path() -> Path:
    """The SQLite database: `RALLYBOT_DB` if set, else `data/rallybot.sqlite3`."""
    env = os.environ.get("RALLYBOT_DB")
    return Path(env) if env else ROOT / "data" / "rallybot.sqlite3"
