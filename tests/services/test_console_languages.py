"""A whole rally in the console in French and one in German, compared with reference transcripts
: the channel reads the rally's language; a reader who writes `bob@de:` reads their
private answers in their own; typed die words of either language are understood."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent / "transcripts"
#: Words of the English catalogue a French or German channel must never show.
ENGLISH = (" rolls ", "your turn", "FINISHES", "Results", "[channel]", "[only ", "stops in gear", "special is over",
           "skid of corner", " or white", "space ")


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_a_whole_rally_in_the_console_reads_as_its_reference_transcript(db_target, lang):
    """On each backend: the same session gives the same transcript, byte for byte."""
    session = (HERE / f"rally_{lang}.in").read_text(encoding="utf-8")
    expected = (HERE / f"rally_{lang}.out").read_text(encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "bot", "console", "--db", str(db_target), "--seed", "1",
                             "--lang", lang], input=session, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected
    channel = [line for line in expected.splitlines() if not line.startswith(("[pour ", "[nur für "))]
    assert not [line for line in channel for word in ENGLISH if word in line]
    assert "FINISHES" not in expected and ("TERMINE" in expected or "ZIEL" in expected)


@pytest.mark.parametrize(("lang", "closed", "standings"), [("fr", "manche 1 est close", "Classement de Sunday Cup"),
                                                          ("de", "Lauf 1 ist geschlossen", "Tabelle von Sunday Cup")])
def test_a_championship_in_the_console_reads_as_its_reference_transcript(db_target, lang, closed, standings):
    """The README's championship session on a French and on a German console: league posts, the
    run's thread, the close, results and standings tables, all in the league's language; the same
    bytes on both backends."""
    session = (HERE / f"league_{lang}.in").read_text(encoding="utf-8")
    expected = (HERE / f"league_{lang}.out").read_text(encoding="utf-8")
    args = (HERE / f"league_{lang}.args").read_text(encoding="utf-8").split()
    result = subprocess.run([sys.executable, "-m", "bot", "console", "--db", str(db_target), *args],
                            input=session, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected
    english = ("League ", " created by", "is open", "is closed", "Results", "Standings", "[channel]", "the board after",
               "finished ", "did not finish", "Your run")
    assert not [line for line in expected.splitlines() for word in english if word in line]
    assert closed in expected and standings in expected
