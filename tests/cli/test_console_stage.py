"""`/stage list` and `/stage show` in the console: the same service as Discord's, the preview
written with `--out`, a bad name or game refused by name."""

from __future__ import annotations

from bot import games
from tests.cli.test_console_sessions import console


def test_stage_list_and_show_in_the_console(tmp_path):
    out = console(tmp_path / "c.sqlite3",
                  "alice: /stage list\nalice: /stage show fjord-run\nalice: /stage show nope\n"
                  "alice: /stage list game:chess\nalice: /stage\n", "--out", str(tmp_path / "out"))
    lines = out.splitlines()
    library = games.get(None).library.stages
    assert lines[0] == "[only alice] Stages of Rallyman (difficulty ★ to ★★★★★):"
    assert sum(line.startswith("[only alice] `") and " · zones " in line for line in lines) == len(library.names())
    assert "[only alice] Frostvik Fjord (`fjord-run`) — medium, 38 spaces" in out
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["001-stage.png"]
    assert "There is no Rallyman stage called `nope`" in out
    assert "There is no game called `chess`" in out
    assert lines[-1] == "[only alice] `/stage` needs a subcommand: list or show."
