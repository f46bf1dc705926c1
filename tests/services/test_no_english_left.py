"""No English left in French or German: a whole rally of two specials with every
Rules+ module and AI opponents, and a league season with its reminders, close, results, standings,
export and calendar, played in the console in FR and in DE; no line may carry a text of the
English catalogue that the reader's catalogue says otherwise."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.i18n import catalogue

ROOT = Path(__file__).resolve().parents[2]

RALLY = """\
alice: /rally create stage:frozen-lakes, black-moor drivers:3 modules:weather,splits,attack,seconds
alice: /rally join
bob: /rally join
alice: /rally add-ai style:bold
alice: /rally start
alice: /rally status
alice: /odds 1
alice: /autopilot
bob: /autopilot
alice: /rally status
alice: /rally results
alice: /rally history
alice: /help
"""

SEASON = """\
mod: /league create name:"Alpine Cup" timezone:Europe/Paris drop:1
mod: /league round add stage:pinewood-sprint day:mon hour:9 rounds:2
alice: /league join
bob: /league join
mod: /league round list
mod: /clock +1d
alice: /run start
alice: /autopilot
bob: /run start
bob: /roll 1
bob: /rally abandon
mod: /clock +7d
mod: /league penalty driver:alice seconds:10 reason:"Corner cut" round:1
alice: /run start
alice: /autopilot
mod: /clock +7d
mod: /league standings
mod: /league results round:2
mod: /league export
alice: /league calendar
alice: /scratch me
bob: /run replay driver:alice round:1
"""


def english_patterns(lang: str) -> dict[str, re.Pattern[str]]:
    """Each English catalogue text whose key reads otherwise in `lang`, as a pattern a shown line
    would hold: its words as written, each parameter any text (`{length} spaces` finds "19 spaces").
    Texts with fewer than 4 letters of their own (a lone "W", "—") are too short to tell."""
    english, other = catalogue("en"), catalogue(lang)
    patterns = {}
    for key, text in english.items():
        # names, choices and the words a driver types (English ones are accepted in every language:
        # "stop" in a French line may be the command, as the French text says) are not prose
        if other.get(key) == text or key.startswith(("name.", "choice.", "dirt.typed_")):
            continue
        text = text.replace("**", "")  # bold marks are not shown in the console
        parts = re.split(r"\{[^}]*\}", text)
        if sum(ch.isalpha() for part in parts for ch in part) < 4:
            continue
        body = ".+?".join(re.escape(part) for part in parts)
        patterns[key] = re.compile(rf"(?<![\w-]){body}(?![\w-])" if text[:1].isalnum() or text[-1:].isalnum()
                                   else body)
    return patterns


def played(tmp_path: Path, session: str, lang: str, *args: str) -> str:
    result = subprocess.run([sys.executable, "-m", "bot", "console", "--db", str(tmp_path / f"{lang}.sqlite3"),
                             "--seed", "4", "--now", "2026-11-23T08:00Z", "--admins", "mod", "--lang", lang,
                             "--out", str(tmp_path / "out"), *args],
                            input=session, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("lang", ["fr", "de"])
@pytest.mark.parametrize("session", [RALLY, SEASON], ids=["rally", "season"])
def test_a_whole_rally_and_season_read_in_the_language_chosen(tmp_path, lang, session):
    out = played(tmp_path, session, lang)
    assert len(out.splitlines()) > 30
    patterns = english_patterns(lang)
    # what is typed is typed as it is: commands in backticks, keywords in quotes
    shown = [re.sub(r"`[^`]*`|« [^»]* »|„[^“]*“", "", line) for line in out.splitlines()
             if not line.startswith(("[pilote auto]", "[Autopilot]"))]  # the autopilot's typed commands
    left = [(key, line) for line in shown for key, pattern in patterns.items() if pattern.search(line)]
    assert left == [], "\n".join(f"{key}: {line!r}" for key, line in left[:30])
