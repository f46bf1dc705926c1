"""`/driver` in the console: `alice: /driver`, `alice: /driver bob`, the card written
to `--out`, a clear private answer for a driver without history."""

from __future__ import annotations

from PIL import Image

from tests.cli.test_console_sessions import console


def test_driver_in_the_console_writes_the_card_and_refuses_a_driver_without_history(tmp_path):
    folder = tmp_path / "out"
    session = ("alice: /rally create stage:pinewood-sprint drivers:1\nalice: /rally join\nalice: /rally start\n"
               "alice: /autopilot\nalice: /driver\nalice: /driver bob\nbob@de: /driver alice\n")
    out = console(tmp_path / "c.sqlite3", session, "--seed", "1", "--out", str(folder))
    assert "[channel] 🏆 alice earns an achievement: Finisher. Finish a rally." in out
    assert "[only alice] Career card of alice in Rallyman (rallies: 1, wins: 0)." in out
    assert "[only alice] bob has no finished rally this server can see yet: nothing to show." in out
    assert "Karrierekarte von alice in Rallyman (Rallyes: 1, Siege: 0)." in out
    cards = sorted(folder.glob("*-career.png"))
    assert len(cards) == 2
    with Image.open(cards[0]) as card:
        assert card.width == 1080 and card.height > 1000


def test_db_careers_rebuild_writes_the_rows_again_from_the_logs(tmp_path):
    import sqlite3
    import subprocess
    import sys

    from tests.cli.test_console_sessions import ROOT

    db = tmp_path / "c.sqlite3"
    console(db, "alice: /rally create stage:pinewood-sprint drivers:1\nalice: /rally join\nalice: /rally start\n"
                "alice: /autopilot\n", "--seed", "1")

    def rows() -> list[tuple]:
        with sqlite3.connect(db) as conn:
            return conn.execute("SELECT * FROM career_results ORDER BY rally_id, user_id").fetchall()

    before = rows()
    assert len(before) == 1
    result = subprocess.run([sys.executable, "-m", "bot", "db", "careers", "--rebuild", "--db", str(db)],
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "1 career rows written again from the logs" in result.stdout
    assert rows() == before
