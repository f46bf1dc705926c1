"""Where a rally's hidden deal key comes from (RULES C10.8; bot/engine/core/secret_dice.py).

On Discord every new rally gets 256 bits from the operating system's secure randomness
(`new_deal_key`), kept in its row and never shown. Reproducible sessions (the console's `--seed`)
and tests number their keys instead (`numbered_deal_keys`): the n-th rally of the session gets
SHA-256 of `prefix/n`, different for every rally and the same in every run of the session.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable

from bot.engine.core.secret_dice import KEY_BYTES, commitment


def new_deal_key() -> str:
    """A fresh deal key: 64 hex digits from `secrets`."""
    return secrets.token_hex(KEY_BYTES)


def numbered_deal_keys(prefix: str, before: int = 0) -> Callable[[], str]:
    """Deal keys numbered from `before` + 1 under `prefix` (never used by the bot on Discord)."""
    count = before

    def key() -> str:
        nonlocal count
        count += 1
        return hashlib.sha256(f"{prefix}/{count}".encode()).hexdigest()

    return key


def deal_columns(key: str) -> dict[str, str]:
    """A new rally's deal columns: the key and its commitment (`create_tx(**deal_columns(key))`)."""
    return {"secret": key, "deal_sha256": commitment(key)}


def check_deal(rally_row: dict) -> None:
    """`db check`, before replaying a stored rally: its deal key must hash to the commitment
    published at its start (a rally with neither, made before the keys, passes); ValueError."""
    key, sha = rally_row.get("secret"), rally_row.get("deal_sha256")
    if key is None and sha is None:
        return
    if key is None or sha is None:
        raise ValueError("the deal key or its commitment is missing")
    if commitment(str(key)) != sha:  # a malformed key raises ValueError itself
        raise ValueError("the deal key does not match the commitment published at the start")
