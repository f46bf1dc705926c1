"""`/verify` inside the bot: the engine's replay (`bot/services/verify.py`) anchored to what this
bot published.

A card alone cannot prove that its seed is the round's: a forger may change the seed and write
its SHA-256 beside it, and the same actions often give the same time with other dice. The bot
knows every seed hash it published at a round's opening, so here the cards' seed hash must be one
of them, and the card's round (stages, ruleset, modules, dice mode) must be that round's; then
the replay runs with that published hash. Offline, `python -m bot verify --seed-sha256` does the
same with the hash read from the opening post.
"""

from __future__ import annotations

import asyncio
import json

from bot.engine.text import msg
from bot.services.verify import VerifyReport, read_card, verify_bytes
from bot.store import Store
from bot.store.leagues import ROUND_COLUMNS, Round


def _first_card(data: bytes) -> object | None:
    """The first card of an upload, or None when it is not readable (the replay says why)."""
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if isinstance(document, dict) and isinstance(document.get("cards"), list):
        return document["cards"][0] if document["cards"] else None
    return document


async def verify_upload(store: Store, data: bytes) -> VerifyReport:
    """Verify uploaded cards against the round this bot published (see the module docstring)."""
    first = _first_card(data)
    try:
        card = read_card(first) if first is not None else None
    except Exception:  # an unreadable card: the report below names the reason
        card = None
    if card is None:
        return await asyncio.to_thread(verify_bytes, data)
    row = await store.db.fetch_one(f"SELECT {ROUND_COLUMNS} FROM rounds WHERE seed_hash = ?", (card.seed_sha256,))
    if row is None:
        return VerifyReport(False, [msg("verify.unpublished", hash=card.seed_sha256)])
    rnd = Round.from_row(row)
    differs = [name for name, ours, theirs in (
        ("specials", rnd.specials, card.specials), ("ruleset", rnd.ruleset, card.ruleset),
        ("dice", rnd.dice, card.dice),
        ("modules", {k: True for k, on in rnd.modules.items() if on}, card.modules)) if ours != theirs]
    if differs:
        return VerifyReport(False, [msg("verify.round_differs", field=differs[0], hash=card.seed_sha256[:16])])
    return await asyncio.to_thread(verify_bytes, data, rnd.seed_hash)
