"""The README's console session runs as shown (a newcomer pastes it and sees the same lines)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.docs_text import section

ROOT = Path(__file__).resolve().parents[2]


def _blocks() -> tuple[str, str]:
    session, output = re.findall(r"```text\n(.*?)```", section("console"), flags=re.S)[:2]
    return session, output


def test_readme_console_session_prints_what_the_readme_shows(tmp_path):
    session, expected = _blocks()
    assert "/rally start" in session and "[channel]" in expected
    result = subprocess.run([sys.executable, "-m", "bot", "console", "--db", str(tmp_path / "demo.sqlite3"),
                             "--seed", "1"], input=session, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected


def test_readme_solo_session_plays_a_rally_against_two_robots_to_its_results(tmp_path):
    """The "Alone against the bot" block, verbatim: nothing refused, two 🤖 drivers, both specials
    classified, and the results read again afterwards."""
    solo = section("solo").split("**Alone against the bot**")[1]
    session = re.findall(r"```text\n(.*?)```", solo, flags=re.S)[0]
    result = subprocess.run([sys.executable, "-m", "bot", "console", "--db", str(tmp_path / "solo.sqlite3"),
                             "--out", str(tmp_path / "out")], input=session, capture_output=True, text=True,
                            cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    private = [line for line in out.splitlines() if line.startswith("[only")]
    assert private[0] == "[only alice] The latest finished rallies of this channel (1):"  # nothing refused
    assert out.count("(AI) is at the wheel") >= 4 and "Rally classification" in out
    assert "📜 Rally #1" in out and "The latest finished rallies of this channel (1):" in out
    assert any(p.name.endswith("results.png") for p in (tmp_path / "out").iterdir())
    assert "🎬 The replay of rally #1" in out and "🎬 Replay of rally #1" in out  # at the finish, then asked for
    assert len([p for p in (tmp_path / "out").iterdir() if p.name.endswith("-replay.webp")]) == 2
