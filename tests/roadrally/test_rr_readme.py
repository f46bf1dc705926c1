"""The README's Road Rally USA session runs as written ("done when"): a newcomer pastes it
into the console and plays a 3-player game against two AI seats to the end, sees their own hand
privately, a board image after the turns and the classification card, nothing refused."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.docs_text import section

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_roadrally_session_plays_a_whole_game_with_a_private_hand(tmp_path):
    text = section("roadrally")
    session = re.findall(r"```text\n(.*?)```", text, flags=re.S)[0]
    command = re.search(r"`(python -m bot console [^`]+)`", text).group(1).split()
    assert command[:4] == ["python", "-m", "bot", "console"]
    out_dir = tmp_path / "boards"
    args = list(command[4:])
    args[args.index("--db") + 1] = str(tmp_path / "roadrally.sqlite3")
    args[args.index("--out") + 1] = str(out_dir)
    result = subprocess.run([sys.executable, "-m", "bot", "console", *args], input=session, capture_output=True,
                            text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "failed" not in result.stderr, result.stderr
    private = [line for line in out.splitlines() if line.startswith("[only alice]")]
    assert any(line.startswith("[only alice] Your hand: ") for line in private)
    assert not any("Your hand" in line for line in out.splitlines() if line.startswith("[channel]"))
    assert not any(word in line for line in private for word in ("not your turn", "cannot", "There is no"))
    assert "The game is over." in out and "Final classification" in out
    files = sorted(p.name for p in out_dir.iterdir())
    assert sum(name.endswith("board.png") for name in files) >= 10
    assert any(name.endswith("results.png") for name in files)
