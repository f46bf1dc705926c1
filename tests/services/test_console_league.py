"""Championships in the offline console: a whole season played through
`run_console` with the console's own clock, read as a user reads it.

The console owns the bot's clock (`--now`, `/clock +7d`): jobs that fall due while the clock moves
run at their own times (round opens, reminders, closes); `/clock +30h offline` is a downtime, after
which each overdue job runs once with the "while I was offline" note. Round secrets come from
`--seed`, so the published hashes and seeds can be checked against their definition here.
"""

from __future__ import annotations

import hashlib
import io
import re
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from bot.console import PLACE, run_console, user_id
from bot.console.clock import console_service, seeded_round_secrets
from bot.services.play.replay import log_problem, replay_snapshot
from tests.docs_text import section

ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)  # a Monday; rounds open Mondays 20:00 in Paris (19:00 UTC)
SEED = 7
DRIVERS = ("alice", "bob", "carol", "dave")
CUP = "Sunday Cup"
_FINISH = re.compile(r"^\[channel\] 🏁 (\w+) finished Sunday Cup — round (\d) in (\d+):(\d\d): "
                     r"provisionally (\d+) of (\d+)\.$", re.M)
_RESULT = re.compile(r"^\[channel\] (\d+)\. (\w+) — (\d+):(\d\d) \(\+[\d:]+\) — (\d+) pts$")


def secret(n: int) -> tuple[str, str]:
    """The n-th round's secret seed under `--seed SEED`, and its SHA-256 (what is published first)."""
    seed = hashlib.sha256(f"{SEED}/{n}".encode()).hexdigest()
    return seed, hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def results_of(text: str, head: str) -> list[tuple[int, str, int, int]]:
    """(position, driver, seconds, points) of the results block after the line `head`."""
    block = text.split(head, 1)[1].splitlines()[1:]
    rows = []
    for line in block:
        match = _RESULT.match(line)
        if not match:
            break
        pos, name, minutes, seconds, points = match.groups()
        rows.append((int(pos), name, int(minutes) * 60 + int(seconds), int(points)))
    return rows


def standings_rows(text: str) -> list[tuple[str, int, str]]:
    """(driver, points, the cells of their rounds) of the last standings table printed: a round
    that does not count is in brackets (struck through on the card)."""
    table = text.rsplit("Sunday Cup — standings — after 4 rounds", 1)[1].splitlines()[2:]
    rows = []
    for line in table:
        cells = line.removeprefix("[channel]").split()
        if len(cells) < 8 or not cells[0].isdigit():
            break
        rows.append((cells[1], int(cells[6]), " ".join(cells[2:6])))
    return rows


def season(out: io.StringIO) -> Iterator[str]:
    """The lines typed during the season; the penalty is chosen from what the results said."""
    yield f'mod: /league create name:"{CUP}" timezone:Europe/Paris drop:3'
    yield "bob: /league round add stage:pinewood-sprint day:mon hour:20 rounds:4"  # not an organiser
    yield "mod: /league round add stage:pinewood-sprint day:mon hour:20 rounds:4"
    for name in DRIVERS:
        yield f"{name}: /league join"
    yield "alice: /run start"  # too early: round 1 opens at 20:00 Paris time
    yield "mod: /clock +12h"
    # Round 1: everybody drives; alice types her first turn herself.
    yield "alice: /run start"
    yield "alice: /roll 1"
    yield "alice: /stop"
    yield "alice: /autopilot"
    for name in ("bob", "carol", "dave"):
        yield f"{name}: /run start"
        yield f"{name}: /autopilot"
    yield "mod: /clock +7d"
    # Round 2: carol abandons (a DNF, and no second attempt).
    for name in ("alice", "bob", "dave"):
        yield f"{name}: /run start"
        yield f"{name}: /autopilot"
    yield "carol: /autopilot off"  # on since round 1 (it stays on until switched off)
    yield "carol: /run start"
    yield "carol: /rally abandon"
    yield "carol: /run start"
    yield "mod: /clock +7d"
    # Round 2 is closed: its winner is penalised by more than their lead, after the fact.
    first, second = results_of(out.getvalue(), "Sunday Cup — round 2 is closed. Results:")[:2]
    yield f'bob: /league penalty driver:{first[1]} seconds:10 reason:"no" round:2'  # not an organiser
    yield (f'mod: /league penalty driver:{first[1]} seconds:{second[2] - first[2] + 5} '
           f'reason:"jumped the start" round:2')
    # Round 3: dave starts but never drives: a DNF at the close.
    for name in ("alice", "bob", "carol"):
        yield f"{name}: /run start"
        yield f"{name}: /autopilot"
    yield "dave: /autopilot off"
    yield "dave: /run start"
    yield "mod: /clock +7d"
    # Round 4: everybody drives.
    for name in DRIVERS:
        yield f"{name}: /run start"
        yield f"{name}: /autopilot"
    yield "mod: /clock +7d"
    yield "alice: /league standings"


async def test_a_season_of_four_weekly_rounds_in_the_console_reads_as_on_discord(store):
    """Opens with the seed hash, one finish line per run with its provisional position, closes with
    results and the seed, a penalty reordering a closed round, standings with the best 3 of 4."""
    service = console_service(store, seed=SEED, now=NOW)
    out = io.StringIO()
    await run_console(season(out), service, out, admins=["mod"])
    text = out.getvalue()

    # Only organisers organise.
    assert text.count("[only bob] Only the organisers of Sunday Cup can do that") == 2
    assert "[only alice] No round is open for a run right now: round 1 opens 2026-11-23 20:00 Europe/Paris." in text
    # Each round opens on time (Monday 20:00 in Paris) with its seed's hash, and closes a week later
    # with the seed itself, which hashes to what was published.
    for n in range(1, 5):
        seed, digest = secret(n)
        opens = text.index(f"[channel] 🟢 Sunday Cup — round {n} is open")
        assert text.count(f"Seed SHA-256 `{digest}`") == 1
        assert text.index(f"Seed SHA-256 `{digest}`") > opens
        closes = text.index(f"[channel] 🏁 Sunday Cup — round {n} is closed. Results:")
        assert opens < closes < text.index(f"Seed: `{seed}` (SHA-256 `{digest}`")  # not before the close
    assert "[clock] 2026-11-23 19:00 UTC\n[channel] 🟢 Sunday Cup — round 1 is open" in text
    assert "[clock] 2026-12-21 19:00 UTC\n[channel] 🏁 Sunday Cup — round 4 is closed" in text
    assert "while I was offline" not in text  # the bot was up all season: every job ran on time
    # Runs happen in their own channels; the league channel gets one line per finished run, with
    # the provisional position among the runs finished so far.
    assert "[only alice] Your run is in #run-alice-r1." in text
    assert "[#run-alice-r1] alice rolls 1" in text and "[#run-alice-r1] alice stops in gear 1" in text
    finished: dict[int, list[int]] = {}
    for name, rnd, minutes, seconds, position, count in _FINISH.findall(text):
        times = finished.setdefault(int(rnd), [])
        time_s = int(minutes) * 60 + int(seconds)
        times.append(time_s)
        assert (int(position), int(count)) == (1 + sum(t < time_s for t in times), len(times)), name
    assert {rnd: len(times) for rnd, times in finished.items()} == {1: 4, 2: 3, 3: 3, 4: 4}
    assert text.count("did not finish Sunday Cup") == 1  # carol's abandon; dave's DNF is in the results
    assert "[channel] 🏳️ carol did not finish Sunday Cup — round 2." in text
    assert "[only carol] You already have your run of this round" in text
    assert "[#run-dave-r3] The round closed before this run finished: it is a DNF." in text
    # a DNF's reason on its own line under the row (reasons wrap, never cut)
    assert re.search(r"^\[channel\] +— +dave +DNF +0\n\[channel\] +not finished at the close$", text, re.M)
    assert re.search(r"^\[channel\] +— +carol +DNF +0\n\[channel\] +abandoned$", text, re.M)
    # The penalty on closed round 2 puts its winner behind the runner-up, in the reposted results.
    before = results_of(text, "Sunday Cup — round 2 is closed. Results:")
    after = results_of(text, "📝 Results of Sunday Cup — round 2 updated:")
    assert [name for _, name, _, _ in after[:2]] == [before[1][1], before[0][1]]
    assert f"Penalty: {before[0][1]} +{before[1][2] - before[0][2] + 5} s (jumped the start, by @mod)" in text
    # Standings after round 4: each driver's best 3 round scores of the 4, highest first.
    rounds = [results_of(text, f"Sunday Cup — round {n} is closed. Results:") for n in (1, 3, 4)] + [after]
    scores: dict[str, list[int]] = {name: [] for name in DRIVERS}
    for rows in rounds:
        for _, name, _, points in rows:
            scores[name].append(points)
    best3 = {name: sum(sorted(points, reverse=True)[:3]) for name, points in scores.items()}
    table = standings_rows(text)
    assert [(name, points) for name, points, _ in table] == sorted(
        ((name, best3[name]) for name, _, _ in table), key=lambda row: -row[1])
    assert {name for name, _, _ in table} == set(DRIVERS)
    assert all(rounds.count("(") == 1 for _, _, rounds in table)  # each driver's worst round is dropped
    assert "Only the best 3 rounds count" in text.rsplit("after 4 rounds", 1)[1]  # the rule, on the card
    assert any(sum(scores[name]) != best3[name] for name in DRIVERS)  # and the drop changed a total
    # Every run is a rally whose log replays to its snapshot.
    report = await store.check(replay_snapshot, log_problem)
    assert report.ok and report.rallies == 16, [str(m) for m in report.mismatches]


async def test_the_clock_refuses_to_go_back_or_junk_and_stays_where_it_was(store):
    service = console_service(store, seed=SEED, now=NOW)
    out = io.StringIO()
    await run_console(["mod: /clock -1d", "mod: /clock +1x", "mod: /clock +0h", "mod: /clock soon",
                       "mod: /clock"], service, out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "[only mod] The clock only moves forward: the bot's jobs that ran cannot be undone."
    assert all(line.startswith("[only mod] `") and "is not a step of the clock" in line for line in lines[1:4])
    assert lines[4] == "[clock] It is now 2026-11-23 08:00 UTC."
    assert service.work.clock() == NOW


async def test_after_a_30_hour_downtime_each_overdue_job_runs_once_with_the_offline_note(store):
    """The round opened and closed while the bot was down: the open and the results are posted
    once each, late, with the note; the reminders are dropped (the close is due); nothing repeats."""
    service = console_service(store, seed=SEED, now=NOW)
    out = io.StringIO()
    await run_console([f'mod: /league create name:"{CUP}" timezone:UTC',
                       'mod: /league round add stage:pinewood-sprint opens:"2026-11-23 09:00" '
                       'closes:"2026-11-24 10:00"',
                       "alice: /league join",
                       "mod: /clock +30h offline",
                       "mod: /clock +1d"], service, out, admins=["mod"])
    text = out.getvalue()
    late = "(This was due {}, while I was offline; handled now.)"
    assert text.count("while I was offline") == 2
    assert f"[channel] {late.format('2026-11-23 09:00 UTC')}\n[channel] 🟢 Sunday Cup — round 1 is open" in text
    assert f"[channel] {late.format('2026-11-24 10:00 UTC')}\n[channel] 🏁 Sunday Cup — round 1 is closed" in text
    assert text.count("round 1 is open") == 1 and text.count("round 1 is closed") == 1
    assert "⏰" not in text
    assert text.rstrip().endswith("[clock] It is now 2026-11-25 14:00 UTC.")


async def test_a_clock_moved_while_the_bot_runs_posts_each_job_at_its_own_time(store):
    service = console_service(store, seed=SEED, now=NOW)
    out = io.StringIO()
    await run_console([f'mod: /league create name:"{CUP}" timezone:UTC',
                       'mod: /league round add stage:pinewood-sprint opens:"2026-11-23 09:00" '
                       'closes:"2026-11-24 10:00"',
                       "alice: /league join",
                       "mod: /clock +30h"], service, out, admins=["mod"])
    text = out.getvalue()
    assert "while I was offline" not in text
    stamps = re.findall(r"^\[clock\] (.*)$", text, re.M)
    assert stamps == ["2026-11-23 09:00 UTC", "2026-11-23 10:00 UTC", "2026-11-24 09:00 UTC",
                      "2026-11-24 10:00 UTC", "It is now 2026-11-24 14:00 UTC."]
    assert text.count("⏰ Sunday Cup — round 1 closes 2026-11-24 10:00 UTC. Still to drive: @alice") == 2


async def test_turn_commands_go_to_the_drivers_run_while_it_runs_and_to_the_channel_otherwise(store):
    """alice's `/roll` plays her run (its own channel) while carol and dave race in the channel."""
    service = console_service(store, seed=SEED, now=NOW)
    out = io.StringIO()
    console = await run_console([
        f'mod: /league create name:"{CUP}" timezone:UTC',
        "mod: /league round add stage:pinewood-sprint opens:now closes:+2d",
        "alice: /league join",
        "carol: /rally create stage:pinewood-sprint drivers:2",
        "carol: /rally join",
        "dave: /rally join",
        "carol: /rally start",
        "alice: /run start",
        "alice: /roll 1",
        "carol: /roll 1",
        "alice: /rally status",
        "alice: /autopilot",
        "alice: /roll 1",
        "dave: /autopilot",
    ], service, out, admins=["mod"])
    text = out.getvalue()
    assert "[#run-alice-r1] alice rolls 1" in text
    assert "[channel] carol rolls 1" in text
    assert "[only alice] Pinewood Sprint (19 spaces) — round 1" in text  # her run's status, not the channel's
    assert re.search(r"^\[autopilot\] alice: /roll", text, re.M)
    assert "[channel] 🏁 alice finished Sunday Cup — round 1" in text
    # The run is over: her next `/roll` is for the channel's rally, where she does not drive.
    assert text.split("[#run-alice-r1] alice FINISHES", 1)[1].count("[only alice]") == 1
    assert "[only dave] Autopilot on" in text  # carol's turn, not dave's: his come later
    run = await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id)
    assert run is not None and run.host_id == user_id("carol")
    assert console.channels[1000] == "run-alice-r1"


def test_round_secrets_of_a_seeded_console_are_the_sha256_of_seed_and_count():
    secrets = seeded_round_secrets(SEED)
    assert [secrets(), secrets()] == [secret(1)[0], secret(2)[0]]


def test_readme_league_session_prints_what_the_readme_shows(tmp_path):
    """The README's championship session, pasted into the console it names, prints its output."""
    text = section("console-league")
    session, expected = re.findall(r"```text\n(.*?)```", text, flags=re.S)[:2]
    command = re.search(r"`python -m bot console --db /tmp/cup.sqlite3 (.*?)`", text.replace("\n", " "))
    assert command is not None and "/clock +2d" in session and "[clock]" in expected
    result = subprocess.run([sys.executable, "-m", "bot", "console", "--db", str(tmp_path / "cup.sqlite3"),
                             *command.group(1).split()], input=session, capture_output=True, text=True,
                            cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected


async def test_a_console_member_with_the_organisers_role_judges_and_cancels_and_loses_it_with_the_role(store):
    """`--roles bob:987654321987654321` and `/league organisers role:987654321987654321` (a role's
    id): bob may disqualify and cancel; once the role is cleared he is refused like any member;
    nobody without Manage Server chooses organisers."""
    service = console_service(store, seed=SEED, now=NOW)
    out = io.StringIO()
    await run_console([
        f'mod: /league create name:"{CUP}" timezone:UTC',
        "bob: /league organisers role:987654321987654321",
        "mod: /league organisers role:987654321987654321",
        "bob: /league round add stage:pinewood-sprint opens:now closes:+1d",
        "bob: /league round add stage:frozen-lakes opens:+2d closes:+3d",
        "alice: /league join",
        "alice: /run start",
        "alice: /autopilot",
        'bob: /league disqualify driver:alice round:1 reason:"wrong car"',
        "bob: /league round cancel round:2 reason:snow",
        "mod: /league organisers role:none",
        "bob: /league round cancel round:1 reason:x",
        "mod: /clock +1d",
    ], service, out, admins=["mod"], roles={"bob": [987654321987654321]})
    text = out.getvalue()
    assert "[only bob] Only members with the Manage Server permission can create a league or choose" in text
    assert "[channel] Organisers of Sunday Cup: members with @role-987654321987654321 (and Manage Server)." in text
    assert "[channel] 📅 Sunday Cup round 2: Frozen Lakes" in text
    assert "[channel] ⚖️ alice is disqualified from Sunday Cup — round 1 (wrong car), by @bob." in text
    assert "[channel] ❌ Sunday Cup — round 2 was cancelled by @bob: snow" in text
    assert "[only bob] Only the organisers of Sunday Cup can do that" in text
    assert "[channel] Disqualified: alice (wrong car, by @bob)" in text
    assert re.search(r"^\[channel\] +— +alice +DSQ +0\n\[channel\] +wrong car$", text, re.M)
    assert "round 2 is open" not in text


class _NoPictures:
    """Stands in for Pillow: the test reads the files the console writes, not the pictures."""

    def board(self, game, stage, view) -> bytes:
        return b"png"

    def preview(self, game, stage) -> bytes:
        return b"png"

    def results(self, game, view) -> bytes:
        return b"png"

    def table(self, view) -> bytes:
        return b"png"

    def animation(self, game, frames, winners=None) -> bytes:
        return b"webp"


async def test_the_cards_file_of_a_closed_round_is_written_with_out_and_verify_accepts_it_untouched(store, tmp_path):
    """With `--out`, the results post's cards file is saved; `/verify` replays it: genuine as
    published, rejected once an action is changed, and a missing file is named."""
    service = console_service(store, seed=SEED, now=NOW)
    out = io.StringIO()
    await run_console([
        f'mod: /league create name:"{CUP}" timezone:UTC',
        "mod: /league round add stage:pinewood-sprint opens:now closes:+1d",
        "alice: /league join",
        "alice: /run start",
        "alice: /autopilot",
        "mod: /clock +1d",
    ], service, out, images=tmp_path, renderer=_NoPictures(), admins=["mod"])
    written = re.search(r"^\[channel\] \(result cards: (.*round-1-cards\.json)\)$", out.getvalue(), re.M)
    assert written is not None
    cards = Path(written.group(1))
    tampered = tmp_path / "tampered.json"
    tampered.write_text(cards.read_text(encoding="utf-8").replace('"type":"roll"', '"type":"stop"', 1),
                        encoding="utf-8")
    assert tampered.read_text(encoding="utf-8") != cards.read_text(encoding="utf-8")
    check = io.StringIO()
    await run_console([f"bob: /verify file:{cards} seed_sha256:{secret(1)[1]}", f"bob: /verify file:{tampered}",
                       f"bob: /verify file:{tmp_path / 'none.json'}"], service, check)
    lines = check.getvalue().splitlines()
    assert lines[0].startswith("[only bob] ✅ alice — ") and lines[0].endswith("(round 1 of Sunday Cup): genuine")
    assert any(line.startswith("[only bob] ❌ alice (round 1 of Sunday Cup): ") for line in lines)
    assert lines[-1] == f"[only bob] Cannot read `{tmp_path / 'none.json'}` (FileNotFoundError)."


async def test_a_console_organiser_names_another_who_hands_the_league_on(store):
    """`/league organisers add:NAME remove:NAME`, the console's options as Discord's: mod (the
    creator) names bob; bob hands the league to alice in one command and is refused after; the
    last one named is never removed."""
    service = console_service(store, seed=SEED, now=NOW)
    out = io.StringIO()
    await run_console([
        f'mod: /league create name:"{CUP}" timezone:UTC',
        "mod: /league organisers add:bob",
        "bob: /league organisers add:alice remove:bob",
        "bob: /league round add stage:pinewood-sprint opens:+1d closes:+2d",
        "alice: /league round add stage:pinewood-sprint opens:+1d closes:+2d",
        "alice: /league organisers remove:mod",
        "alice: /league organisers remove:alice",
    ], service, out, admins=["mod"])
    text = out.getvalue()
    assert "[channel] 👥 @mod named bob an organiser of Sunday Cup." in text
    assert "[channel] 👥 @bob named alice an organiser of Sunday Cup." in text
    assert "[channel] 👥 @bob took bob off the organisers of Sunday Cup." in text
    assert "[only bob] Only the organisers of Sunday Cup can do that" in text
    assert "[channel] 📅 Sunday Cup round 1" in text  # alice's round
    assert "[channel] 👥 @alice took mod off the organisers of Sunday Cup." in text
    assert "[only alice] alice is the last organiser Sunday Cup names" in text
