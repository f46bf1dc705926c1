"""What is hidden stays hidden (RULES C10.8): Road Rally USA's hidden deal comes from a secret key
the service draws, never from anything public, and every public output is a function of the
public inputs and the cards revealed so far.

- The course's name shows the rally's seed (`std-N`: the seed mod 10^9); with the key, the seed
  no longer fixes any card (before it fixed every one: an attacker recomputed the whole deal from
  the course name).
- The property, randomized over many games: game B is game A's deal with every card that A never
  reveals dealt differently (each seat's unrevealed movement cards swapped among their places in
  its hand and deck, the unrevealed stage cards dealt anew among the seats); played with A's
  actions, B gives byte-identical public outputs at every step, to the end: board data, status,
  prompt, the story of every action, results.
- `db check` holds a rally's stored key to the commitment its start published.
- The AI plays a stage card it holds only sometimes, from its own view alone, so a bypassed stage
  does not tell the table that no AI holds the card.
"""

from __future__ import annotations

import json
import random

import pytest

from bot import games
from bot.engine.core.game import is_finished
from bot.engine.core.secret_dice import SecretDice, commitment
from bot.engine.roadrally import ai
from bot.engine.roadrally.library import course_of
from bot.engine.roadrally.rules import Table
from bot.engine.roadrally.view import view
from bot.i18n import render
from bot.services import Actor, Place, RallyService
from bot.services.play.replay import log_problem, replay_snapshot

RR = games.get("roadrally")
HERE = Place(guild_id=10, channel_id=20)
KEYS = [f"{n:064x}" for n in range(1, 40)]


def seats(n: int) -> list[tuple[str, str]]:
    return [(str(1001 + i), f"P{i}") for i in range(n)]


def dealt(table: Table) -> list[tuple[list[int], list[int], list[int]]]:
    """Each seat's hand, deck and stage cards: the whole hidden deal."""
    return [(sorted(s.hand), list(s.deck), sorted(s.stage_cards)) for s in table.state.seats]


def test_the_course_name_and_the_seed_no_longer_fix_the_deal():
    seed = 123_456_789  # the course's name shows it whole: std-123456789
    options = {"stage": "standard", "ruleset": "rr-standard"}
    a, _ = RR.rules.setup(seed, seats(4), {**options, "secret": KEYS[0]})
    b, _ = RR.rules.setup(seed, seats(4), {**options, "secret": KEYS[1]})
    assert a.state.road.name == b.state.road.name == course_of("standard", seed)  # the public layout
    assert a.state.order == b.state.order  # the line-up is public: drawn from the seed
    assert dealt(a) != dealt(b)  # the deal is the key's
    # what an attacker computes from the course name: the game the seed alone deals (how every
    # game was dealt before the key, and how one still is without a key)
    guessed, _ = RR.rules.setup(int(a.state.road.name.split("-")[1]), seats(4), options)
    assert dealt(guessed) != dealt(a)
    back = RR.rules.from_json(RR.rules.to_json(a))
    assert back.state.dice.to_dict() == a.state.dice.to_dict()  # the state keeps its source
    assert isinstance(a.state.dice, SecretDice)


def test_a_game_without_a_key_is_dealt_from_its_seed_as_before():
    """A rally started before the keys replays unchanged: its line-up drawn after the deal."""
    table, events = RR.rules.setup(7, seats(3), {"stage": "standard", "ruleset": "rr-standard"})
    again, _ = RR.rules.setup(7, seats(3), {"stage": "standard", "ruleset": "rr-standard", "secret": None})
    assert dealt(table) == dealt(again) and table.state.dice.to_dict() == {"type": "seeded", "seed": 7,
                                                                             "counter": table.state.dice.counter}
    assert not any(e.kind == "dealt" for e in events)


def test_the_start_publishes_the_commitment_and_a_bad_key_is_refused():
    table, events = RR.rules.setup(5, seats(3), {"stage": "sprint", "ruleset": "rr-standard", "secret": KEYS[2]})
    told = [render(line, "en") for line in RR.narrator.tell(RR.rules.view(table, None), events).lines]
    assert any(commitment(KEYS[2]) in line for line in told)
    assert KEYS[2] not in "\n".join(told)
    for bad in ("abc", "AB" * 32, KEYS[2][:-1] + "g", KEYS[2] + "0"):
        with pytest.raises(Exception, match="64 hexadecimal"):
            RR.rules.setup(5, seats(3), {"stage": "sprint", "ruleset": "rr-standard", "secret": bad})


# -- the property -----------------------------------------------------------------------------------


def played_through(table: Table, steps: int = 3000) -> tuple[list[tuple[str, object]], dict[str, set[int]], set[int]]:
    """Play `table` to the end with the AI (each seat from its own view); the actions, and what
    the game ever showed of each seat's movement cards (played, or looked at in a Mechanic's
    reorder, which its action names) and which stage cards it revealed."""
    actions: list[tuple[str, object]] = []
    shown: dict[str, set[int]] = {s.id: set() for s in table.state.seats}
    for _ in range(steps):
        if is_finished(RR.rules, table):
            break
        seat = min(RR.rules.to_act(table))
        state = table.state
        if state.phase == "mechanic":
            current = state.seats[state.current()]
            shown[current.id] |= set(current.deck[:state.preset.mechanic_look])
        action = RR.coach.choose(RR.rules.view(table, seat), seat)
        table, events = RR.rules.apply(table, seat, action)
        for e in events:
            if e.kind == "played":
                shown[e.seat] |= set(e.data)
        actions.append((seat, action))
    assert is_finished(RR.rules, table)
    return actions, shown, {stage for stage, _ in table.state.revealed}


def twin(start: Table, shown: dict[str, set[int]], revealed: set[int], rng: random.Random) -> Table:
    """`start` with every card the game never shows dealt differently; None-free (asserts it differs)."""
    state = start.state.clone()
    for seat in state.seats:
        cards = seat.hand + seat.deck
        places = [k for k, c in enumerate(cards) if c not in shown[seat.id]]
        moved = [cards[k] for k in places]
        rng.shuffle(moved)
        for k, c in zip(places, moved, strict=True):
            cards[k] = c
        seat.hand, seat.deck = cards[:len(seat.hand)], cards[len(seat.hand):]
    hidden = [c for s in state.seats for c in s.stage_cards if c not in revealed]
    rng.shuffle(hidden)
    for seat in state.seats:
        keep = [c for c in seat.stage_cards if c in revealed]
        count = len(seat.stage_cards) - len(keep)
        seat.stage_cards, hidden = sorted(keep + hidden[:count]), hidden[count:]
    return Table(state, start.names)


def public(table: Table, events: list) -> str:
    """Everything anyone may see after an action, as the bytes it is shown as (English)."""
    spectator = RR.rules.view(table, None)
    prompt = RR.narrator.prompt(spectator, events)
    out = {"board": RR.pictures.board(spectator), "status": [render(x, "en") for x in RR.narrator.status(spectator)],
           "prompt": [render(x, "en") for x in prompt.lines], "asked": sorted(prompt.to_act),
           "new_turn": prompt.new_turn, "told": [render(x, "en") for x in RR.narrator.tell(spectator, events).lines],
           "progress": list(RR.rules.progress(spectator)),
           "to_act": sorted(RR.rules.to_act(table))
           if RR.rules.to_act(table) and table.state.phase != "stage" else None}
    if is_finished(RR.rules, table):
        out["results"] = RR.pictures.results(spectator)
        out["classification"] = [render(x, "en") for x in RR.narrator.classification(spectator)]
        out["outcome"] = repr(RR.rules.outcome(table))
    return json.dumps(out, sort_keys=True, ensure_ascii=False, default=repr)


GAMES = [(players, preset, stage, k) for k, (players, preset, stage) in enumerate(
    [(3, "rr-standard", "standard"), (4, "rr-standard", "sprint"), (5, "rr-standard", "standard"),
     (3, "rr-base", "base"), (4, "rr-demo-fr", "standard"), (5, "rr-standard", "sprint"),
     (4, "rr-standard", "standard"), (3, "rr-demo-fr", "sprint"), (5, "rr-base", "base"),
     (4, "rr-base", "base"), (3, "rr-standard", "sprint"), (5, "rr-demo-fr", "standard")])]


@pytest.mark.parametrize(("players", "preset", "stage", "k"), GAMES)
def test_two_deals_that_differ_only_in_what_is_never_revealed_show_the_same_bytes(players, preset, stage, k):
    rng = random.Random(1000 + k)
    options = {"stage": stage, "ruleset": preset, "secret": KEYS[k]}
    start, setup_events = RR.rules.setup(rng.randrange(10**9), seats(players), options)
    actions, shown, revealed = played_through(start)
    other = twin(start, shown, revealed, rng)
    assert dealt(other) != dealt(start)  # another hidden deal …
    a, b = start, other
    assert public(a, setup_events) == public(b, setup_events)  # … the same start …
    for seat, action in actions:  # … and the same public game, step by step, to the end
        a, told_a = RR.rules.apply(a, seat, action)
        b, told_b = RR.rules.apply(b, seat, action)
        assert public(a, told_a) == public(b, told_b), (seat, action)
    assert is_finished(RR.rules, b)


def test_two_keys_give_the_same_public_start_but_for_the_commitment():
    """Identical public inputs, two keys: the start shows the same bytes, the commitment aside
    (a hash of 256 secret bits: it tells nothing of the deal)."""
    options = {"stage": "standard", "ruleset": "rr-standard"}
    shown = []
    for key in KEYS[3:6]:
        table, events = RR.rules.setup(99, seats(4), {**options, "secret": key})
        shown.append(public(table, events).replace(commitment(key), "<commitment>"))
    assert shown[0] == shown[1] == shown[2]


# -- the AI's answers --------------------------------------------------------------------------------


def window_views(count: int) -> list:
    """Views of AI seats asked a stage window whose card they hold, from AI-played games."""
    found = []
    for k in range(40):
        options = {"stage": "standard", "ruleset": "rr-standard", "secret": KEYS[k % len(KEYS)]}
        table, _ = RR.rules.setup(k, seats(3 + k % 3), options)
        for _ in range(3000):
            if is_finished(RR.rules, table) or len(found) >= count:
                break
            state = table.state
            if state.phase == "stage":
                for s in state.seats:
                    if not s.retired and state.pending[0] in s.stage_cards:
                        found.append((table, s.id))
            seat = min(RR.rules.to_act(table))
            table, _ = RR.rules.apply(table, seat, RR.coach.choose(RR.rules.view(table, seat), seat))
        if len(found) >= count:
            break
    return found


def test_the_ai_keeps_some_of_the_stage_cards_it_holds_and_decides_from_its_own_view():
    asked = window_views(60)
    assert len(asked) >= 40
    plays = [ai.choose(view(t.state, seat)).play for t, seat in asked]
    assert 0 < sum(plays) < len(plays)  # it plays some, keeps some: a bypass names no AI
    rng = random.Random(3)
    for t, seat in asked:  # the others' secrets dealt anew: the same answer
        others = t.state.clone()
        pool = [c for s in others.seats if s.id != seat for c in s.stage_cards]
        rng.shuffle(pool)
        for s in others.seats:
            if s.id != seat:
                s.stage_cards, pool = sorted(pool[:len(s.stage_cards)]), pool[len(s.stage_cards):]
                cards = s.hand + s.deck
                rng.shuffle(cards)
                s.hand, s.deck = cards[:len(s.hand)], cards[len(s.hand):]
        assert ai.choose(view(others, seat)) == ai.choose(view(t.state, seat))


# -- the commitment under `db check` -----------------------------------------------------------------


async def test_db_check_holds_each_rally_s_key_to_the_commitment_published_at_its_start(store):
    service = RallyService(store)  # keys from `secrets`, as on Discord
    host = Actor(1001, "Ann")
    await service.create(HERE, host, None, drivers=3, game="roadrally", preset="rr-standard")
    await service.join(HERE, host)
    await service.add_ai(HERE, host, 2)
    started = await service.start(HERE, host)
    rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
    assert rally.secret is not None and commitment(rally.secret) == rally.deal_sha256
    assert rally.deal_sha256 in "\n".join(render(line, "en") for line in started.lines)  # told at the start
    assert (await store.check(replay_snapshot, log_problem, changed_only=False)).ok
    other = f"{int(rally.secret, 16) ^ 1:064x}"  # the host swaps the key after the start
    await store.db.write(lambda tx: tx.execute("UPDATE rallies SET secret = ? WHERE id = ?", (other, rally.id)))
    report = await store.check(replay_snapshot, log_problem, changed_only=False)
    assert [m.rally_id for m in report.mismatches] == [rally.id]
    assert "does not match the commitment published at the start" in str(report.mismatches[0])


async def test_two_rallies_with_the_same_public_inputs_post_the_same_bytes_but_for_the_commitment(store):
    """Through the services: the same seed, seats and commands, two keys: every post owed to the
    channels (lines, pings, prompts, the board picture's data) is the same, the rally's id and the
    commitment aside."""
    service = RallyService(store, seed_source=lambda: 4242)
    keys = iter(KEYS[10:12])
    service.work.deal_keys = lambda: next(keys)
    host = Actor(1001, "Ann")
    places = (Place(10, 20), Place(10, 21))
    for place in places:
        await service.create(place, host, None, drivers=4, game="roadrally", preset="rr-standard")
        await service.join(place, host)
        await service.add_ai(place, host, 3)
        await service.start(place, host)
    shown = []
    for place in places:
        rally = await store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
        rows = [r for r in await store.outbox.all() if r.channel_id == place.channel_id]
        text = json.dumps([r.body for r in rows], sort_keys=True, ensure_ascii=False)
        assert len(rows) >= 2 and '"image": {' in text  # the lobby's posts and the start, its board
        text = text.replace(rally.deal_sha256, "<commitment>")
        shown.append(text.replace(f'"rally_id": {rally.id}', '"rally_id": 0'))
    assert shown[0] == shown[1]
