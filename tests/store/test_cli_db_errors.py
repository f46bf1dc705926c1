"""`python -m bot db …` with a wrong setting or an unreachable server: one clear line, exit 1."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _db(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("RALLYBOT_DB", "DATABASE_URL")}
    return subprocess.run([sys.executable, "-m", "bot", "db", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**environ, **env}, timeout=60)


def test_a_database_url_that_is_not_postgresql_is_told_in_one_line():
    result = _db("check", DATABASE_URL="mysql://somewhere/db")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "DATABASE_URL must be a postgresql:// URL" in result.stderr


def test_an_unreachable_server_is_told_in_one_line():
    result = _db("check", "--db", "postgresql://nobody@127.0.0.1:1/x")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("cannot reach the database")
