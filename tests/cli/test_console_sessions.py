"""The console as a newcomer uses it, session after session on one database: the
README's multi-stage example works as written, `--out` never overwrites earlier images, the clock
never goes back, `--seed` never gives a new round a secret already published, and every command
the README lists exists."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def console(db: Path, lines: str, *args: str) -> str:
    result = subprocess.run([sys.executable, "-m", "bot", "console", "--db", str(db), *args], input=lines,
                            capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_readme_multi_stage_example_works_with_spaces_after_the_commas(tmp_path):
    out = console(tmp_path / "c.sqlite3", "alice: /rally create stage:pinewood-sprint, frozen-lakes, black-moor\n")
    assert "opens a rally of 3 specials" in out and "[only" not in out


def test_an_empty_option_is_the_only_thing_called_empty(tmp_path):
    out = console(tmp_path / "c.sqlite3", "alice: /rally create stage:\nalice: /rally create stage: black-moor\n")
    first, second = out.splitlines()
    assert first.startswith("[only alice] Name a stage (`stage:`): `/stage list game:rallyman` shows them.")
    assert "opens a rally on" in second  # `stage: black-moor` is the stage, as Discord reads it


def test_out_numbering_goes_on_and_never_overwrites(tmp_path):
    session = ("alice: /rally create stage:pinewood-sprint drivers:1\nalice: /rally join\nalice: /rally start\n"
               "alice: /roll 1\nalice: /stop\n")
    folder = tmp_path / "out"
    console(tmp_path / "a.sqlite3", session, "--seed", "1", "--out", str(folder))
    first = sorted(p.name for p in folder.iterdir())
    stamps = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
    console(tmp_path / "b.sqlite3", session, "--seed", "1", "--out", str(folder))
    names = sorted(p.name for p in folder.iterdir())
    assert len(names) == 2 * len(first) and set(first) < set(names)
    assert {name: (folder / name).stat().st_mtime_ns for name in first} == stamps  # untouched
    assert [int(n[:3]) for n in names] == list(range(1, len(names) + 1))


def test_the_clock_is_kept_with_the_database_and_never_goes_back(tmp_path):
    db = tmp_path / "c.sqlite3"
    console(db, "mod: /clock +3d\n", "--now", "2026-11-23T08:00Z")
    out = console(db, "mod: /clock\n", "--now", "2026-11-23T08:00Z")
    assert "The clock goes on from 2026-11-26 08:00 UTC" in out
    assert out.strip().endswith("It is now 2026-11-26 08:00 UTC.")
    later = console(db, "mod: /clock\n", "--now", "2026-12-01T08:00Z")
    assert later.strip() == "[clock] It is now 2026-12-01 08:00 UTC."  # a later start is simply later


def test_seed_never_gives_a_new_round_a_secret_already_published(tmp_path):
    db = tmp_path / "c.sqlite3"
    session = ('mod: /league create name:"Cup {n}" timezone:UTC\n'
               "mod: /league round add stage:pinewood-sprint opens:now closes:+2d league:\"Cup {n}\"\n")
    hashes = []
    for n in (1, 2):
        out = console(db, session.format(n=n), "--seed", "1", "--now", "2026-11-23T08:00Z", "--admins", "mod")
        hashes += re.findall(r"SHA-256 `([0-9a-f]{64})`", out)
    assert len(hashes) == 2 and hashes[0] != hashes[1]


def test_every_command_the_readme_lists_for_the_console_exists(tmp_path):
    """`/league results` was missing: each championship command of the README answers something
    other than "unknown command"."""
    lines = "\n".join(f"mod: {c}" for c in ("/league results round:1", "/league standings", "/rally history",
                                            "/rally results", "/scratch me"))
    out = console(tmp_path / "c.sqlite3", lines + "\n", "--admins", "mod")
    assert "nknown" not in out and len(out.splitlines()) >= 5


def test_a_reader_language_without_a_catalogue_is_refused_not_a_crash(tmp_path):
    """`alice@xx:` names no language the bot has: a clear answer listing them, then the console
    goes on (it used to stop on an error)."""
    out = console(tmp_path / "c.sqlite3", "alice@xx: /rally join\nalice@de: /rally join\n")
    first, second = out.splitlines()
    assert first == "[only you] There is no language 'xx': write alice@fr: or alice@de: (en, de, fr)."
    assert second.startswith("[nur für alice] ")


def test_a_game_command_with_an_option_it_has_not_is_refused_and_plays_nothing(tmp_path):
    """The console reads a game's commands from the same table as Discord, so
    `/roll 1 turbo:yes` is refused by name (it was played, the option ignored) and `/act` plays any
    move as typed; the refused lines change nothing (the next `/roll 1` is the turn's first die)."""
    session = ("alice: /rally create stage:pinewood-sprint drivers:1\nalice: /rally join\nalice: /rally start\n"
               "alice: /roll 1 turbo:yes\nalice: /odds 1 junk:2\nalice: /stop dice:1\nalice: /act banana\n"
               "alice: /act 1\nalice: /act stop\n")
    out = console(tmp_path / "c.sqlite3", session, "--seed", "1").splitlines()
    assert out[4:8] == ["[only alice] `/roll` has no option `turbo`.", "[only alice] `/odds` has no option `junk`.",
                        "[only alice] `/stop` has no option `dice`.",
                        "[only alice] I don't understand `banana`: use a gear die 1-5, `white` (w, gaz, weiss), a "
                        "line (interior, skid, cut) or `stop`."]
    assert out[8] == "[channel] alice rolls 1 → space 1 (⚠ 0)"
    assert out[10].startswith("[channel] alice stops in gear 1")
