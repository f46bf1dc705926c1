"""Twin rallies through the whole bot (RULES C10.8): two Road Rally USA rallies with the same
public inputs (seed, seats, commands, clock, each in its own store so that even the rally's id is
the same) and different hidden deals (two deal keys) must show the same bytes everywhere the
public reads, until a card is revealed: every outbox row (lines, the board picture's spec, the
turn prompt) but the start's commitment, the public answers (a spectator's status included), the
rally's web page in EN, FR and DE, its live stream's first event, and its replay address. Nothing
public holds the key (the commitment's preimage) or a seat's unrevealed cards, and what a seat
is told alone (its status, its hand) holds no other seat's cards.

tests/roadrally/test_rr_secrecy.py checks the engine's outputs over whole games; this file
checks what the services and the web site make of them. The first twins stop before the first
move: the first card played is a reveal, after which two deals differ by design. Past it, a
whole game's twin is dealt to differ ONLY in the cards that game never showed (its seats' unplayed
cards moved among their places, its unrevealed stage cards dealt anew), played with the same
commands: to the end and after it, every public output must be the same bytes (every outbox row,
every public answer, the rally page and its live stream along the game, the page in EN, FR and
DE at the end, the whole live stream, the board's and every replay frame's picture data, every
replay page). Three planted leaks (an unscored stage card, a hand, after the game or during it)
each make the comparison fail. Not compared: a league's exports (a rally of a league round is
not played here).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import sys
from datetime import UTC, datetime

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.engine.core.game import is_finished
from bot.engine.core.secret_dice import commitment
from bot.engine.roadrally.cards import cards_of
from bot.engine.roadrally.rules import Table
from bot.services import Actor, Place, RallyService
from bot.store import Store
from bot.web import WebOptions, create_app
from tests.discord.fakes import FakeRenderer
from tests.roadrally.test_rr_guard import RR, private_texts
from tests.roadrally.test_rr_secrecy import twin as redealt
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


# -- a whole game: the twin differs only in cards never revealed -----------------------------------


class SpecRenderer(FakeRenderer):
    """Pictures as the data they are drawn from, so that comparing two pictures compares their data."""

    def board(self, game, stage, view, lang="en") -> bytes:
        return repr(("board", game, stage, view, lang)).encode()

    def results(self, game, view, lang="en") -> bytes:
        return repr(("results", game, view, lang)).encode()


@dataclasses.dataclass
class Played:
    """A whole game through the services: what it showed, its commands, its start and its log."""

    shown: dict[str, object]
    commands: list[tuple[int, str]]
    start: Table
    log: list[tuple[int | None, str]]


async def whole_game(path, commands: list[tuple[int, str]] | None, every_turn: bool = True) -> Played:
    """One rally played to the end in its own store, the public read as it goes: every answer to
    a command (the public ones), the rally page and the first event of its live stream every few
    commands; at the end every outbox row, the page in EN, FR and DE, the whole live stream, every
    replay page and its board's data, the board's data and the results. `commands` None: each
    seat to act plays as the AI would from its own view (the commands are kept, as typed);
    otherwise those commands are typed in that order. `every_turn` False: the replay's first and
    last pages only (quicker)."""
    store = await Store.open(path)
    starts: list[Table] = []
    try:
        service = RallyService(store, seed_source=lambda: 4242, clock=lambda: NOW)
        service.work.deal_keys = lambda: KEYS[0]  # the same key: only a re-deal (below) tells the twins apart
        shown: dict[str, object] = {}
        options = WebOptions(clock=lambda: NOW, burst=10**6, rate=10**6)
        async with TestClient(TestServer(create_app(store, options, renderer=SpecRenderer()))) as client:
            host = PEOPLE[0]
            public = [await service.channel_web.set(HERE, host, "public"),
                      await service.create(HERE, host, None, drivers=3, game="roadrally", preset="rr-standard")]
            public += [await service.join(HERE, actor) for actor in PEOPLE]
            public.append(await service.start(HERE, host))
            rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
            rally_id = rally.id
            starts.append(service.work.state_of(rally))
            typed: list[tuple[int, str]] = []
            todo = iter(commands) if commands is not None else None
            while (rally := await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)) is not None:
                if todo is not None:
                    who, text = next(todo)
                else:
                    table = await service.turns.answered_state(rally)
                    seat = min(RR.rules.to_act(table), key=int)
                    who, text = int(seat), RR.commands.label(RR.coach.choose(RR.rules.view(table, seat), seat))
                typed.append((who, text))
                reply = await service.act(HERE, next(a for a in PEOPLE if a.user_id == who), text)
                if not reply.ephemeral:
                    public.append(reply)
                if len(typed) % 15 == 0:  # the page and the live stream while the game goes on
                    page = await client.get(f"/rally/{rally_id}")
                    async with client.get(f"/rally/{rally_id}/events") as stream:
                        shown[f"during-{len(typed)}"] = [await page.text(), await next_event(stream)]
                assert len(typed) < 2000
            assert commands is None or next(todo, None) is None
            finished = await store.rallies.get(rally_id)
            assert finished.status == "finished"
            shown["answers"] = [reply_text(a) for a in public]
            shown["outbox"] = [r.body for r in await store.outbox.all()]
            for lang in LANGS:
                shown[f"page-{lang}"] = await (await client.get(f"/rally/{rally_id}?lang={lang}")).text()
            shown["live"] = await (await client.get(f"/rally/{rally_id}/events")).text()
            shown["board"] = await (await client.get(f"/rally/{rally_id}/board.png")).read()
            last = await last_turn(client, rally_id)
            assert last > 20
            for turn in range(1, last + 1) if every_turn else (1, last):  # the replay, turn by turn
                page = await client.get(f"/rally/{rally_id}/replay?turn={turn}")
                picture = await client.get(f"/rally/{rally_id}/replay/{turn}/board.png")
                shown[f"replay-{turn}"] = [await page.text(), picture.status, await picture.read()]
            for lang in LANGS[1:]:
                shown[f"replay-last-{lang}"] = await (await client.get(
                    f"/rally/{rally_id}/replay?turn={last}&lang={lang}")).text()
        log = [(a.actor, a.action) for a in await store.actions.list(rally_id)]
        return Played(shown, typed, starts[0], log)
    finally:
        await store.close()


async def last_turn(client, rally_id: int) -> int:
    """The replay's last turn (the first turn past it is 404)."""
    low, high = 1, 2
    while (await client.get(f"/rally/{rally_id}/replay?turn={high}")).status == 200:
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        status = (await client.get(f"/rally/{rally_id}/replay?turn={middle}")).status
        assert status in (200, 404)
        low, high = (middle, high) if status == 200 else (low, middle)
    return low


def never_shown(start: Table, log: list[tuple[int | None, str]]) -> tuple[dict[str, set[int]], set[int], Table]:
    """Replaying `log` on `start`: each seat's movement cards the game ever showed (played, or
    named by a Mechanic's reorder), the stage cards it revealed, and the game at its end."""
    shown: dict[str, set[int]] = {s.id: set() for s in start.state.seats}
    table = start
    assert json.loads(log[0][1])["type"] == "start"  # the log's first entry: the start, then the actions
    for actor, text in log[1:]:
        state = table.state
        if state.phase == "mechanic":
            current = state.seats[state.current()]
            shown[current.id] |= set(current.deck[:state.preset.mechanic_look])
        table, events = RR.rules.apply(table, None if actor is None else str(actor), RR.rules.decode(text))
        for event in events:
            if event.kind == "played":
                shown[event.seat] |= set(event.data)
    assert is_finished(RR.rules, table)
    return shown, {stage for stage, _ in table.state.revealed}, table


def dealt_otherwise(monkeypatch, deal: Table) -> None:
    """Every Road Rally USA game set up from now on (the rally's start, and each replay of its
    log: pages, `db check`) gets `deal`'s hands, decks and stage cards: the engine's own deal with
    only what the game never reveals dealt otherwise."""
    from bot.engine.roadrally import play

    original = play.new_game

    def new_game(*args, **kwargs):
        state, events = original(*args, **kwargs)
        for seat, other in zip(state.seats, deal.state.seats, strict=True):
            seat.hand, seat.deck, seat.stage_cards = list(other.hand), list(other.deck), list(other.stage_cards)
        return state, events

    monkeypatch.setattr(play, "new_game", new_game)


def differing(first: dict[str, object], second: dict[str, object]) -> list[str]:
    """The names of the public outputs whose bytes differ between two games."""
    return sorted(name for name in first.keys() | second.keys() if first.get(name) != second.get(name))


def kinds(table: Table, cards: list[int]) -> list[tuple[str, int]]:
    """Cards as anyone would name them (colour and value: cards of a kind are interchangeable)."""
    return sorted(cards_of(table.state)[c][1:] for c in cards)


async def twins(tmp_path, monkeypatch, every_turn: bool) -> tuple[Played, Played]:
    """A whole game, then its twin: the same commands on the same course and line-up, with every
    card the first game never showed dealt otherwise (RULES C10.8). The re-deal is checked to
    change what stays secret to the end as anyone would name it: a hand's cards and the unscored
    stage cards some seat still holds."""
    first = await whole_game(tmp_path / "first.sqlite3", None, every_turn)
    shown, revealed, end = never_shown(first.start, first.log)
    other = redealt(first.start, shown, revealed, random.Random(1))  # tests/roadrally/test_rr_secrecy.py's
    _, _, other_end = never_shown(other, first.log)
    ends = list(zip(end.state.seats, other_end.state.seats, strict=True))
    weak = "this re-deal hides nothing a leak could show: try another Random seed for it"
    assert any(kinds(end, a.hand) != kinds(end, b.hand) for a, b in ends), weak  # a final hand differs …
    assert any(a.stage_cards != b.stage_cards and a.stage_cards for a, b in ends), weak  # … and stage cards
    dealt_otherwise(monkeypatch, other)
    second = await whole_game(tmp_path / "second.sqlite3", first.commands, every_turn)
    assert dealt(second.start) == dealt(other) != dealt(first.start)  # the twin was dealt the other way
    assert second.log == first.log
    return first, second


def dealt(table: Table) -> list[tuple[list[int], list[int], list[int]]]:
    return [(list(s.hand), list(s.deck), list(s.stage_cards)) for s in table.state.seats]


async def test_C10_8_a_whole_game_shows_the_same_bytes_as_its_twin_dealt_otherwise_where_nothing_is_revealed(
        tmp_path, monkeypatch):
    first, second = await twins(tmp_path, monkeypatch, every_turn=True)
    assert differing(first.shown, second.shown) == []
    outbox = json.dumps(first.shown["outbox"])
    assert '"kind": "board"' in outbox and '"kind": "results"' in outbox  # the pictures' data were compared
    assert sum(name.startswith("during-") for name in first.shown) >= 5  # the page and stream along the game


def leaking(monkeypatch, leak) -> None:
    """Every spectator's view of a Road Rally USA game (what every public output is made from)
    passed through `leak(state, view)`, wherever the view is built: a planted leak."""
    from bot.engine.roadrally import view as views

    original = views.view

    def leaky(state, seat):
        shown = original(state, seat)
        return leak(state, shown) if shown.seat is None else shown

    for module in [m for name, m in list(sys.modules.items()) if name == "bot" or name.startswith("bot.")]:
        for name, value in list(vars(module).items()):
            if value is original:
                monkeypatch.setattr(module, name, leaky)


def unscored_stage_cards_after_the_end(state, shown):
    """The final standings count each seat's unscored stage cards by adding up their numbers."""
    if state.phase != "over":
        return shown
    return shown._replace(seats=tuple(p._replace(stage_cards=sum(s.stage_cards))
                                      for p, s in zip(shown.seats, state.seats, strict=True)))


def lowest_stage_card(state, shown):
    """A seat's count of unscored stage cards told as the lowest of them during the game."""
    return shown._replace(seats=tuple(p._replace(stage_cards=min(s.stage_cards, default=0))
                                      for p, s in zip(shown.seats, state.seats, strict=True)))


def value_of_the_hand(state, shown):
    """A hand's size told as the sum of its cards' values."""
    return shown._replace(seats=tuple(p._replace(hand_size=sum(cards_of(state)[c][2] for c in s.hand))
                                      for p, s in zip(shown.seats, state.seats, strict=True)))


@pytest.mark.parametrize(("leak", "seen_in"), [
    (unscored_stage_cards_after_the_end, {"board"}),  # the final board's data (and the replay's last frame)
    (lowest_stage_card, {"outbox", "during-15", "replay-1"}),  # from the start: posts, the page and its stream
    (value_of_the_hand, {"outbox", "board"}),  # the hands differ in kind late in the game: its last posts
])
async def test_the_whole_game_twins_notice_a_planted_leak(tmp_path, monkeypatch, leak, seen_in):
    leaking(monkeypatch, leak)
    first, second = await twins(tmp_path, monkeypatch, every_turn=False)
    assert seen_in <= set(differing(first.shown, second.shown))
