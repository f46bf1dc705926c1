"""Twin rallies through the whole bot (RULES C10.8): two Road Rally USA rallies with the same
public inputs (seed, seats, commands, clock, each in its own store so that even the rally's id is
the same) and different hidden deals (two deal keys) must show the same bytes everywhere the
public reads, until a card is revealed: every outbox row (lines, the board picture's spec, the
turn prompt) but the start's commitment, the public answers (a spectator's status included), the
rally's web page in EN, FR and DE, its live stream's first event, and its replay address. Nothing
public holds the key (the commitment's preimage) or a seat's unrevealed cards, and what a seat
is told alone (its status, its hand) holds no other seat's cards.

tests/roadrally/test_rr_secrecy.py checks the engine's outputs over whole games; this file
checks what the services and the web site make of them. The twins stop before the first move:
the first card played is a reveal, after which the twins differ by design. A rally in play has
no export (a league's exports hold finished rounds only), so none is compared here.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from datetime import UTC, datetime

from aiohttp.test_utils import TestClient, TestServer

from bot.engine.core.secret_dice import commitment
from bot.engine.roadrally.rules import Table
from bot.services import Actor, Place, RallyService
from bot.store import Store
from bot.web import WebOptions, create_app
from tests.discord.fakes import FakeRenderer
from tests.roadrally.test_rr_guard import RR, private_texts
from tests.web.test_web_live import next_event
from tests.web.test_web_rally import LANGS, page_text, plain

KEYS = tuple(hashlib.sha256(name.encode()).hexdigest() for name in ("twin A", "twin B"))
HERE = Place(10, 20)
PEOPLE = (Actor(1001, "Ann", can_manage_channels=True), Actor(1002, "Ben"), Actor(1003, "Cy"))
SPECTATOR = Actor(1009, "Dee")  # no seat: sees what the table sees
NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def reply_text(reply) -> str:
    """A command's answer, as the bytes of all it holds."""
    return json.dumps(dataclasses.asdict(reply), sort_keys=True, ensure_ascii=False, default=repr)


async def twin(service: RallyService, place: Place = HERE) -> tuple[list[str], dict[str, list[str]]]:
    """One twin's lobby and start, then the commands that reveal nothing: each seat's and a
    spectator's status and board, each seat's own hand. Its answers: the public ones (the
    channel's, and the spectator's), and each seat's private ones (status, hand) by seat."""
    host = PEOPLE[0]
    public = [await service.channel_web.set(place, host, "public"),
              await service.create(place, host, None, drivers=3, game="roadrally", preset="rr-standard")]
    for actor in PEOPLE:
        public.append(await service.join(place, actor))
    public.append(await service.start(place, host))
    private: dict[str, list[str]] = {}
    for actor in PEOPLE:
        status, board, own = (await service.status(place, actor), await service.board(place, actor),
                              await service.hand(place, actor))
        assert status.ephemeral and own.ephemeral and not own.outbox and not board.ephemeral
        public.append(board)
        private[str(actor.user_id)] = [reply_text(status), reply_text(own)]
    public += [await service.status(place, SPECTATOR), await service.board(place, SPECTATOR)]
    return [reply_text(a) for a in public], private


async def web_outputs(client, rally_id: int) -> dict[str, object]:
    """What the web site shows of a rally: its page in each language, the first event of its live
    stream, and its replay address (a rally in play has none)."""
    shown: dict[str, object] = {}
    for lang in LANGS:
        page = await client.get(f"/rally/{rally_id}?lang={lang}")
        assert page.status == 200
        shown[f"page-{lang}"] = await page.text()
    async with client.get(f"/rally/{rally_id}/events") as stream:
        assert stream.status == 200
        shown["live"] = await next_event(stream)
    shown["replay"] = (await client.get(f"/rally/{rally_id}/replay")).status
    return shown


async def played_twin(path, key: str) -> tuple[str, tuple[list[str], dict[str, list[str]]], str, Table]:
    """A twin in its own store (the same rally id, channel and clock as the other): its outbox
    rows, its public answers, its web outputs and its game."""
    store = await Store.open(path)
    try:
        service = RallyService(store, seed_source=lambda: 4242, clock=lambda: NOW)
        service.work.deal_keys = lambda: key
        answers = await twin(service)
        rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
        assert rally.secret == key and rally.deal_sha256 == commitment(key)
        posts = json.dumps([r.body for r in await store.outbox.all()], sort_keys=True, ensure_ascii=False)
        options = WebOptions(clock=lambda: NOW, burst=1000, rate=1000.0)
        async with TestClient(TestServer(create_app(store, options, renderer=FakeRenderer()))) as client:
            web = json.dumps(await web_outputs(client, rally.id), sort_keys=True, ensure_ascii=False)
        return posts, answers, web, service.work.state_of(rally)
    finally:
        await store.close()


async def test_twin_rallies_show_the_same_public_bytes_until_a_card_is_revealed(tmp_path):
    twins = [await played_twin(tmp_path / f"twin-{k}.sqlite3", key) for k, key in enumerate(KEYS)]
    tables = [table for *_, table in twins]
    hidden = [[(sorted(s.hand), sorted(s.stage_cards)) for s in t.state.seats] for t in tables]
    assert hidden[0] != hidden[1]  # two hidden deals …
    assert all(not s.discard for t in tables for s in t.state.seats)  # … nothing played: nothing revealed
    shown = []
    for key, (posts, answers, web, table) in zip(KEYS, twins, strict=True):
        assert '"image": {' in posts and commitment(key) in posts  # the board's spec; the start's commitment
        assert '"turn": {' in posts  # the turn prompt
        assert "Turn log" in web and '"version"' in web  # the page and its live stream were read
        public, private = answers
        shown.append({name: [text.replace(commitment(key), "<commitment>") for text in texts]
                      for name, texts in (("posts", [posts]), ("answers", public), ("web", [web]))})
        # the scan: neither the key (the commitment's preimage) nor a card no one has seen, in
        # anything public, nor another seat's cards in what a seat is told alone
        hands = {seat.id: {text for text, _ in private_texts(table, seat.id)} for seat in table.state.seats}
        assert scan("\n".join((posts, *public, web)), key, set().union(*hands.values())) == []
        for seat, told in private.items():
            others = set().union(*(texts for other, texts in hands.items() if other != seat))
            assert scan("\n".join(told), key, others) == []
    first, second = shown
    assert first["posts"] == second["posts"]  # every outbox row: lines, picture spec, turn prompt
    assert first["answers"] == second["answers"]  # the answers to the commands
    assert first["web"] == second["web"]  # the rally page (EN, FR, DE), its live stream, its replay address


def scan(text: str, key: str, secrets: set[str]) -> list[str]:
    """What `text` shows that it must not: the key, or one of `secrets` (raw, or as a page reads)."""
    read = plain(page_text(text))
    found = [key] if key in text.lower() or key in read.lower() else []
    return found + sorted(s for s in secrets if plain(s) in read or s in text)


def test_the_scan_finds_a_hand_where_it_is_put():
    """The scan's texts are what a hand shows: a hand pasted into a post is found."""
    table, _ = RR.rules.setup(4242, [(str(a.user_id), a.name) for a in PEOPLE],
                        {"stage": "standard", "ruleset": "rr-standard", "secret": KEYS[0]})
    seat = table.state.seats[0].id
    secrets = [text for text, _ in private_texts(table, seat)]
    leaked = json.dumps({"lines": [secrets[0]], "x": KEYS[0].upper()}, ensure_ascii=False)
    found = scan(leaked, KEYS[0], set(secrets))
    assert KEYS[0] in found and secrets[0] in found and scan("Ann to play.", KEYS[0], set(secrets)) == []
