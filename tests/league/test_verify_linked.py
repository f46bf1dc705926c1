"""A linked card binds every label it shows too.

The week's official run counts in every league round on that official stage (item 3): at such a
round's close its cards file carries the card of the round D that drove the run (D's seed and
labels: what replays) with `counts_for` naming the round whose file it is. Cards version 2 bind
every label (item 4): the file also holds D's header (`driven`), which the round's digest binds,
and the card names it by `driven_sha256`. So a relabelled linked card is refused naming the field,
offline (the file's own header, results and driven headers, checked against their hash) and in
`/verify` (the rounds as stored: the week's official rounds share one seed, the card's digest
says which it is of), and the results post's round SHA-256 is the file's.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine.core.official import week_bounds
from bot.engine.core.scores import format_time
from bot.services import RallyService
from bot.services.play.deadlines import DeadlineService
from bot.services.world.card_check import verify_bytes, verify_card, verify_text
from bot.services.world.cards import header_digest
from bot.store import Store
from bot.store.clock import from_text
from bot.store.leagues import cards_tx, official_run_tx, world_round_tx
from tests.discord.fakes import FakeClock
from tests.league.conftest import START, deliver, league_service
from tests.league.league_helpers import ALICE, BOB, CAROL, LEAGUE_CHANNEL, drive, start_run
from tests.league.test_official_once import (
    OTHER_CHANNEL,
    OTHER_ORGANISER,
    close,
    league,
    official_round,
    scratch_run,
    the_round,
    to_next_week,
)
from tests.league.test_verify import in_a_thread
from tests.league.test_verify_labels import RELABEL as CARD_RELABEL
from tests.league.test_verify_labels import edited, names_the_field, single_edits


async def three_ways(service: RallyService, clock: FakeClock, deadlines: DeadlineService) -> str:
    """Sunday Cup's official round of the week, closed: Alice's world scratch run and Carol's run
    of Other Cup's official round count in it, Bob drove his in it. The week."""
    week = to_next_week(clock)
    await league(service, drivers=(ALICE, BOB, CAROL))
    await league(service, OTHER_CHANNEL, OTHER_ORGANISER, "Other Cup", drivers=(CAROL,))
    await official_round(service, deadlines)
    await official_round(service, deadlines, OTHER_CHANNEL, OTHER_ORGANISER)
    await drive(service, ALICE, await scratch_run(service, ALICE))
    await drive(service, CAROL, await start_run(service, CAROL, OTHER_CHANNEL))
    await drive(service, BOB, await start_run(service, BOB))
    await close(clock, deadlines, await the_round(service.store))
    return week


@dataclass
class Linked:
    text: str  # Sunday Cup round 1's cards file
    week: str

    def document(self) -> dict[str, Any]:
        return json.loads(self.text)

    def card(self, name: str) -> dict[str, Any]:
        return copy.deepcopy(next(c for c in self.document()["cards"] if c["name"] == name))

    def index(self, name: str) -> int:
        return next(i for i, c in enumerate(self.document()["cards"]) if c["name"] == name)

    def file_with(self, name: str, card: dict[str, Any]) -> str:
        """The file with `name`'s card replaced by `card` (in its place)."""
        document = self.document()
        document["cards"][self.index(name)] = card
        return json.dumps(document)


async def closed_linked(path: Path) -> Linked:
    store = await Store.open(path)
    try:
        clock = FakeClock(START)
        service = league_service(store, clock)
        week = await three_ways(service, clock, DeadlineService(service.work, clock=clock))
        rnd = await the_round(store)
        text = await store.db.read(lambda tx: cards_tx(tx, rnd.id))
        assert text is not None
        return Linked(text, week)
    finally:
        await store.close()


@pytest.fixture(scope="module")
def linked(tmp_path_factory) -> Linked:
    return in_a_thread(closed_linked(tmp_path_factory.mktemp("linked") / "db.sqlite3"))


def test_a_linked_card_is_the_driving_rounds_card_and_the_file_binds_that_rounds_header(linked):
    document = linked.document()
    assert [r["name"] for r in document["results"]] == ["Alice", "Bob", "Carol"]  # the round's results
    world, other = sorted(document["driven"], key=lambda h: h["league"] or "")
    assert (world["league"], world["week"], other["league"], other["round"]) == (None, linked.week, "Other Cup", 1)
    alice, bob, carol = (linked.card(name) for name in ("Alice", "Bob", "Carol"))
    assert alice["counts_for"] == carol["counts_for"] == {"league": "Sunday Cup", "round": 1}
    assert (alice["driven_sha256"], carol["driven_sha256"]) == (header_digest(world), header_digest(other))
    assert {k: alice[k] for k in world} == world and {k: carol[k] for k in other} == other
    assert alice["round_sha256"] == bob["round_sha256"] == carol["round_sha256"] == document["round_sha256"]
    assert "counts_for" not in bob and "driven_sha256" not in bob
    report = verify_text(linked.text, round_published=document["round_sha256"])
    assert report.ok, report.lines
    assert [line.split(" — ")[0] for line in report.lines[:3]] == ["✅ Alice", "✅ Carol", "✅ Bob"]  # run order
    assert report.lines[0].endswith(f"(round 1 of Sunday Cup; driven in: official stage of week {linked.week}): "
                                    "genuine")
    assert report.lines[1].endswith("(round 1 of Sunday Cup; driven in: round 1 of Other Cup): genuine")
    assert report.lines[2].endswith("(round 1 of Sunday Cup): genuine")


def test_a_version_1_file_with_a_linked_card_still_verifies_its_runs_with_a_note(linked):
    """A file of the rounds closed before version 2 (its linked cards carry `counts_for` alone):
    the cards agree on the round they count for, the runs replay, the labels are as written."""
    document = linked.document()
    old = {"format": document["format"], "version": 1, "cards": [
        {**{k: v for k, v in card.items() if k not in ("league_id", "round_sha256", "driven_sha256")}, "version": 1}
        for card in document["cards"]]}
    report = verify_text(json.dumps(old))
    assert report.ok, report.lines
    assert report.lines[0].endswith(f"(round 1 of Sunday Cup; driven in: official stage of week {linked.week}): "
                                    "genuine")
    assert report.lines[1].endswith("(round 1 of Sunday Cup; driven in: round 1 of Other Cup): genuine")
    assert report.lines[-1].startswith("Version 1 cards: their run is replayed")
    old["cards"][0]["counts_for"] = {"league": "Sunday Cup", "round": 2}  # moved to another round: an odd card
    assert "its round differs" in verify_text(json.dumps(old)).lines[0]


# A plausible relabelling of each label a linked card shows or binds: every card's, and the two a
# linked card adds (the forger's edit, well formed).
RELABEL = {**CARD_RELABEL, "counts_for.league": "Grand Prix Cup", "counts_for.round": 2}


@pytest.mark.parametrize("field", sorted(RELABEL))
def test_a_relabelled_linked_card_is_refused_naming_the_label(linked, field):
    card = linked.card("Alice")
    if field.startswith("counts_for."):
        card["counts_for"][field.split(".")[1]] = RELABEL[field]
    else:
        card[field] = RELABEL[field] if field != "assistance" else [not flag for flag in card["assistance"]]
    report = verify_text(linked.file_with("Alice", card))
    assert [r.ok for r in report.results] == [False, True, True]
    assert report.results[0].line == (f"❌ Alice (round 1 of Sunday Cup; driven in: official stage of week "
                                      f"{linked.week}): its {field} is not the one published for this round")
    assert "Mallory" not in "\n".join(report.lines) and "Grand Prix" not in "\n".join(report.lines)


def test_a_linked_card_naming_another_driving_round_is_refused(linked):
    """Alice's card pointing at the header of the round Carol drove in: its labels are then not
    that round's; a header the file does not hold is named as such."""
    alice, carol = linked.card("Alice"), linked.card("Carol")
    report = verify_text(linked.file_with("Alice", {**alice, "driven_sha256": carol["driven_sha256"]}))
    assert report.results[0].line == ("❌ Alice (round 1 of Sunday Cup; driven in: round 1 of Other Cup): its "
                                      "league_id is not the one published for this round")
    report = verify_text(linked.file_with("Alice", {**alice, "driven_sha256": "cd" * 32}))
    assert report.results[0].line == ("❌ Alice (round 1 of Sunday Cup): its driven_sha256 is not the one "
                                      "published for this round")
    bob = linked.card("Bob")  # a card of the round itself claiming to be linked
    report = verify_text(linked.file_with("Bob", {**bob, "counts_for": alice["counts_for"],
                                           "driven_sha256": alice["driven_sha256"]}))
    assert report.results[linked.index("Bob")].line == (
        f"❌ Bob (round 1 of Sunday Cup; driven in: official stage of week {linked.week}): its league_id is not the "
        "one published for this round")


def test_a_driving_rounds_header_edited_in_the_file_no_longer_hashes_to_its_digest(linked):
    document = linked.document()
    world = next(h for h in document["driven"] if h["league"] is None)
    world["week"] = "2026-W18"
    report = verify_text(json.dumps(document))
    assert report.lines == ["❌ The file's round and results do not hash to its round_sha256: they were altered."]
    document["driven"] = "x"
    assert verify_text(json.dumps(document)).lines[0].startswith("❌ driven: expected a list of the headers")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_single_field_edit_of_a_linked_card_is_refused_naming_the_field_or_changes_nothing_shown(linked, data):
    for name in ("Alice", "Carol"):  # driven in the world round; in another league's round
        card = linked.card(name)
        field, value = data.draw(single_edits(card))
        changed = edited(card, field, value)
        if changed == card:
            continue
        genuine = verify_text(linked.text)
        report = verify_text(linked.file_with(name, changed))  # in its round's cards file
        mine = linked.index(name)
        result = report.results[mine]
        if result.ok:
            assert report.lines == genuine.lines, (name, field, value)
        else:
            assert names_the_field(result.reason or "", field), (name, field, value, result.line)
            if field != "driver":
                others = [i for i in range(3) if i != mine]
                assert [report.lines[i] for i in others] == [genuine.lines[i] for i in others]
        alone, alone_genuine = verify_card(changed), verify_card(card)
        if alone.ok:
            assert alone.line == alone_genuine.line, (name, field, value)
        else:
            assert names_the_field(alone.reason or "", field), (name, field, value, alone.line)


# --- in the bot ----------------------------------------------------------------------------------

async def test_the_results_post_carries_the_digest_of_a_round_with_linked_runs_and_verify_accepts_it(
        service, store, clock, deadlines, posts):
    week = await three_ways(service, clock, deadlines)
    rnd = await the_round(store)
    text = await store.db.read(lambda tx: cards_tx(tx, rnd.id))
    digest = json.loads(text)["round_sha256"]
    await deliver(service, posts)
    assert f"Round SHA-256 `{digest}`" in posts.text(LEAGUE_CHANNEL.channel_id)
    assert verify_bytes(text.encode(), rnd.seed_hash, round_published=digest).ok
    lines = await service.championships.verify(text.encode())
    assert lines[0].startswith("✅ Alice — ") and lines[0].endswith(
        f"(round 1 of Sunday Cup; driven in: official stage of week {week}): genuine")
    assert lines[1].endswith("(round 1 of Sunday Cup; driven in: round 1 of Other Cup): genuine")
    assert "3 of 3 cards genuine." in lines


async def test_verify_checks_a_linked_card_against_the_stored_rounds_that_share_its_seed(service, store, clock,
                                                                                          deadlines):
    """The world round, Other Cup's and Sunday Cup's official rounds share the week's seed: a bare
    card is checked against the round whose digest it carries; relabelled, it is refused naming
    the field; the world round's own card of the same run names the week alone."""
    week = await three_ways(service, clock, deadlines)
    rnd = await the_round(store)
    document = json.loads(await store.db.read(lambda tx: cards_tx(tx, rnd.id)))
    alice = next(c for c in document["cards"] if c["name"] == "Alice")
    carol = next(c for c in document["cards"] if c["name"] == "Carol")
    run = await store.db.read(lambda tx: official_run_tx(tx, week, ALICE.user_id))
    bare = await service.championships.verify(json.dumps(alice).encode())
    assert bare == [f"✅ Alice — {format_time(run.time_s)} (round 1 of Sunday Cup; driven in: official stage of week "
                    f"{week}): genuine"]
    assert (await service.championships.verify(json.dumps(carol).encode()))[0].endswith(
        "(round 1 of Sunday Cup; driven in: round 1 of Other Cup): genuine")
    for field, value in (("week", "2026-W18"), ("league", "Grand Prix Cup"), ("name", "Mallory")):
        lines = await service.championships.verify(json.dumps({**alice, field: value}).encode())
        assert lines[0] == (f"❌ Alice (round 1 of Sunday Cup; driven in: official stage of week {week}): its "
                            f"{field} is not the one published for this round")
    lines = await service.championships.verify(json.dumps({**alice, "counts_for": {"league": "Other Cup",
                                                                                    "round": 1}}).encode())
    assert lines[0].startswith("❌ Alice (round 1 of Sunday Cup") and "its counts_for.league is not" in lines[0]

    clock.now = week_bounds(week)[1] + timedelta(minutes=1)  # the world round closes with the week
    await deadlines.run_due()
    world = await store.db.read(lambda tx: world_round_tx(tx, week))
    assert world is not None and world.status == "closed" and world.seed_hash == rnd.seed_hash
    own = json.loads(await store.db.read(lambda tx: cards_tx(tx, world.id)))["cards"][0]
    assert "counts_for" not in own
    assert await service.championships.verify(json.dumps(own).encode()) == [
        f"✅ Alice — {format_time(run.time_s)} (official stage of week {week}): genuine"]


async def test_a_linked_run_finishing_after_the_round_closed_leaves_its_published_file_verifying(
        service, store, clock, deadlines):
    """Alice's world run is still being driven when Sunday Cup's round closes (a DNF there): it
    finishes later, and the round's file (without her card) still verifies against the round as
    stored: what the round binds is what was published at its close."""
    week = to_next_week(clock)
    await league(service, drivers=(ALICE, BOB))
    await official_round(service, deadlines, closes="+2h")
    rnd = await the_round(store)
    thread = await scratch_run(service, ALICE)
    await drive(service, BOB, await start_run(service, BOB))
    await close(clock, deadlines, rnd)
    await drive(service, ALICE, thread)
    assert (await store.db.read(lambda tx: official_run_tx(tx, week, ALICE.user_id))).status == "finished"
    text = await store.db.read(lambda tx: cards_tx(tx, rnd.id))
    assert [c["name"] for c in json.loads(text)["cards"]] == ["Bob"]
    lines = await service.championships.verify(text.encode())
    assert len(lines) == 1 and lines[0].startswith("✅ Bob — ")
    assert lines[0].endswith("(round 1 of Sunday Cup): genuine")
    assert from_text(rnd.closes_at) < clock()
