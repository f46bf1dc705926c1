"""Twin rallies through the whole bot (RULES C10.8): two Road Rally USA rallies with the same
public inputs (seed, seats, commands) and different hidden deals (two deal keys) must show the
same bytes everywhere the public reads, until a card is revealed: every outbox row (lines, the
board picture's spec, the turn prompt) but the start's commitment, the public answers to the
commands, the rally's web page in every language, its live stream's first event, and its replay
address. And nothing public holds the key (the commitment's preimage) or an unrevealed card.

tests/roadrally/test_rr_secrecy.py checks the engine's outputs over whole games; this file
checks what the services and the web site make of them. The twins are stopped before the first
move: the first card played is a reveal, after which the twins differ by design.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime

from aiohttp.test_utils import TestClient, TestServer

from bot.engine.core.secret_dice import commitment
from bot.engine.roadrally.protocol import Table
from bot.services import Actor, Place, RallyService
from bot.store import Store
from bot.web import WebOptions, create_app
from tests.discord.fakes import FakeRenderer
from tests.roadrally.test_rr_guard import RR, private_texts
from tests.web.test_web_live import next_event
from tests.web.test_web_rally import LANGS, page_text, plain

KEYS = (f"{7:064x}", f"{8:064x}")
HERE = Place(10, 20)
PEOPLE = (Actor(1001, "Ann", can_manage_channels=True), Actor(1002, "Ben"), Actor(1003, "Cy"))
NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def reply_text(reply) -> str:
    """A command's answer, as the bytes of all it holds."""
    return json.dumps(dataclasses.asdict(reply), sort_keys=True, ensure_ascii=False, default=repr)


async def twin(service: RallyService, place: Place = HERE) -> list[str]:
    """One twin's lobby and start, then the commands that reveal nothing (each seat's status, board
    and own hand, the last answered to it alone); its public answers."""
    host = PEOPLE[0]
    answers = [await service.channel_web.set(place, host, "public"),
               await service.create(place, host, None, drivers=3, game="roadrally", preset="rr-standard")]
    for actor in PEOPLE:
        answers.append(await service.join(place, actor))
    answers.append(await service.start(place, host))
    for actor in PEOPLE:
        answers += [await service.status(place, actor), await service.board(place, actor)]
        own = await service.hand(place, actor)
        assert own.ephemeral and not own.outbox  # for the asker's eyes: never in the channel
    return [reply_text(a) for a in answers]


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


async def played_twin(path, key: str) -> tuple[str, list[str], str, Table]:
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
        assert "Turn log" in web and '"version"' in web  # the page and its live stream were read
        shown.append({name: [text.replace(commitment(key), "<commitment>") for text in texts]
                      for name, texts in (("posts", [posts]), ("answers", answers), ("web", [web]))})
        # the scan: neither the key (the commitment's preimage) nor a card no one has seen
        secrets = {text for seat in table.state.seats for text, _ in private_texts(table, seat.id)}
        everything = "\n".join((posts, *answers, web))
        read = plain(page_text(everything))
        assert key not in everything.lower() and key not in read.lower()
        assert not [s for s in secrets if plain(s) in read or s in everything]
    first, second = shown
    assert first["posts"] == second["posts"]  # every outbox row: lines, picture spec, turn prompt
    assert first["answers"] == second["answers"]  # the answers to the commands
    assert first["web"] == second["web"]  # the rally page (EN, FR, DE), its live stream, its replay address


def test_the_scan_finds_a_hand_where_it_is_put():
    """The scan's texts are what a hand shows: a hand pasted into a post is found."""
    table, _ = RR.setup(4242, [(str(a.user_id), a.name) for a in PEOPLE],
                        {"stage": "standard", "ruleset": "rr-standard", "secret": KEYS[0]})
    seat = table.state.seats[0].id
    secrets = [text for text, _ in private_texts(table, seat)]
    leaked = json.dumps({"lines": [secrets[0]]}, ensure_ascii=False)
    assert [s for s in secrets if plain(s) in plain(page_text(leaked))]
