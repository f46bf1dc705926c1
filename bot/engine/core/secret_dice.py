"""A dice source for hidden information (Road Rally USA's deal, RULES C10.8): keyed by a secret of
256 bits that the service draws (`secrets`) and injects, so nothing public narrows it.

Each draw is the keyed BLAKE2b (a pseudorandom function) of the draw's number under the secret:
knowing every card ever revealed tells nothing of the next draw or of the key, short of trying
2^256 keys. The whole state is the key and the draw counter (`to_dict`), kept in the game state
(the snapshot, never shown); a game replays exactly from the same key and its action log.

`commitment` is what a game publishes when it starts: the SHA-256 of the key under its own
prefix. It binds the host to the deal (`db check` recomputes it from the stored key and replays
the game) without revealing it: the key has 256 bits of entropy, so the hash needs no salt.
"""

from __future__ import annotations

import hashlib
import re
from typing import TypeVar

from bot.engine.core.dice import _pick, _shuffle

Name = TypeVar("Name", bound=str)

KEY_BYTES = 32  # 256 bits, drawn by the service (`secrets.token_hex(KEY_BYTES)`)
KEY_TEXT = re.compile(r"[0-9a-f]{64}")
_COMMIT_PREFIX = b"rallybot/deal-commitment/v1\n"


def check_key(key: str) -> str:
    """`key` if it is 64 lowercase hex digits (a stored or injected key); ValueError otherwise."""
    if not isinstance(key, str) or KEY_TEXT.fullmatch(key) is None:
        raise ValueError("a deal key must be 64 lowercase hex digits")
    return key


def commitment(key: str) -> str:
    """The SHA-256 published for `key` at a game's start (hex)."""
    return hashlib.sha256(_COMMIT_PREFIX + bytes.fromhex(check_key(key))).hexdigest()


class SecretDice:
    """Draws from a secret key; each draw advances a counter."""

    __slots__ = ("_key", "counter", "key")

    def __init__(self, key: str, counter: int = 0) -> None:
        self.key = check_key(key)
        self._key = bytes.fromhex(key)
        self.counter = counter

    def _next(self) -> int:
        self.counter += 1
        digest = hashlib.blake2b(self.counter.to_bytes(8, "big"), digest_size=8, key=self._key).digest()
        return int.from_bytes(digest, "big")

    def roll(self, die: str, faces: int, hazard_faces: int) -> bool:
        return self._next() % faces < hazard_faces

    def pick(self, kind: str, weights: dict[Name, int]) -> Name:
        return _pick(self._next(), weights)

    def shuffle(self, items: list[str]) -> list[str]:
        return _shuffle(self._next, items)

    def clone(self) -> SecretDice:
        twin = object.__new__(SecretDice)
        twin.key, twin._key, twin.counter = self.key, self._key, self.counter
        return twin

    def common(self) -> SecretDice:
        return self

    def to_dict(self) -> dict:
        return {"type": "secret", "key": self.key, "counter": self.counter}
