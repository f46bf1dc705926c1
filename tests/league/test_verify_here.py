"""`/verify` in the bot anchors cards to the seed hashes it published (bot/services/verify_here.py):
a seed changed together with its hash is refused even where the replay alone would agree."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta

from bot.store.clock import from_text
from bot.store.leagues import cards_tx, rounds_of_league_tx
from tests.league.league_helpers import ALICE, LEAGUE_CHANNEL, ORGANISER, drive, start_run


async def closed_cards(service, deadlines, clock) -> dict:
    leagues = service.championships.leagues
    await leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "UTC")
    await leagues.join(LEAGUE_CHANNEL, ALICE)
    await leagues.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="now", closes="+2d")
    await deadlines.run_due()
    await drive(service, ALICE, await start_run(service, ALICE))
    rnd = (await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1)))[0]
    clock.now = from_text(rnd.closes_at) + timedelta(minutes=1)
    await deadlines.run_due()
    return json.loads(await service.store.db.read(lambda tx: cards_tx(tx, rnd.id)))


async def test_genuine_cards_of_a_published_round_verify(service, deadlines, clock):
    cards = await closed_cards(service, deadlines, clock)
    lines = await service.championships.verify(json.dumps(cards).encode())
    assert any("genuine" in line for line in lines) and not any(line.startswith("❌") for line in lines)


async def test_a_seed_changed_with_its_hash_is_refused_as_never_published(service, deadlines, clock):
    cards = await closed_cards(service, deadlines, clock)
    forged = "ab" * 32
    for card in cards["cards"]:
        card["seed"], card["seed_sha256"] = forged, hashlib.sha256(bytes.fromhex(forged)).hexdigest()
    lines = await service.championships.verify(json.dumps(cards).encode())
    assert lines == [f"❌ The seed's SHA-256 `{cards['cards'][0]['seed_sha256']}` was never published by this bot: "
                     "these cards are not of one of its rounds."]


async def test_a_card_claiming_another_dice_mode_than_its_round_is_refused(service, deadlines, clock):
    cards = await closed_cards(service, deadlines, clock)
    for card in cards["cards"]:
        card["dice"] = "shared"
    lines = await service.championships.verify(json.dumps(cards).encode())
    assert lines[0] == "❌ Alice (round 1 of Sunday Cup): its dice is not the one published for this round"
