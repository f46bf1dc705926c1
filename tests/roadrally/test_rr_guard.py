"""The guard test: whole Road Rally USA games of 3, 4 and 5 seats (people and AI
seats) played through the real services and the console, every output scanned for hidden
information (RULES C10.8).

What counts as a leak, concretely:
- **a hand or stage cards in the wrong place**: at every step, each seat's private lines (its
  hand `🟩1 🟩2 …` and its secret stage cards, as `/hand` shows them, in EN, FR and DE) must
  appear in no channel post, no outbox row, no log record, and no answer to another seat;
- **public output that depends on secrets**: at every step, the board image's data, the
  channel's prompt and `/rally status` are the same when every hand, deck and unrevealed stage
  card of the state is scrambled (`scrambled`);
- **a stage window that tells who holds the card**: while a window is open, answering posts
  nothing in the channel, and the window's prompt pings every person in the game.
Private answers go only to who asked (`[only NAME]` lines are answers to NAME's own commands).
"""

from __future__ import annotations

import io
import json
import logging
import random

import pytest

from bot import games
from bot.console import PLACE, Console, user_id
from bot.engine.roadrally.play import to_act
from bot.engine.roadrally.rules import Table
from bot.engine.roadrally.state import RRState
from bot.engine.roadrally.words import cards_text
from bot.i18n import render
from bot.services import RallyService
from bot.services.play.replay import replay_snapshot

RR = games.get("roadrally")
LANGS = ("en", "fr", "de")


def scrambled(table: Table, seed: int) -> Table:
    """The same public game with other secrets: each seat's hand and deck redrawn from the same
    cards (sizes kept), the unscored stage cards dealt anew among the seats (counts kept), the
    answers of an open window forgotten unless revealed. Everything public stays: positions,
    discard piles, tiles, VP, revealed cards."""
    rng = random.Random(seed)
    state: RRState = table.state.clone()
    for seat in state.seats:
        pool = seat.hand + seat.deck
        rng.shuffle(pool)
        seat.hand, seat.deck = sorted(pool[:len(seat.hand)]), pool[len(seat.hand):]
    held = [c for s in state.seats for c in s.stage_cards]
    rng.shuffle(held)
    for seat in state.seats:
        seat.stage_cards, held = sorted(held[:len(seat.stage_cards)]), held[len(seat.stage_cards):]
    return Table(state, table.names)


#: the lines of `/hand` that hold a seat's secrets: its hand, its unscored stage cards
SECRET_KEYS = ("roadrally.h.hand", "roadrally.h.stage_cards")


def private_texts(table: Table, seat: str) -> list[tuple[str, bool]]:
    """What only `seat` may read, as it reads it in each language, each with whether it is a whole
    line: the lines of its `/hand` that show its hand and its stage cards, and its hand's cards on
    their own (`🟩1 🟩2 🟨3 🟥4`, found anywhere in a line) when it holds four or more (fewer could
    be what someone just played, which is public)."""
    own = table.state.seats[table.state.index(seat)]
    hand = RR.hidden.hand(RR.rules.view(table, seat))
    lines = [line for line in hand.lines if getattr(line, "key", None) in SECRET_KEYS]
    texts = [(render(line, lang), True) for line in lines for lang in LANGS]
    if len(own.hand) >= 4:
        texts.append((cards_text(sorted(own.hand)), False))
    return texts


class Guard:
    """Plays one game and scans everything as it goes."""

    def __init__(self, store, names: list[str], ai: int, seed: int) -> None:
        self.store = store
        self.names = names
        self.ai = ai
        self.seed = seed
        self.service = RallyService(store, seed_source=lambda: seed)
        self.out = io.StringIO()
        self.console = Console(self.service, out=self.out)
        self.seats = {str(user_id(n)): n for n in names}
        self.secrets: set[tuple[str, str, bool]] = set()  # (seat, text, whole line) seen along the game
        self.windows = 0
        self.window_answers = 0
        self.steps = 0
        self.scanned = 0  # how much of the console's output was scanned step by step
        self.lines_scanned = 0

    async def table(self) -> Table | None:
        """The game as the seats know it: in an open window, with the answers kept so far given
        (the rally itself does not change until the window closes)."""
        rally = await self.store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id)
        return None if rally is None else await self.service.turns.answered_state(rally)

    async def play(self) -> None:
        host = self.names[0]
        players = len(self.names) + self.ai
        await self.console.run_line(f"{host}: /rally create game:roadrally preset:rr-standard drivers:{players}")
        if self.ai:
            await self.console.run_line(f"{host}: /rally add-ai count:{self.ai}")
        for name in self.names:
            await self.console.run_line(f"{name}: /rally join")
        await self.console.run_line(f"{host}: /rally start")
        for _ in range(4000):
            table = await self.table()
            if table is None:
                return
            self.check_public(table)
            people = sorted(s for s in RR.rules.to_act(table) if s in self.seats)
            if not people:  # AI seats only: let their job run
                await self.console.run_line(f"{host}: /rally status")
                continue
            seat = people[0]
            name = self.seats[seat]
            if table.state.phase == "stage":
                self.window_answers += 1
            before = self.now(table)
            mark = len(self.out.getvalue())
            await self.console.run_line(f"{name}: /hand")
            shown = self.out.getvalue()[mark:]
            assert f"[only {name}]" in shown
            choice = RR.coach.choose(RR.rules.view(table, seat), seat)
            window_open = table.state.phase == "stage"
            mark = len(self.out.getvalue())
            await self.console.run_line(f"{name}: /act {RR.commands.label(choice)}")
            after = await self.table()
            answered = self.out.getvalue()[mark:]
            still = self.now(after) if after else set()  # cards played this step are public now
            self.scan(self.out.getvalue()[self.scanned:], {x for x in before if x[2]} | still)
            self.scanned = len(self.out.getvalue())
            assert "[only " + name + "]" not in answered or "Your answer is in" in answered, answered
            if window_open and after is not None and after.state.phase == "stage" \
                    and after.state.pending[:1] == table.state.pending[:1]:
                assert "[channel]" not in answered, answered  # an answer in an open window posts nothing
            self.steps += 1
        raise AssertionError("the game did not end")

    def now(self, table: Table) -> set[tuple[str, str, bool]]:
        """Every seat's secrets at this moment."""
        return {(seat.id, text, whole) for seat in table.state.seats for text, whole in private_texts(table, seat.id)}

    def scan(self, chunk: str, secrets: set[tuple[str, str, bool]]) -> None:
        """What was printed during one step, against the secrets of that step: the channel shows
        none; a person's private answers only their own (a text that is also theirs is theirs)."""
        for line in chunk.splitlines():
            self.lines_scanned += 1
            if line.startswith("[channel]"):
                assert not leaks_in(line, secrets), line
            elif line.startswith("[only "):
                reader = str(user_id(line[len("[only "):].split("]", 1)[0]))
                own = {text for seat, text, _ in secrets if seat == reader}
                assert not [x for x in leaks_in(line, secrets, reader) if x.split(": ", 1)[1] not in own], line

    def check_public(self, table: Table) -> None:
        """Remember every seat's secrets now; public functions read the same on a scrambled twin."""
        self.secrets |= self.now(table)
        twin = scrambled(table, self.steps)
        spectator, other = RR.rules.view(table, None), RR.rules.view(twin, None)
        assert RR.pictures.board(spectator) == RR.pictures.board(other)
        assert RR.narrator.status(spectator) == RR.narrator.status(other)
        assert RR.narrator.prompt(spectator, []).lines == RR.narrator.prompt(other, []).lines
        assert RR.narrator.prompt(spectator, []).to_act == RR.narrator.prompt(other, []).to_act
        if table.state.phase == "stage":
            self.windows += 1
            assert RR.narrator.prompt(spectator,
                                      []).to_act == frozenset(s.id for s in table.state.seats if not s.retired)


def leaks_in(text: str, secrets: set[tuple[str, str, bool]], reader: str | None = None) -> list[str]:
    """The secrets of seats other than `reader` that `text` (lines, maybe `[channel] `-prefixed)
    shows: a secret line as a whole line, a hand's cards anywhere (not in a reader's own answers,
    whose own hand may hold the same cards)."""
    lines = {line.split("] ", 1)[1] if line.startswith("[") and "] " in line else line for line in text.splitlines()}
    return [f"{seat}: {secret}" for seat, secret, whole in secrets if seat != reader and
            (secret in lines if whole else reader is None and any(secret in line for line in lines))]


@pytest.mark.parametrize(("people", "ai", "seed"), [(1, 2, 3), (2, 2, 11), (3, 2, 7), (2, 3, 5)])
async def test_whole_games_through_the_services_leak_no_hand_and_no_stage_card(store, caplog, people, ai, seed):
    caplog.set_level(logging.DEBUG)
    names = ["ann", "ben", "cat"][:people]
    guard = Guard(store, names, ai, seed)
    await guard.play()
    (rally,) = await store.rallies.finished_in_channel(PLACE.guild_id, PLACE.channel_id, 5)
    assert rally.status == "finished" and rally.game == "roadrally"
    assert guard.secrets and guard.windows > 0

    text = guard.out.getvalue()
    channel = [line for line in text.splitlines() if line.startswith("[channel]")]
    assert channel and guard.lines_scanned > len(channel)
    for name in names:  # each person was answered privately
        assert any(line.startswith(f"[only {name}]") for line in text.splitlines())
    whole = {(seat, secret, True) for seat, secret, is_whole in guard.secrets if is_whole}
    rows = await store.outbox.all()
    bodies = [json.dumps(r.body, ensure_ascii=False) for r in rows]
    for lang in LANGS:  # every row as its readers read it
        for row in rows:
            shown = "\n".join(render(line, lang) for line in row.body.get("lines", []))
            assert not leaks_in(shown, whole), row.body
    assert not any("roadrally.h." in body for body in bodies)  # no private line ever left for the channel
    images = [r for r in rows if r.body.get("image")]
    assert images and all(r.body["image"]["game"] == "roadrally" for r in images)
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert not leaks_in(logged, whole)

    # the log may hold the whole game: it replays to the stored snapshot
    row = {**rally.as_dict(), "drivers": [d.as_dict() for d in await store.drivers.list(rally.id)]}
    actions = [a.as_dict() for a in await store.actions.list(rally.id)]
    assert replay_snapshot(row, actions) == rally.snapshot
    print(f"guard: {people + ai} seats, {guard.steps} commands, {guard.windows} window states, "
          f"{len(rows)} outbox rows ({len(images)} images), {len(channel)} channel lines, "
          f"{len(caplog.records)} log records, {len(guard.secrets)} secrets tracked")


def test_scrambled_keeps_what_is_public_and_changes_a_secret():
    table, _ = RR.rules.setup(4, [("1", "A"), ("2", "B"), ("3", "C")], {"ruleset": "rr-standard"})
    twin = scrambled(table, 1)
    assert [len(s.hand) for s in twin.state.seats] == [len(s.hand) for s in table.state.seats]
    assert [len(s.stage_cards) for s in twin.state.seats] == [len(s.stage_cards) for s in table.state.seats]
    assert any(a.hand != b.hand or a.stage_cards != b.stage_cards
               for a, b in zip(table.state.seats, twin.state.seats, strict=True))
    assert to_act(twin.state) == to_act(table.state)
