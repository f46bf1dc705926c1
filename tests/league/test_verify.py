"""Verifiable results ("Fair dice and verifiable results"): `bot/services/world/card_check.py`.

The cards are made by the real services: a league, a round opened by its job, runs driven to the
finish, the round closed by its job, the cards file read from the store. The verifier then
replays them with the engine alone: every genuine card verifies, each kind of tampering is
rejected with where and why, and hostile JSON is refused with a reason, never an exception.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.engine.core.dice import StreamDice, stream_keys
from bot.services import RallyService
from bot.services.play.deadlines import DeadlineService
from bot.services.reply import Actor
from bot.services.world.card_check import card_modules, verify_bytes, verify_card, verify_text
from bot.services.world.card_reading import MAX_ACTIONS, MAX_BYTES, read_card
from bot.services.world.cards import run_modules
from bot.store import Store
from bot.store.leagues import cards_tx, round_tx, run_of_tx
from tests.league.league_helpers import ALICE, BOB, CAROL, LEAGUE_CHANNEL, ORGANISER, drive, start_run


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def seed_of(label: str) -> str:
    """A fixed round secret per scenario, so a failure replays the same way."""
    return hashlib.sha256(label.encode()).hexdigest()


@dataclass
class ClosedRound:
    text: str  # the cards file attached to the results post
    cards: list[dict[str, Any]]
    modules: dict[str, dict[str, Any]]  # driver id → the run's rally modules as the bot stored them
    round_modules: dict[str, Any]  # `cards.run_modules` of the stored round


async def open_league(service: RallyService, clock: Clock, stage: str, dice: str, drivers: tuple[Actor, ...],
                      power_stage: bool = False) -> DeadlineService:
    """A league with `drivers` as members and one round open now (its open job has run)."""
    champs = service.championships
    leagues = champs.leagues
    await leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "Europe/Paris", dice=dice)
    for actor in drivers:
        await leagues.join(LEAGUE_CHANNEL, actor)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, stage, opens="now", closes="+2d", power_stage=power_stage)
    deadlines = DeadlineService(service.work, clock=clock)
    assert await deadlines.run_due() == 1  # the round opens
    return deadlines


async def close_round(path: Path, stage: str, dice: str, drivers: tuple[Actor, ...],
                      power_stage: bool = False) -> ClosedRound:
    """Open a round, drive every driver's run to the finish, close it; its cards file."""
    store = await Store.open(path)
    try:
        clock = Clock()
        service = RallyService(store, seed_source=lambda: 42, clock=clock, round_seeds=lambda: seed_of(str(path)))
        deadlines = await open_league(service, clock, stage, dice, drivers, power_stage)
        for actor in drivers:
            await drive(service, actor, await start_run(service, actor))
        clock.now += timedelta(days=3)
        assert await deadlines.run_due() == 1  # the round closes: results, cards, standings
        text = await store.db.read(lambda tx: cards_tx(tx, 1))
        assert text is not None
        rnd = await store.db.read(lambda tx: round_tx(tx, 1))
        assert rnd is not None and rnd.status == "closed"
        modules = {}
        for actor in drivers:
            run = await store.db.read(lambda tx, a=actor: run_of_tx(tx, 1, a.user_id))
            assert run is not None and run.status == "finished" and run.rally_id is not None
            modules[str(actor.user_id)] = (await store.rallies.get(run.rally_id)).modules
        return ClosedRound(text, json.loads(text)["cards"], modules, run_modules(rnd))
    finally:
        await store.close()


def in_a_thread(coro) -> Any:
    """Run `coro` on its own event loop in a thread: a module fixture outside the tests' loops."""
    out: dict[str, Any] = {}

    def target() -> None:
        try:
            out["value"] = asyncio.run(coro)
        except BaseException as exc:  # re-raised in the test's thread
            out["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in out:
        raise out["error"]
    return out["value"]


@pytest.fixture(scope="module")
def personal(tmp_path_factory) -> ClosedRound:
    """Round 1 of Sunday Cup on pinewood-sprint, personal dice, Alice, Bob and Carol finished."""
    return in_a_thread(close_round(tmp_path_factory.mktemp("personal") / "db.sqlite3", "pinewood-sprint",
                                   "personal", (ALICE, BOB, CAROL)))


@pytest.fixture(scope="module")
def shared(tmp_path_factory) -> ClosedRound:
    return in_a_thread(close_round(tmp_path_factory.mktemp("shared") / "db.sqlite3", "pinewood-sprint", "shared",
                                   (ALICE, BOB)))


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> ClosedRound:
    """A course of two specials (a generated one last) with a power stage, personal dice."""
    return in_a_thread(close_round(tmp_path_factory.mktemp("course") / "db.sqlite3", "pinewood-sprint,gen-3-25",
                                   "personal", (ALICE, BOB), power_stage=True))


def card_of(closed: ClosedRound, name: str = "Alice") -> dict[str, Any]:
    """A copy of one driver's card, free to tamper with."""
    return copy.deepcopy(next(c for c in closed.cards if c["name"] == name))


def file_of(cards: list[dict[str, Any]], closed: ClosedRound) -> str:
    """The round's cards file (its header, results and digest as published) holding `cards`."""
    return json.dumps({**json.loads(closed.text), "cards": cards})


def old_card(card: dict[str, Any]) -> dict[str, Any]:
    """A version 1 card (the first format: no league id, no round digest)."""
    return {k: (1 if k == "version" else v) for k, v in card.items() if k not in ("league_id", "round_sha256")}


def old_file_of(cards: list[dict[str, Any]]) -> str:
    """A version 1 cards file: its cards only, each of version 1."""
    return json.dumps({"format": "rallybot-result-cards", "version": 1, "cards": [old_card(c) for c in cards]})


ALONE = "a card alone: its league, round and name are checked with its round's cards file or /verify"


def minutes(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


# --- genuine cards -----------------------------------------------------------------------------

def test_every_genuine_card_of_a_closed_round_verifies_with_its_claimed_time(personal):
    report = verify_text(personal.text)
    assert report.ok
    assert [r.name for r in report.results] == ["Alice", "Bob", "Carol"]
    for card, result in zip(personal.cards, report.results):
        assert result.ok and result.reason is None
        assert result.time_s == card["claimed"]["time_s"]
        time = minutes(card["claimed"]["time_s"])
        assert result.line == f"✅ {card['name']} — {time} (round 1 of Sunday Cup): genuine"
        alone = verify_card(card)  # each card alone, too: what its replay proves, no labels
        assert alone.ok and alone.line == f"✅ driver {card['driver']} — {time} ({ALONE}): genuine"
    assert report.lines[-3] == "3 of 3 cards genuine."
    assert personal.cards[0]["seed_sha256"] in report.lines[-2]  # to compare with the hash published at open
    digest = json.loads(personal.text)["round_sha256"]  # and the round's, published with the results
    assert report.lines[-1] == f"Round SHA-256 {digest}: check that it is the one published with the round's results."


def test_the_verifier_starts_a_run_with_the_very_modules_the_bot_started_it_with(personal, course):
    for closed in (personal, course):
        for card in closed.cards:
            stored = {k: v for k, v in closed.modules[card["driver"]].items() if k not in ("run", "language")}
            assert card_modules(read_card(card)) == stored
            assert {k: v for k, v in stored.items() if k != "streams"} == closed.round_modules


def test_a_course_of_two_specials_with_a_power_stage_verifies_with_total_and_power_stage_times(course):
    report = verify_text(course.text)
    assert report.ok
    for card, result in zip(course.cards, report.results):
        assert card["specials"] == ["pinewood-sprint", "gen-3-25"] and len(card["stage_sha256"]) == 2
        claimed = card["claimed"]
        assert (result.time_s, result.power_s) == (claimed["time_s"], claimed["power_s"])
        assert claimed["power_s"] < claimed["time_s"]  # the last special alone, not the total
        assert result.line == (f"✅ {card['name']} — {minutes(claimed['time_s'])}, power stage "
                               f"{minutes(claimed['power_s'])} (round 1 of Sunday Cup): genuine")


def test_a_genuine_card_also_verifies_against_the_hash_published_at_the_opening(personal):
    published = personal.cards[0]["seed_sha256"]
    report = verify_text(personal.text, published=published.upper())
    assert report.ok and all(published not in line for line in report.lines)  # nothing left to compare


# --- tampering ---------------------------------------------------------------------------------

def _first_rolls(card: dict[str, Any]) -> None:
    """The tampering below relies on the run starting as a driver does: roll 1, then roll 2."""
    assert card["actions"][0] == {"v": 1, "type": "start", "seats": [card["driver"]]}
    assert card["actions"][1]["dice"][0] == "1" and card["actions"][2]["dice"][0] == "2"


def change_first_die(card):
    _first_rolls(card)
    card["actions"][1]["dice"] = ["3"]  # 3rd gear straight from neutral


def remove_first_roll(card):
    _first_rolls(card)
    del card["actions"][1]


def remove_last_action(card):
    card["actions"].pop()


def add_action_after_finish(card):
    card["actions"].append({"v": 1, "type": "stop"})


def insert_action(card):
    _first_rolls(card)
    card["actions"].insert(2, {"v": 1, "type": "roll", "dice": ["1"]})  # the 1st-gear die a second time


def swap_actions(card):
    _first_rolls(card)
    card["actions"][1], card["actions"][2] = card["actions"][2], card["actions"][1]


def alter_seed(card):
    card["seed"] = ("0" if card["seed"][0] != "0" else "1") + card["seed"][1:]


def alter_driver(card):
    card["driver"] = "1009"  # nobody's run


def alter_stage_name(card):
    card["specials"][0] = "black-moor"


def alter_stage_hash(card):
    card["stage_sha256"][0] = hashlib.sha256(b"another stage").hexdigest()


def alter_time(card):
    card["claimed"]["time_s"] -= 10
    card["claimed"]["power_s"] -= 10


def alter_power_time(card):
    card["claimed"]["power_s"] -= 10


def unknown_action(card):
    card["actions"][3] = {"v": 1, "type": "roll", "dice": ["7"]}


def abandoned_in_the_middle(card):
    card["actions"].insert(4, {"v": 1, "type": "status", "status": "abandoned"})


def retired(card):
    card["actions"][-1] = {"v": 1, "type": "retire", "target": card["driver"]}  # out before the line


TAMPERING = [
    (change_first_die, "diverges at action 2 of {n} ({\"dice\":[\"3\"],\"type\":\"roll\",\"v\":1}): "),
    (remove_first_roll, "diverges at action 2 of {n} ({\"dice\":[\"2\"],\"type\":\"roll\",\"v\":1}): "),
    (remove_last_action, "the actions end before the finish: the run is not over"),
    (add_action_after_finish, "diverges at action {n} of {n} ({\"type\":\"stop\",\"v\":1}): the run was already over"),
    (insert_action, "diverges at action 3 of {n} ({\"dice\":[\"1\"],\"type\":\"roll\",\"v\":1}): "),
    (swap_actions, "diverges at action 2 of {n} ({\"dice\":[\"2\"],\"type\":\"roll\",\"v\":1}): "),
    (alter_seed, "the seed does not match its SHA-256"),
    (alter_driver, "diverges at action 1 of {n}"),
    (alter_stage_name, "special 1 (black-moor) is not the stage driven: its text's SHA-256 differs"),
    (alter_stage_hash, "special 1 (pinewood-sprint) is not the stage driven"),
    (unknown_action, "diverges at action 4 of {n} ({\"dice\":[\"7\"],\"type\":\"roll\",\"v\":1}): "
                     "dice[0]: '7' is not one"),
    (abandoned_in_the_middle, "diverges at action 5 of {n} ({\"status\":\"abandoned\",\"type\":\"status\",\"v\":1}): "
                              "the run was abandoned"),
    (retired, "the replay does not finish the run (retired)"),
]


@pytest.mark.parametrize("tamper, says", TAMPERING, ids=[f.__name__ for f, _ in TAMPERING])
def test_each_kind_of_tampering_is_rejected_saying_where_and_why(personal, tamper, says):
    card = card_of(personal)
    tamper(card)
    result = verify_card(card)
    assert not result.ok and result.time_s is None
    assert says.replace("{n}", str(len(card["actions"]))) in result.line, result.line
    assert result.line.startswith(f"❌ driver {card['driver']} ({ALONE}): ")
    report = verify_text(file_of([card] + personal.cards[1:], personal))  # in its file, the file is not genuine
    assert not report.ok and [r.ok for r in report.results] == [False, True, True]
    who = "Alice" if card["driver"] == "1001" else f"driver {card['driver']}"  # the published name, if any
    assert report.results[0].line.startswith(f"❌ {who} (round 1 of Sunday Cup): ")


def test_a_claimed_time_other_than_the_replay_is_rejected_with_both_times(personal):
    card = card_of(personal)
    real = card["claimed"]["time_s"]
    alter_time(card)
    result = verify_card(card)
    assert not result.ok
    assert result.reason == f"claims {minutes(real - 10)}, the replay gives {minutes(real)}"


def test_a_power_stage_time_other_than_the_replay_is_rejected(course):
    card = card_of(course)
    real = card["claimed"]["power_s"]
    alter_power_time(card)
    result = verify_card(card)
    assert not result.ok
    assert result.reason == f"claims {minutes(real - 10)} on the power stage, the replay gives {minutes(real)}"


def test_a_die_changed_mid_run_on_the_course_is_rejected(course):
    card = card_of(course)
    _first_rolls(card)
    card["actions"][2]["dice"] = ["4"]  # from 1st gear to 4th
    says = f'diverges at action 3 of {len(card["actions"])} ({{"dice":["4"],"type":"roll","v":1}}): Die 4 is not'
    assert says in verify_card(card).line


def with_hash_recomputed(card: dict[str, Any]) -> dict[str, Any]:
    """A forger's seed: another one, with its SHA-256 written on the card to match."""
    card["seed"] = seed_of("a forger's seed")
    card["seed_sha256"] = hashlib.sha256(bytes.fromhex(card["seed"])).hexdigest()
    return card


def test_a_seed_altered_with_its_hash_recomputed_is_rejected_against_the_published_hash(personal):
    published = personal.cards[0]["seed_sha256"]
    card = with_hash_recomputed(card_of(personal))
    result = verify_card(card, published=published)
    assert not result.ok
    assert result.reason == (f"the seed's SHA-256 {card['seed_sha256']} is not the one published when the round "
                             f"opened ({published})")


def test_a_seed_altered_with_its_hash_recomputed_is_rejected_in_its_round_file(personal):
    card = with_hash_recomputed(card_of(personal, "Bob"))
    report = verify_text(file_of([personal.cards[0], card, personal.cards[2]], personal))
    assert not report.ok
    assert [r.ok for r in report.results] == [True, False, True]
    assert report.results[1].line == ("❌ Bob (round 1 of Sunday Cup): its seed_sha256 is not the one published for "
                                      "this round")
    assert report.lines[3] == "2 of 3 cards genuine."
    report = verify_text(old_file_of([personal.cards[0], card, personal.cards[2]]))  # version 1: by the others
    assert report.results[1].line == ("❌ Bob (round 1 of Sunday Cup): does not belong with the other cards of the "
                                      "file: its seed differs")


@pytest.mark.parametrize("field, value", [("dice", "shared"), ("specials", ["black-moor"]), ("round", 2),
                                          ("league", "Other Cup")])
def test_a_round_field_altered_on_one_card_of_the_file_is_rejected(personal, field, value):
    card = card_of(personal, "Carol")
    card[field] = value
    if field == "specials":  # its hash recomputed too, so only the file can tell
        card["stage_sha256"] = [hashlib.sha256(b"x").hexdigest()]
    report = verify_text(file_of(personal.cards[:2] + [card], personal))
    assert [r.ok for r in report.results] == [True, True, False]
    assert report.results[2].reason == f"its {field} is not the one published for this round"
    report = verify_text(old_file_of(personal.cards[:2] + [card]))  # version 1: the other cards tell
    assert [r.ok for r in report.results] == [True, True, False]
    assert report.results[2].reason == f"does not belong with the other cards of the file: its {field} differs"


def test_the_dice_mode_altered_is_rejected(shared):
    """Two cards of a shared round, one claiming personal dice: no round has most of the two cards,
    so neither can be told genuine (the dice mode is what the league announced)."""
    card = card_of(shared, "Bob")
    card["dice"] = "personal"
    report = verify_text(old_file_of([shared.cards[0], card]))
    assert not report.ok and not any(r.ok for r in report.results)
    assert report.results[0].reason == "the cards of the file are not of one round, and no round has most of them"


def test_a_run_claimed_by_another_driver_of_the_file_rejects_both_cards(personal):
    card = card_of(personal, "Alice")
    card["driver"] = personal.cards[1]["driver"]  # Bob's id, on the card and its start
    card["actions"][0]["seats"] = [card["driver"]]
    report = verify_text(file_of([card] + personal.cards[1:], personal))
    assert [r.ok for r in report.results] == [False, False, True]
    assert report.results[0].reason == "the file holds several cards of driver 1002 (one run per driver and round)"


# --- fair dice: shared and personal ------------------------------------------------------------

def faces(dice: StreamDice, count: int = 40) -> dict[str, list[bool]]:
    """The first `count` ⚠ flags of every die, rolled as the classic ruleset does."""
    hazards = {"1": 1, "2": 1, "3": 1, "4": 2, "5": 2, "W": 1}
    return {die: [dice.roll(die, 6, h) for _ in range(count)] for die, h in hazards.items()}


def test_shared_dice_give_every_driver_the_same_faces_and_personal_dice_do_not():
    seed = seed_of("fair dice")
    alice = stream_keys(seed, "1001", "shared")
    bob = stream_keys(seed, "1002", "shared")
    assert alice == bob
    assert faces(StreamDice(*alice)) == faces(StreamDice(*bob))
    alice, bob = stream_keys(seed, "1001", "personal"), stream_keys(seed, "1002", "personal")
    assert alice[0] != bob[0] and alice[1] == bob[1]  # the weather (common) stays the same for all
    assert faces(StreamDice(*alice)) != faces(StreamDice(*bob))
    assert faces(StreamDice(*alice).common()) == faces(StreamDice(*bob).common())


async def test_two_real_runs_with_the_same_choices_roll_the_same_in_shared_mode_and_not_in_personal(tmp_path):
    async def first_rolls(dice: str) -> list[tuple[list[list], dict[str, list[bool]]]]:
        store = await Store.open(tmp_path / f"{dice}.sqlite3")
        try:
            clock = Clock()
            service = RallyService(store, seed_source=lambda: 42, clock=clock, round_seeds=lambda: seed_of(dice))
            await open_league(service, clock, "pinewood-sprint", dice, (ALICE, BOB))
            seen = []
            for actor in (ALICE, BOB):
                thread = await start_run(service, actor)
                await service.act(thread, actor, "1 2 3")  # the same choice: the same three dice
                rally = await store.rallies.get_active_in_channel(thread.guild_id, thread.channel_id)
                state = service.work.state_of(rally)
                path = state.turn.path if state.turn and state.turn.path else state.last_path
                stored = rally.modules["streams"]  # the run's dice as the bot keeps them
                seen.append((path, faces(StreamDice(stored["key"], stored["common"]))))
            return seen
        finally:
            await store.close()

    (alice_path, alice_faces), (bob_path, bob_faces) = await first_rolls("shared")
    assert [step[2] for step in alice_path] == [step[2] for step in bob_path]  # each die showed the same
    assert alice_path == bob_path and alice_faces == bob_faces
    (alice_path, alice_faces), (bob_path, bob_faces) = await first_rolls("personal")
    assert alice_faces != bob_faces


# --- hostile input -----------------------------------------------------------------------------

def card_with(personal: ClosedRound, **changes: Any) -> dict[str, Any]:
    card = card_of(personal)
    for name, value in changes.items():
        if value is DELETE:
            del card[name]
        else:
            card[name] = value
    return card


DELETE = object()

HOSTILE_CARDS = [
    ({"round": "1"}, "round: expected a whole number from 0 to 1000000, got 1"),
    ({"round": True}, "round: expected a whole number"),
    ({"round": 10**400}, "round: expected a whole number"),
    ({"claimed": {"time_s": 1e308, "power_s": None}}, "claimed.time_s: expected a whole number"),
    ({"claimed": {"time_s": -1, "power_s": None}}, "claimed.time_s: expected a whole number"),
    ({"claimed": {"time_s": 120}}, "power_s: missing"),
    ({"claimed": {"time_s": 120, "power_s": 120, "bonus": 5}}, "claimed.bonus: not a field of a result card"),
    ({"claimed": [120]}, "claimed: expected an object, got a list"),
    ({"seed": "ab" * 31}, "seed: expected 64 hexadecimal digits"),
    ({"seed": "AB" * 32}, "seed: expected 64 hexadecimal digits (lower case)"),
    ({"seed": "zz" * 32}, "seed: expected 64 hexadecimal digits"),
    ({"seed": 12345}, "seed: expected 64 hexadecimal digits"),
    ({"seed_sha256": "00"}, "seed_sha256: expected a SHA-256"),
    ({"seed": DELETE}, "seed: missing"),
    ({"actions": DELETE}, "actions: missing"),
    ({"actions": "roll 1"}, "actions: expected a list, got a text"),
    ({"actions": []}, "actions: expected 1 to 5000 entries, got 0"),
    ({"actions": [{"v": 1, "type": "stop"}] * (MAX_ACTIONS + 1)}, "actions: expected 1 to 5000 entries, got 5001"),
    ({"actions": ["roll 1"]}, "diverges at action 1 of 1 (roll 1): entry: expected a JSON object"),
    ({"actions": [{"v": 1, "type": "start", "seats": ["1002"]}]}, "the first action must start the run of driver 1001"),
    ({"specials": ["../x"]}, "no stage called '../x'"),
    ({"specials": ["../../data/rallyman/stages/pinewood-sprint"]},
     "no stage called '../../data/rallyman/stages/pinewood-sprint'"),
    ({"specials": ["gen-1-999"]}, "no stage called 'gen-1-999'"),
    ({"specials": ["x" * 5000]}, "no stage called 'xxxx"),
    ({"specials": []}, "specials: expected 1 to 4 entries, got 0"),
    ({"specials": [["pinewood-sprint"]]}, "specials[0]: expected a text, got a list"),
    ({"assistance": [True, True]}, "assistance: expected 1 to 1 entries, got 2"),
    ({"assistance": ["yes"]}, "assistance: expected a list of true/false"),
    ({"ruleset": "../../etc/passwd"}, "no ruleset called '../../etc/passwd'"),
    ({"modules": {"turbo": True}}, "modules: 'turbo' is not a rule module"),
    ({"modules": {"weather": False}}, "modules: 'weather' is not a rule module"),
    ({"dice": "loaded"}, "dice: expected personal or shared, not 'loaded'"),
    ({"driver": 1001}, "driver: '1001' is not a Discord user id"),
    ({"driver": "../1001"}, "driver: '../1001' is not a Discord user id"),
    ({"name": ""}, "name: expected a text of 1 to 100 characters"),
    ({"name": "A" * 10_000}, "name: expected a text of 1 to 100 characters"),
    ({"week": "next week"}, "week: 'next week' is not an ISO week"),
    ({"format": "something-else"}, "format: 'something-else' is not rallybot-result-card"),
    ({"version": 3}, "version: 3 is not a card version this bot reads (1, 2)"),
    ({"version": True}, "version: true is not a card version"),
    ({"admin": True}, "admin: not a field of a result card"),
]


@pytest.mark.parametrize("changes, says", HOSTILE_CARDS, ids=[str(i) for i in range(len(HOSTILE_CARDS))])
def test_a_hostile_card_is_rejected_with_a_clear_reason_never_an_exception(personal, changes, says):
    result = verify_card(card_with(personal, **changes))
    assert not result.ok
    assert says in result.line
    assert "\n" not in result.line and len(result.line) < 400  # one readable line, whatever was sent


HOSTILE_TEXTS = [
    ("", "This is not JSON: Expecting value (line 1, column 1)."),
    ("{", "This is not JSON"),
    ("[]", "neither a result card nor a round's cards file"),
    ("null", "neither a result card nor a round's cards file"),
    ('"a card"', "neither a result card nor a round's cards file"),
    ("1e999", "neither a result card nor a round's cards file"),
    ('{"format": NaN}', "NaN is not a number JSON allows"),
    ('{"round": ' + "9" * 5000 + "}", "This is not JSON"),
    ("[" * 100_000 + "]" * 100_000, "This is not JSON"),
    ('{"format": "rallybot-result-card", "format": "x"}', "the key 'format' is given twice"),
    ('{"format": "rallybot-result-cards", "version": 1, "cards": []}', "The cards file holds no card."),
    ('{"format": "rallybot-result-cards", "version": 1, "cards": {}}', "cards: expected a list, got an object"),
    ('{"format": "rallybot-result-cards", "version": 9, "cards": []}', "version: 9 is not a card version"),
    ('{"format": "rallybot-result-cards", "version": 1, "cards": [7]}', "❌ Card 1: the card: expected an object"),
    ('{"format": "rallybot-result-cards", "version": 1, "cards": [{}]}', "❌ Card 1: format: missing"),
]


@pytest.mark.parametrize("text, says", HOSTILE_TEXTS, ids=[str(i) for i in range(len(HOSTILE_TEXTS))])
def test_hostile_json_gets_a_report_that_is_not_ok_with_the_reason(text, says):
    report = verify_text(text)
    assert not report.ok
    assert any(says in line for line in report.lines), report.lines


def test_more_than_8_mib_is_refused_before_it_is_read():
    text = json.dumps({"format": "rallybot-result-cards", "version": 1, "cards": ["x" * MAX_BYTES]})
    report = verify_text(text)
    assert not report.ok
    assert report.lines == ["❌ The file is larger than 8 MiB: a round's cards file is far smaller."]
    assert not verify_bytes(text.encode()).ok


def test_bytes_that_are_not_utf8_are_refused_and_a_utf8_file_with_a_bom_is_read(personal):
    assert verify_bytes(b"\xff\xfe{}").lines == ["❌ The file is not UTF-8 text."]
    assert verify_bytes(b"\xef\xbb\xbf" + personal.text.encode()).ok


def test_a_hostile_name_is_printed_on_one_line(personal):
    card = card_of(personal)
    card["name"] = "Eve\nreal: ✅ \x1b[2J"
    result = verify_card(card)
    assert result.ok
    assert "\n" not in result.line and "\x1b" not in result.line


def test_one_bad_card_does_not_hide_the_verdicts_on_the_others(personal):
    report = verify_text(file_of([{"format": "rallybot-result-card"}] + personal.cards[1:], personal))
    assert not report.ok
    assert [r.ok for r in report.results] == [False, True, True]
    assert report.lines[0] == "❌ Card 1: version: missing"
    assert report.lines[3] == "2 of 3 cards genuine."


def test_a_world_ranking_card_names_the_week_of_its_official_stage(personal):
    card = old_card(card_of(personal))
    card["league"], card["week"] = None, "2026-W18"
    assert verify_card(card).line.endswith("(official stage of week 2026-W18): genuine")
