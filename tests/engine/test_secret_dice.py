"""The dice of hidden information (`bot/engine/core/secret_dice.py`, RULES C10.8): each draw is the
keyed BLAKE2b-64 of the draw's number (8 bytes, big-endian) under the deal key, so a stored game
replays from its key and log, and the key, never any public value, decides every hidden card."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from bot.engine.core.secret_dice import SecretDice, check_key, commitment

KEY = "00" * 31 + "01"


def spec_draw(key: str, number: int) -> int:
    """The `number`-th draw (1 first) as the module's docstring defines it, computed apart."""
    digest = hashlib.blake2b(number.to_bytes(8, "big"), digest_size=8, key=bytes.fromhex(key)).digest()
    return int.from_bytes(digest, "big")


def test_C10_8_each_draw_is_the_keyed_hash_of_its_number_and_counts_one():
    dice = SecretDice(KEY)
    assert dice.to_dict() == {"type": "secret", "key": KEY, "counter": 0}
    draws = [dice._next() for _ in range(3)]
    assert draws == [spec_draw(KEY, n) for n in (1, 2, 3)]
    assert draws == [14389807672952474758, 6590798319711825430, 1863942979614918534]  # pinned: stored deals replay
    assert dice.to_dict()["counter"] == 3


def test_C10_8_a_saved_counter_resumes_the_same_stream_and_a_clone_is_independent():
    dice = SecretDice(KEY)
    first = dice.shuffle([str(n) for n in range(21)])
    resumed = SecretDice(KEY, dice.counter)
    twin = dice.clone()
    assert dice.counter == 20  # Fisher-Yates: one draw per position but the first
    rest = dice.shuffle([str(n) for n in range(21)])
    assert resumed.shuffle([str(n) for n in range(21)]) == rest != first
    assert twin.shuffle([str(n) for n in range(21)]) == rest and twin.counter == dice.counter == 40
    assert SecretDice("00" * 31 + "02").shuffle([str(n) for n in range(21)]) != first  # another key, another deal


def test_C10_8_rolls_and_picks_follow_the_faces_and_the_weights():
    dice = SecretDice(KEY)
    rolls = [dice.roll("any", 6, 2) for _ in range(3000)]
    assert 900 < sum(rolls) < 1100  # 2 faces of 6: a third
    assert dice.counter == 3000
    picks = Counter(dice.pick("kind", {"a": 1, "b": 2, "c": 3}) for _ in range(3000))
    assert set(picks) == {"a", "b", "c"}
    assert 420 < picks["a"] < 580 and 900 < picks["b"] < 1100 and 1400 < picks["c"] < 1600
    expected = spec_draw(KEY, 6001) % 6
    assert dice.pick("kind", {"a": 1, "b": 2, "c": 3}) == ("a" if expected < 1 else "b" if expected < 3 else "c")


@pytest.mark.parametrize("bad", ["", "00" * 31, "00" * 33, "AB" * 32, "g0" * 32, None, 7])
def test_a_malformed_key_is_refused_naming_what_a_key_is(bad):
    with pytest.raises(ValueError, match=r"^a deal key must be 64 lowercase hex digits$"):
        check_key(bad)
    with pytest.raises(ValueError, match=r"^a deal key must be 64 lowercase hex digits$"):
        SecretDice(bad)


def test_the_commitment_binds_the_key_without_being_its_hash_alone():
    assert commitment(KEY) == hashlib.sha256(b"rallybot/deal-commitment/v1\n" + bytes.fromhex(KEY)).hexdigest()
    assert commitment(KEY) != hashlib.sha256(bytes.fromhex(KEY)).hexdigest() != commitment("00" * 31 + "02")
