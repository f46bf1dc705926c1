"""`python -m bot verify FILE.json`: a round's cards replayed with the engine alone.

Run as a user runs it, in a subprocess on a file; exit 0 when every card is genuine, 1 when a
card is rejected (or the file holds no cards), 2 when the file cannot be read.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.services.world.card_reading import MAX_BYTES
from tests.league.league_helpers import ALICE, BOB
from tests.league.test_verify import ClosedRound, close_round, in_a_thread

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def closed(tmp_path_factory) -> ClosedRound:
    """Round 1 of Sunday Cup, Alice and Bob finished, closed: its cards file."""
    return in_a_thread(close_round(tmp_path_factory.mktemp("cli") / "db.sqlite3", "pinewood-sprint", "personal",
                                   (ALICE, BOB)))


def verify(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", "verify", *args], cwd=ROOT, capture_output=True,
                          text=True, encoding="utf-8", timeout=120)


def minutes(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def test_a_genuine_cards_file_prints_every_time_and_exits_0(closed, tmp_path):
    path = tmp_path / "round-1-cards.json"
    path.write_text(closed.text, encoding="utf-8")
    done = verify(str(path))
    assert done.returncode == 0, done.stderr
    alice, bob = closed.cards
    assert done.stdout.splitlines() == [
        f"✅ Alice — {minutes(alice['claimed']['time_s'])} (round 1 of Sunday Cup): genuine",
        f"✅ Bob — {minutes(bob['claimed']['time_s'])} (round 1 of Sunday Cup): genuine",
        "2 of 2 cards genuine.",
        f"Seed SHA-256 {alice['seed_sha256']}: check that it is the hash published when the round opened.",
        f"Round SHA-256 {json.loads(closed.text)['round_sha256']}: check that it is the one published with the "
        "round's results.",
    ]
    assert done.stderr == ""


def test_a_single_card_verifies_too(closed, tmp_path):
    path = tmp_path / "alice.json"
    path.write_text(json.dumps(closed.cards[0]), encoding="utf-8")
    done = verify(str(path), "--seed-sha256", closed.cards[0]["seed_sha256"])
    assert done.returncode == 0
    assert done.stdout.startswith("✅ driver 1001 — ")  # a card alone: only what its replay proves


def test_a_tampered_card_is_rejected_with_exit_1_and_the_others_still_shown_genuine(closed, tmp_path):
    cards = json.loads(closed.text)
    real = cards["cards"][0]["claimed"]["time_s"]
    cards["cards"][0]["claimed"]["time_s"] = real - 30
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(cards), encoding="utf-8")
    done = verify(str(path))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    claims = f"claims {minutes(real - 30)}, the replay gives {minutes(real)}"
    assert lines[0] == f"❌ Alice (round 1 of Sunday Cup): {claims}"
    assert lines[1].startswith("✅ Bob — ")
    assert lines[2] == "1 of 2 cards genuine."


def test_a_seed_other_than_the_published_one_exits_1(closed, tmp_path):
    path = tmp_path / "round-1-cards.json"
    path.write_text(closed.text, encoding="utf-8")
    done = verify(str(path), "--seed-sha256", "0" * 64)
    assert done.returncode == 1
    assert all("is not the one published when the round opened" in line for line in done.stdout.splitlines()[:2])


@pytest.mark.parametrize("content, says", [
    (b"{not json", "This is not JSON"),
    (b"\xff\xfe\x00", "The file is not UTF-8 text."),
    (b'{"format": "rallybot-result-cards", "version": 1, "cards": []}', "The cards file holds no card."),
    (b" " * (MAX_BYTES + 1), "The file is larger than 8 MiB"),
], ids=["not-json", "not-utf8", "no-cards", "too-large"])
def test_a_file_that_is_not_cards_exits_1_with_the_reason(tmp_path, content, says):
    path = tmp_path / "junk.json"
    path.write_bytes(content)
    done = verify(str(path))
    assert done.returncode == 1
    assert says in done.stdout and "Traceback" not in done.stderr


def test_a_cards_file_whose_round_digest_is_not_the_published_one_exits_1(closed, tmp_path):
    path = tmp_path / "round-1-cards.json"
    path.write_text(closed.text, encoding="utf-8")
    digest = json.loads(closed.text)["round_sha256"]
    assert verify(str(path), "--round-sha256", digest.upper()).returncode == 0  # the published one: fine
    done = verify(str(path), "--round-sha256", "0" * 64)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [f"❌ The file's round SHA-256 {digest} is not the one published with the "
                                        f"results ({'0' * 64})."]


def test_a_file_that_cannot_be_read_exits_2(tmp_path):
    done = verify(str(tmp_path / "missing.json"))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == f"Cannot read {tmp_path / 'missing.json'}: No such file or directory"
    done = verify(str(tmp_path))  # a folder
    assert done.returncode == 2 and "Cannot read" in done.stderr and "Traceback" not in done.stderr
