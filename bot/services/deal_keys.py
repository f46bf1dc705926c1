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


def deal_problem(rally_row: dict) -> str | None:
    """Why a stored rally's deal key does not match the commitment published at its start (None:
    it does, or the rally has none): what `db check` reports before replaying it."""
    key, sha = rally_row.get("secret"), rally_row.get("deal_sha256")
    if key is None and sha is None:
        return None
    if key is None or sha is None:
        return "the deal key or its commitment is missing"
    try:
        if commitment(str(key)) == sha:
            return None
    except ValueError:
        return "the deal key is not 64 hex digits"
    return "the deal key does not match the commitment published at the start"
