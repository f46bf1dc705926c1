"""Shared test set-up: tests never touch the network and never use the real database file."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_db(tmp_path, monkeypatch):
    """Point RALLYBOT_DB at a temp file so no test can write the developer's database."""
    monkeypatch.setenv("RALLYBOT_DB", str(tmp_path / "rallybot-test.sqlite3"))
