"""The README's DIRT session runs as written ("done when"): a newcomer pastes it into the
console and plays a rally of two stages against the AI, with a board image after every turn and a
classification card after each stage, nothing refused."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.docs_text import section

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_dirt_session_plays_two_stages_to_the_results_with_boards(tmp_path):
    session = re.findall(r"```text\n(.*?)```", section("dirt"), flags=re.S)[0]
    out_dir = tmp_path / "boards"
    result = subprocess.run([sys.executable, "-m", "bot", "console", "--db", str(tmp_path / "dirt.sqlite3"),
                             "--out", str(out_dir)], input=session, capture_output=True, text=True, cwd=ROOT,
                            timeout=180)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    private = [line for line in out.splitlines() if line.startswith("[only")]
    assert len(private) == 1 and "chance of losing control" in private[0]  # the /odds answer; nothing refused
    assert "Stage 1 is over." in out and "The rally is over." in out and "provisional rules" in out
    files = sorted(p.name for p in out_dir.iterdir())
    assert sum(name.endswith("board.png") for name in files) >= 10
    assert sum(name.endswith("results.png") for name in files) >= 2  # after stage 1, and the rally's
