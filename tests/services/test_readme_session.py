"""The README's console session runs as shown (a newcomer pastes it and sees the same lines)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _blocks() -> tuple[str, str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("<!-- section: console -->")[1].split("<!-- /section: console -->")[0]
    session, output = re.findall(r"```text\n(.*?)```", section, flags=re.S)[:2]
    return session, output


def test_readme_console_session_prints_what_the_readme_shows(tmp_path):
    session, expected = _blocks()
    assert "/rally start" in session and "[channel]" in expected
    result = subprocess.run([sys.executable, "-m", "bot", "console", "--db", str(tmp_path / "demo.sqlite3"),
                             "--seed", "1"], input=session, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected
