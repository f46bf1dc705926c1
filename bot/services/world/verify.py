"""`/verify` inside the bot: the engine's replay (`bot/services/world/card_check.py`) anchored to what this
bot published.

A card alone cannot prove that its seed is the round's: a forger may change the seed and write
its SHA-256 beside it, and the same actions often give the same time with other dice. The bot
knows every seed hash it published at a round's opening, so here the cards' seed hash must be one
of them; then every card's labels are checked against that round as the bot stored it (its
header, its results and the headers of the rounds that drove its linked runs,
`bot.services.world.cards.round_binding`: the field that differs is named, the names shown are the
stored ones) and the replay runs with that published hash. The week's official rounds (the world
round and the leagues' rounds on it) share one seed: the round meant is the one whose digest the
card carries. Offline,
`python -m bot verify --seed-sha256 --round-sha256` does the same with the hashes read from the
opening and results posts.
"""

from __future__ import annotations

import asyncio
import json

from bot.engine.core.text import msg
from bot.services.world.card_check import Card, Rejected, VerifyReport, read_card, reference_of, verify_bytes
from bot.services.world.cards import Binding, driven_rounds_tx, round_binding
from bot.store import Store
from bot.store.connection import Tx
from bot.store.leagues import Round, Run, counted_runs_tx, league_tx, rounds_of_seed_hash_tx

#: What the store holds of a round for its binding: the round, its league's name, the runs
#: counting in it and the rounds that drove those answering it (`cards.round_binding`'s arguments).
Stored = tuple[Round, str | None, list[Run], dict[int, tuple[Round, str | None]]]


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

    async def read(tx: Tx) -> list[Stored]:
        stored: list[Stored] = []
        for rnd in await rounds_of_seed_hash_tx(tx, card.seed_sha256):
            league = await league_tx(tx, rnd.league_id) if rnd.league_id is not None else None
            runs = await counted_runs_tx(tx, rnd.id)
            stored.append((rnd, league.name if league else None, runs, await driven_rounds_tx(tx, rnd, runs)))
        return stored

    found = await store.db.read(read)
    if not found:
        return VerifyReport(False, [msg("verify.unpublished", hash=card.seed_sha256)])
    return await asyncio.to_thread(_against, data, card, found)


def _against(data: bytes, card: Card, found: list[Stored]) -> VerifyReport:
    """The upload verified against the stored round it is of (stage texts hashed, cards replayed:
    in a thread)."""
    rnd, binding = _round_of_card(card, found)
    return verify_bytes(data, rnd.seed_hash, reference_of(binding))


def _round_of_card(card: Card, found: list[Stored]) -> tuple[Round, Binding]:
    """Of the rounds sharing the card's seed (the week's official rounds), the one it is of: the
    one whose digest it carries, else the one it says it counts for or is of (a relabelled card
    is then refused naming the label), else the first. The rounds it names are bound first: the
    others only when its digest is none of theirs."""
    league, number = card.counts_for if card.counts_for is not None else (card.league, card.round)
    likely = sorted(found, key=lambda stored: (stored[1], stored[0].number) != (league, number))
    bound = []
    for stored in likely:
        binding = round_binding(*stored)
        if binding.digest == card.round_sha256:
            return stored[0], binding
        bound.append((stored[0], binding))
    return bound[0]
