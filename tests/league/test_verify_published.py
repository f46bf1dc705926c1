"""`/verify` in the bot anchors cards to the seed hashes it published (bot/services/world/verify.py):
a seed changed together with its hash is refused even where the replay alone would agree; every
label of a card is the stored round's (the field that differs is named) and the names shown are
the stored results', never a card's; and whatever is uploaded gets a report, never an exception."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta

import pytest

from bot.store.clock import from_text
from bot.store.leagues import cards_tx, rounds_of_league_tx
from tests.league.league_helpers import ALICE, LEAGUE_CHANNEL, ORGANISER, drive, start_run


async def closed_cards(service, deadlines, clock, modules: str = "") -> dict:
    champs = service.championships
    leagues = champs.leagues
    await leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "UTC", modules=modules)
    await leagues.join(LEAGUE_CHANNEL, ALICE)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="now", closes="+2d")
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


async def verify(service, document: object) -> list[str]:
    return await service.championships.verify(json.dumps(document).encode())


async def counts(service) -> tuple:
    """What /verify must never change: the rounds, runs, results and posts owed."""
    async def read(tx):
        return tuple([(await tx.fetch_one(f"SELECT COUNT(*) FROM {table}"))[0]
                      for table in ("rounds", "runs", "round_results", "outbox")])
    return await service.store.db.read(read)


@pytest.mark.parametrize("field, value", [("league", "Grand Prix Cup"), ("round", 2), ("week", "2026-W18"),
                                          ("league_id", 9), ("name", "Mallory"), ("ruleset", "classic-sisu"),
                                          ("assistance", [False]), ("round_sha256", "ab" * 32)])
async def test_a_relabelled_card_is_refused_naming_the_label_that_differs_from_the_stored_round(
        service, deadlines, clock, field, value):
    cards = await closed_cards(service, deadlines, clock)
    before = await counts(service)
    card = cards["cards"][0]
    card[field] = value
    for upload in (cards, card):  # in its file and alone
        lines = await verify(service, upload)
        assert lines[0] == f"❌ Alice (round 1 of Sunday Cup): its {field} is not the one published for this round"
        assert "Mallory" not in "\n".join(lines) and "Grand Prix" not in "\n".join(lines)
    assert await counts(service) == before


async def test_a_file_relabelled_throughout_is_refused_against_the_stored_round(service, deadlines, clock):
    """A forger who edits the league in the file's header, every card and the digest: the file is
    consistent, but the bot knows which league it published."""
    from bot.services.world.cards import round_digest
    cards = await closed_cards(service, deadlines, clock)
    cards["round"]["league"] = "Grand Prix Cup"
    cards["round_sha256"] = round_digest(cards["round"], cards["results"])
    for card in cards["cards"]:
        card["league"], card["round_sha256"] = "Grand Prix Cup", cards["round_sha256"]
    lines = await verify(service, cards)
    assert lines[0] == "❌ Alice (round 1 of Sunday Cup): its league is not the one published for this round"


async def test_a_bare_card_verifies_with_the_stored_names_and_labels(service, deadlines, clock):
    cards = await closed_cards(service, deadlines, clock)
    card = cards["cards"][0]
    lines = await verify(service, card)  # not wrapped in a cards file
    assert len(lines) == 1 and lines[0].startswith("✅ Alice — ")
    assert lines[0].endswith("(round 1 of Sunday Cup): genuine")


async def test_a_version_1_card_is_checked_against_the_stored_round_too(service, deadlines, clock):
    cards = await closed_cards(service, deadlines, clock)
    old = {k: (1 if k == "version" else v) for k, v in cards["cards"][0].items()
           if k not in ("league_id", "round_sha256")}
    assert (await verify(service, old))[0].startswith("✅ Alice — ")
    old["league"] = "Grand Prix Cup"
    assert (await verify(service, old))[0] == ("❌ Alice (round 1 of Sunday Cup): its league is not the one "
                                               "published for this round")


async def test_a_round_with_rules_plus_modules_verifies_and_a_module_dropped_is_named(service, deadlines, clock):
    cards = await closed_cards(service, deadlines, clock, modules="weather,splits")
    assert cards["round"]["modules"] == {"splits": True, "weather": True}
    lines = await verify(service, cards)
    assert lines[0].startswith("✅ Alice — ") and lines[0].endswith("(round 1 of Sunday Cup): genuine")
    cards["cards"][0]["modules"] = {"weather": True}
    lines = await verify(service, cards)
    assert lines[0] == "❌ Alice (round 1 of Sunday Cup): its modules is not the one published for this round"


async def test_a_card_whose_first_card_is_unreadable_is_still_anchored_to_the_published_round(
        service, deadlines, clock):
    cards = await closed_cards(service, deadlines, clock)
    forged = "ab" * 32
    card = cards["cards"][0]
    card["seed"], card["seed_sha256"] = forged, hashlib.sha256(bytes.fromhex(forged)).hexdigest()
    cards["cards"] = [{"format": "rallybot-result-card"}, card]  # the first one unreadable
    lines = await verify(service, cards)
    assert lines == [f"❌ The seed's SHA-256 `{card['seed_sha256']}` was never published by this bot: "
                     "these cards are not of one of its rounds."]


@pytest.mark.parametrize("upload, says", [
    (b"junk", "❌ This is not JSON: Expecting value (line 1, column 1)."),
    (b"\xff\xfe junk", "❌ The file is not UTF-8 text."),
    (b"[1, 2]", "❌ This is neither a result card nor a round's cards file (its format is a list)."),
    (b'[{"format": "rallybot-result-card"}]', "❌ This is neither a result card nor a round's cards file "
                                              "(its format is a list)."),
    (b"{}", "❌ This is neither a result card nor a round's cards file (its format is null)."),
    (b'{"format": "rallybot-result-cards", "version": 2, "cards": []}', "❌ The cards file holds no card."),
    (b'{"format": "rallybot-result-cards", "version": 2, "cards": 5}', "❌ cards: expected a list, got a number"),
    (b'{"format": "rallybot-result-card", "version": 2}', "❌ Card 1: league_id: missing"),
    (b'{"format": "rallybot-result-card\\u001b[2J", "version": 2}',
     "❌ This is neither a result card nor a round's cards file (its format is rallybot-result-card?[2J)."),
], ids=["junk", "not-utf8", "list", "list-of-cards", "empty-object", "no-cards", "cards-not-list", "card-missing",
        "control-characters"])
async def test_an_upload_that_is_not_cards_gets_the_reason_and_changes_nothing(service, deadlines, clock, upload, says):
    await closed_cards(service, deadlines, clock)
    before = await counts(service)
    lines = await service.championships.verify(upload)
    assert lines == [says]
    assert all(ch.isprintable() for line in lines for ch in line)
    assert await counts(service) == before


async def test_an_unpublished_seed_hash_is_a_report_that_is_not_ok(service, deadlines, clock):
    from bot.services.world.verify import verify_upload
    cards = await closed_cards(service, deadlines, clock)
    forged = "cd" * 32
    for card in cards["cards"]:
        card["seed"], card["seed_sha256"] = forged, hashlib.sha256(bytes.fromhex(forged)).hexdigest()
    report = await verify_upload(service.store, json.dumps(cards).encode())
    assert report.ok is False and report.lines[0].startswith("❌ The seed's SHA-256")
    genuine = await verify_upload(service.store, (await service.store.db.read(lambda tx: cards_tx(tx, 1))).encode())
    assert genuine.ok is True


async def test_a_world_week_card_verifies_naming_its_week(service, deadlines, clock):
    """The week's official stage: a round of no league, its card names the week."""
    from bot.engine.core.official import week_bounds
    from bot.services import Place
    from bot.store.leagues import world_round_tx
    from tests.league.league_helpers import new_thread
    rnd = await service.championships.scratch.this_week()
    scratch = service.championships.scratch
    await scratch.check_run(LEAGUE_CHANNEL, ALICE)
    thread = Place(LEAGUE_CHANNEL.guild_id, new_thread())
    await scratch.start_run(LEAGUE_CHANNEL, ALICE, thread.channel_id, "Test server")
    await drive(service, ALICE, thread)
    clock.now = week_bounds(rnd.week)[1] + timedelta(minutes=1)
    await deadlines.run_due()
    closed = await service.store.db.read(lambda tx: world_round_tx(tx, rnd.week))
    assert closed is not None and closed.status == "closed"
    cards = json.loads(await service.store.db.read(lambda tx: cards_tx(tx, closed.id)))
    lines = await verify(service, cards["cards"][0])
    assert lines[0].startswith("✅ Alice — ") and lines[0].endswith(f"(official stage of week {rnd.week}): genuine")
