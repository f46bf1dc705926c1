"""`/run replay` (bot/services/league/runs.py, championships.replay): the board a driver's run showed after
a turn, as anybody may look at it once the round closed.

Through the real services: a league, a round opened and closed by its jobs, runs driven by the AI
as a driver types. The replay's text and its board (the image spec the renderer draws) name the
driver as the league knows them, never their Discord id; and without `round:` the replay picks the
latest round the asker may look at, not a round opened a moment ago.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.services.errors import ServiceError
from bot.store.clock import from_text
from bot.store.leagues import rounds_of_league_tx
from tests.league.league_helpers import ALICE, BOB, LEAGUE_CHANNEL, ORGANISER, drive, start_run


async def league_with_a_closed_round(service, deadlines, clock, next_round: bool = False) -> None:
    """Sunday Cup: round 1 on pinewood-sprint driven by Alice and Bob, then closed; with
    `next_round`, round 2 opens the moment round 1 closes."""
    champs = service.championships
    leagues = champs.leagues
    await leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "UTC")
    for actor in (ALICE, BOB):
        await leagues.join(LEAGUE_CHANNEL, actor)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="now", closes="+2d")
    await deadlines.run_due()
    for actor in (ALICE, BOB):
        await drive(service, actor, await start_run(service, actor))
    first = (await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1)))[0]
    if next_round:
        await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="+2d", closes="+4d")
    clock.now = from_text(first.closes_at) + timedelta(minutes=1)
    await deadlines.run_due()
    rounds = await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    assert [r.status for r in rounds] == (["closed", "open"] if next_round else ["closed"])


async def board_of(service, reply) -> dict:
    """The image spec of the replay's post, as the renderer gets it."""
    (row_id,) = reply.outbox
    row = await service.store.outbox.get(row_id)
    return row.body["image"]


async def test_a_replay_names_the_driver_in_its_text_and_on_its_board_never_their_id(service, deadlines, clock):
    await league_with_a_closed_round(service, deadlines, clock)
    reply = await service.championships.replay(LEAGUE_CHANNEL, BOB, ALICE.user_id, turn=1)
    assert reply.lines[0].startswith("Alice in Sunday Cup — round 1: the board after turn 1 of ")
    spec = await board_of(service, reply)
    assert [(car["driver_id"], car["name"]) for car in spec["view"]["cars"]] == [("1001", "Alice")]  # the name drawn


async def test_without_a_round_the_replay_shows_the_round_just_closed_not_the_one_just_opened(
        service, deadlines, clock):
    await league_with_a_closed_round(service, deadlines, clock, next_round=True)
    reply = await service.championships.replay(LEAGUE_CHANNEL, BOB, ALICE.user_id)  # no round: the latest
    assert reply.lines[0].startswith("Alice in Sunday Cup — round 1: the board after turn ")
    mine = await service.championships.replay(LEAGUE_CHANNEL, ALICE, ALICE.user_id)  # her own run too
    assert mine.lines[0].startswith("Alice in Sunday Cup — round 1: ")


async def test_without_a_round_a_driver_sees_their_own_run_of_the_open_round(service, deadlines, clock):
    await league_with_a_closed_round(service, deadlines, clock, next_round=True)
    await drive(service, ALICE, await start_run(service, ALICE))  # round 2, still open
    mine = await service.championships.replay(LEAGUE_CHANNEL, ALICE, ALICE.user_id)
    assert mine.lines[0].startswith("Alice in Sunday Cup — round 2: ")
    theirs = await service.championships.replay(LEAGUE_CHANNEL, BOB, ALICE.user_id)  # not Bob: still open
    assert theirs.lines[0].startswith("Alice in Sunday Cup — round 1: ")
    with pytest.raises(ServiceError) as refused:  # asked for by number, the open round is still refused
        await service.championships.replay(LEAGUE_CHANNEL, BOB, ALICE.user_id, round_number=2)
    assert refused.value.key == "run.replay_after_close"


async def test_while_the_only_round_is_open_another_drivers_run_is_refused_until_its_close(service, deadlines):
    champs = service.championships
    leagues = champs.leagues
    await leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "UTC")
    await leagues.join(LEAGUE_CHANNEL, ALICE)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="now", closes="+2d")
    await deadlines.run_due()
    await drive(service, ALICE, await start_run(service, ALICE))
    with pytest.raises(ServiceError) as refused:
        await service.championships.replay(LEAGUE_CHANNEL, BOB, ALICE.user_id)
    assert refused.value.key == "run.replay_after_close"
    with pytest.raises(ServiceError) as none:  # Bob's own: he has no run
        await service.championships.replay(LEAGUE_CHANNEL, BOB, BOB.user_id)
    assert none.value.key == "run.no_run"
