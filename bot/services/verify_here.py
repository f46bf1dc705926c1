"""`/verify` inside the bot: the engine's replay (`bot/services/verify.py`) anchored to what this
bot published.

A card alone cannot prove that its seed is the round's: a forger may change the seed and write
its SHA-256 beside it, and the same actions often give the same time with other dice. The bot
knows every seed hash it published at a round's opening, so here the cards' seed hash must be one
of them; then every card's labels are checked against that round as the bot stored it (its
header and its results, `bot.services.cards.round_binding`: the field that differs is named, the
names shown are the stored ones) and the replay runs with that published hash. Offline,
`python -m bot verify --seed-sha256 --round-sha256` does the same with the hashes read from the
opening and results posts.
"""

from __future__ import annotations

import asyncio
import json

from bot.engine.text import msg
from bot.services.cards import round_binding
from bot.services.verify import Card, Rejected, VerifyReport, read_card, reference_of, verify_bytes
from bot.store import Store
from bot.store.connection import Tx
from bot.store.leagues import League, Round, Run, league_tx, round_of_seed_hash_tx, runs_of_round_tx


def _first_card(data: bytes) -> Card | None:
    """The first readable card of an upload (a card, or a cards file's), or None when there is
    none (the replay then says why)."""
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(document, dict):
        return None
    cards = document.get("cards")
    for raw in cards if isinstance(cards, list) else [document]:
        try:
            return read_card(raw)
        except Rejected:
            continue
    return None


async def verify_upload(store: Store, data: bytes) -> VerifyReport:
    """Verify uploaded cards against the round this bot published (see the module docstring)."""
    card = _first_card(data)
    if card is None:
        return await asyncio.to_thread(verify_bytes, data)

    async def read(tx: Tx) -> tuple[Round, League | None, list[Run]] | None:
        rnd = await round_of_seed_hash_tx(tx, card.seed_sha256)
        if rnd is None:
            return None
        league = await league_tx(tx, rnd.league_id) if rnd.league_id is not None else None
        return rnd, league, await runs_of_round_tx(tx, rnd.id)

    found = await store.db.read(read)
    if found is None:
        return VerifyReport(False, [msg("verify.unpublished", hash=card.seed_sha256)])
    return await asyncio.to_thread(_against, data, *found)


def _against(data: bytes, rnd: Round, league: League | None, runs: list[Run]) -> VerifyReport:
    """The upload verified against the stored round (stage texts hashed, cards replayed: in a thread)."""
    header, results, _ = round_binding(rnd, league.name if league is not None else None, runs)
    return verify_bytes(data, rnd.seed_hash, reference_of(header, results))
