"""Where the bot finds its data and database; overridable by environment for tests and hosts."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def data_dir() -> Path:
    """The data folder: `RALLYBOT_DATA` if set, else `data/` at the top of the checkout."""
    env = os.environ.get("RALLYBOT_DATA")
    return Path(env) if env else ROOT / "data"


def default_db(environ: Mapping[str, str] | None = None) -> Path | str:
    """The database: `RALLYBOT_DB` if set (an SQLite file, or a `postgresql://` URL), else
    `DATABASE_URL` (what Heroku-style hosts set when a PostgreSQL database is added), else the
    SQLite file `data/rallybot.sqlite3`."""
    variables = os.environ if environ is None else environ
    env = (variables.get("RALLYBOT_DB") or "").strip()
    if env:
        return env if _is_url(env) else Path(env)
    url = (variables.get("DATABASE_URL") or "").strip()
    if url:
        if not _is_url(url):
            raise ValueError("DATABASE_URL must be a postgresql:// URL (it names the PostgreSQL database); "
                             "for an SQLite file set RALLYBOT_DB instead")
        return url
    return ROOT / "data" / "rallybot.sqlite3"


def _is_url(text: str) -> bool:
    return text.lower().startswith(("postgresql://", "postgres://"))
