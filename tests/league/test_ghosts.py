"""Ghost cars in solo runs (bot/services/league/ghosts.py, bot/services/league/ghost_board.py).

Through the real services on both backends: a league of classic (or DIRT) rounds on one stage,
runs driven by each game's AI as a driver types. A run started with `ghost:best` races the
driver's personal best on the stage, `ghost:leader` the best run of a **closed** round; the
ghost's place turn by turn is the stored run replayed from its log, its gap is said after each
turn, and the boards carry only the ghost's public place (no dice of anybody's run).
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from bot import games
from bot.engine.core.game import is_finished
from bot.engine.rallyman.ghosts import share_of
from bot.engine.rallyman.stages.catalogue import load_stage
from bot.engine.rallyman.stages.model import FINISH
from bot.engine.rallyman.view import BoardView
from bot.services import Actor, Place, RallyService
from bot.services.errors import ServiceError
from bot.services.league.ghost_board import MINUS, ghost_after, ghost_at, signed, time_at
from bot.services.league.runs import turn_boards
from bot.services.play.replay import replay_states
from bot.store.clock import from_text
from bot.store.leagues import rounds_of_league_tx, run_of_tx
from tests.league.league_helpers import ALICE, BOB, CAROL, DAVE, LEAGUE_CHANNEL, ORGANISER, new_thread

STAGE = "pinewood-sprint"


async def start(service: RallyService, actor: Actor, ghost: object = None, number: int | None = None) -> Place:
    """What the cog does with `ghost:`: check, make a thread, start the run in it (of round
    `number`; None: the only open one)."""
    champs = service.championships
    rnd, league = await champs.check_run(LEAGUE_CHANNEL, actor, round_number=number, ghost=ghost)
    thread = Place(guild_id=LEAGUE_CHANNEL.guild_id, channel_id=new_thread())
    await champs.start_run(LEAGUE_CHANNEL, actor, rnd, league, thread.channel_id, "Test server", ghost=ghost)
    return thread


async def drive(service: RallyService, actor: Actor, thread: Place) -> None:
    """Drive a run to its end with its game's AI, typed as the driver would (any game)."""
    for _ in range(600):
        rally = await service.store.rallies.get_active_in_channel(thread.guild_id, thread.channel_id)
        if rally is None or rally.status != "running":
            return
        game = games.get(rally.game)
        state = service.work.state_of(rally)
        seat = str(actor.user_id)
        await service.act(thread, actor, game.commands.label(game.coach.choose(game.rules.view(state, seat), seat)))
    raise AssertionError("the run did not end")


async def league(service: RallyService, deadlines, game: str = "rallyman", stage: str = STAGE) -> None:
    champs = service.championships
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "UTC", game=game)
    for actor in (ALICE, BOB, CAROL, DAVE):
        await champs.leagues.join(LEAGUE_CHANNEL, actor)
    await open_round(service, deadlines, stage)


async def open_round(service: RallyService, deadlines, stage: str = STAGE) -> None:
    await service.championships.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, stage, opens="now", closes="+2d")
    await deadlines.run_due()


async def close_open_rounds(service: RallyService, deadlines, clock) -> None:
    rounds = await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    clock.now = max(from_text(r.closes_at) for r in rounds if r.status == "open") + timedelta(minutes=1)
    await deadlines.run_due()


async def run_rally(service: RallyService, round_number: int, actor: Actor):
    rounds = await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    rnd = next(r for r in rounds if r.number == round_number)
    run = await service.store.db.read(lambda tx: run_of_tx(tx, rnd.id, actor.user_id))
    assert run is not None and run.rally_id is not None
    return run, await service.store.rallies.get(run.rally_id)


async def stored_boards(service: RallyService, rally_id: int) -> tuple[object, list]:
    """The board after each turn of a stored run, replayed from its log (as `/run replay` does)."""
    rally = await service.store.rallies.get(rally_id)
    row = {**rally.as_dict(), "drivers": [d.as_dict() for d in await service.store.drivers.list(rally_id)]}
    states = replay_states(row, [a.as_dict() for a in await service.store.actions.list(rally_id)])
    game = games.get(rally.game)
    return game, [states[0], *turn_boards(game, states)]


async def boards_of_thread(service: RallyService, thread: Place) -> list[tuple[list[str], dict | None]]:
    """Deliver what is owed; the posts of a run's thread, in order: their lines (English) and image spec."""
    out = []
    while batch := await service.delivery.claim():
        for item in batch:
            if item.row.channel_id == thread.channel_id:
                out.append((list(item.lines), item.image))
            await service.delivery.sent(item, None)
    return out


# -- the ghost is the stored run, replayed ------------------------------------------------------

async def test_the_best_ghost_is_at_the_space_the_stored_run_held_at_each_turn(service, deadlines, clock):
    await league(service, deadlines)
    await drive(service, ALICE, await start(service, ALICE))           # round 1: her best so far
    await open_round(service, deadlines)                               # round 2, same stage
    thread = await start(service, ALICE, ghost="best", number=2)
    best, best_rally = await run_rally(service, 1, ALICE)
    _, rally = await run_rally(service, 2, ALICE)
    ghost = rally.modules["ghost"]
    assert (ghost["kind"], ghost["run_id"], ghost["name"], ghost["score"]) == ("best", best.id, "Alice", best.score)
    game, boards = await stored_boards(service, best_rally.id)
    assert len(boards) > 3
    for state in boards:  # each turn's board of the stored run: the car's space and time, read from the state
        car = state.cars[0]
        progress = game.rules.progress(game.rules.view(state, None))
        mark = (ghost_after if is_finished(game.rules, state) else ghost_at)(ghost["track"], progress)
        assert mark is not None and (mark.place, mark.time) == (car.position, car.time)
    assert (boards[-1].cars[0].position, ghost["track"][-1][1:]) == (FINISH, [FINISH, best.score, 1.0])
    # the run's own boards: the gap where the driver stands on the road, the ghost drawn on its side
    await drive(service, ALICE, thread)
    drawn = 0
    stage = load_stage(STAGE)
    points = [(float(d), int(t), place) for _, place, t, d in ghost["track"]]
    for lines, image in await boards_of_thread(service, thread):
        if image is None or image.get("kind") != "board":
            continue
        view = image["view"]
        car = view["cars"][0]
        mine, time = share_of(stage, car["space"]), car["chrono_s"] - car["seconds_held"]
        gap = time - time_at(points, mine)
        assert f"{signed(round(gap))} s on your best" in "\n".join(lines)
        assert view["ghost"]["label"] == {"key": "ghost.label.best", "params": {}}
        ghost_at_ = share_of(stage, view["ghost"]["place"])
        assert (gap <= 0 or ghost_at_ >= mine) and (gap >= 0 or ghost_at_ < mine)  # the picture agrees with the post
        drawn += 1
    assert drawn > 3


def test_a_gap_is_signed_with_a_true_minus():
    assert (signed(-12), signed(5), signed(0)) == (f"{MINUS}12", "+5", "±0")


# -- the leader is never a run of an open round -------------------------------------------------

async def test_the_leader_ghost_comes_from_a_closed_round_even_when_an_open_one_has_a_better_run(
        service, deadlines, clock):
    await league(service, deadlines)
    await drive(service, BOB, await start(service, BOB))      # round 1, to be closed
    await close_open_rounds(service, deadlines, clock)
    await open_round(service, deadlines)                       # round 2, open
    for actor in (CAROL, ALICE):
        await drive(service, actor, await start(service, actor, number=2))
    bob, _ = await run_rally(service, 1, BOB)
    open_runs = [(await run_rally(service, 2, a))[0] for a in (CAROL, ALICE)]
    assert min(r.score for r in open_runs) < bob.score  # the best run on the stage is in the open round
    await open_round(service, deadlines)                       # round 3: Dave asks for the leader
    await start(service, DAVE, ghost="leader", number=3)
    _, rally = await run_rally(service, 3, DAVE)
    ghost = rally.modules["ghost"]
    assert (ghost["kind"], ghost["run_id"], ghost["name"]) == ("leader", bob.id, "Bob")


async def test_a_leader_ghost_where_only_open_runs_exist_is_refused_saying_why_and_nothing_is_written(
        service, deadlines):
    await league(service, deadlines)
    await drive(service, BOB, await start(service, BOB))  # a finished run, in the open round
    before = await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))
    outbox = await service.store.outbox.count_owed()
    with pytest.raises(ServiceError) as refused:
        await start(service, ALICE, ghost="leader")
    assert refused.value.key == "ghost.leader_open"
    assert "its runs stay hidden until it closes" in str(refused.value)
    rnd = before[0]
    found = await service.championships.leagues.league_here(LEAGUE_CHANNEL, None)
    assert await service.store.db.read(lambda tx: run_of_tx(tx, rnd.id, ALICE.user_id)) is None
    assert await service.store.outbox.count_owed() == outbox
    # the start itself refuses too (the cog's check may be skipped): still nothing written
    with pytest.raises(ServiceError) as again:
        await service.championships.start_run(LEAGUE_CHANNEL, ALICE, rnd, found, new_thread(), ghost="leader")
    assert again.value.key == "ghost.leader_open"
    assert await service.store.db.read(lambda tx: run_of_tx(tx, rnd.id, ALICE.user_id)) is None


async def test_a_leader_ghost_with_no_run_on_the_stage_at_all_is_refused(service, deadlines):
    await league(service, deadlines)
    with pytest.raises(ServiceError) as refused:
        await start(service, ALICE, ghost="leader")
    assert refused.value.key == "ghost.no_leader"


async def test_a_best_ghost_with_no_run_of_yours_on_the_stage_is_refused_and_nothing_starts(service, deadlines):
    await league(service, deadlines)
    await drive(service, BOB, await start(service, BOB))  # Bob's best is not Alice's
    rnd = (await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1)))[0]
    with pytest.raises(ServiceError) as refused:
        await start(service, ALICE, ghost="best")
    assert refused.value.key == "ghost.no_best"
    assert str(refused.value).startswith("No personal best on ")
    assert await service.store.db.read(lambda tx: run_of_tx(tx, rnd.id, ALICE.user_id)) is None
    thread = await start(service, ALICE, ghost="off")  # off: a plain run
    _, rally = await run_rally(service, 1, ALICE)
    assert "ghost" not in rally.modules and thread.channel_id == rally.channel_id


@pytest.mark.parametrize("value", ["worst", "best; DROP TABLE runs", "<@1002>", "x" * 500])
async def test_an_unknown_ghost_is_refused_naming_the_choices(service, deadlines, value):
    await league(service, deadlines)
    rnd = (await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1)))[0]
    with pytest.raises(ServiceError) as refused:
        await start(service, ALICE, ghost=value)
    assert refused.value.key == "ghost.bad_choice"
    assert "best, leader or off" in str(refused.value) and len(str(refused.value)) < 120
    assert await service.store.db.read(lambda tx: run_of_tx(tx, rnd.id, ALICE.user_id)) is None


# -- what the board spec holds ---------------------------------------------------------------------

async def test_a_boards_ghost_holds_its_public_place_and_label_only_and_the_track_no_dice(service, deadlines):
    await league(service, deadlines)
    await drive(service, ALICE, await start(service, ALICE))
    await open_round(service, deadlines)
    thread = await start(service, ALICE, ghost="best", number=2)
    _, rally = await run_rally(service, 2, ALICE)
    ghost = rally.modules["ghost"]
    assert set(ghost) == {"kind", "run_id", "name", "score", "track"}
    assert all(len(entry) == 4 and all(isinstance(p, int) for p in entry[0]) and isinstance(entry[2], int)
               and (entry[3] is None or isinstance(entry[3], float)) for entry in ghost["track"])
    stored = json.dumps(ghost)
    for secret in ("streams", "key", "common", "seed", "dice"):
        assert secret not in stored
    posts = await boards_of_thread(service, thread)
    boards = [image for _, image in posts if image and image.get("kind") == "board"]
    await service.board(thread, ALICE)  # `/rally board` in the run's thread draws it too, with its gap
    posts += await boards_of_thread(service, thread)
    assert "👻 ±0 s on your best." in posts[-1][0]
    boards = [image for _, image in posts if image and image.get("kind") == "board"]
    assert len(boards) == 2 and all(set(b["view"]["ghost"]) == {"place", "label"} for b in boards)
    plain = set(BoardView.model_fields) - {"ghost"}  # the ghost's run adds its place, nothing else
    assert all(set(b["view"]) == plain | {"ghost"} for b in boards)


# -- DIRT ----------------------------------------------------------------------------------------------

async def test_a_dirt_runs_ghost_is_the_stored_dirt_run_replayed(service, deadlines):
    stage = games.get("dirt").library.stages.names()[0]
    await league(service, deadlines, game="dirt", stage=stage)
    await drive(service, ALICE, await start(service, ALICE))
    await open_round(service, deadlines, stage)
    thread = await start(service, ALICE, ghost="best", number=2)
    _, best_rally = await run_rally(service, 1, ALICE)
    _, rally = await run_rally(service, 2, ALICE)
    ghost = rally.modules["ghost"]
    game, boards = await stored_boards(service, best_rally.id)
    seat = str(ALICE.user_id)
    for state in boards:
        car = state.cars[seat]
        progress = game.rules.progress(game.rules.view(state, None))
        mark = (ghost_after if is_finished(game.rules, state) else ghost_at)(ghost["track"], progress)
        on_track = car.space is not None and car.status in ("racing", "finished")
        assert mark is not None and mark.place == (car.space if on_track else None)
    await drive(service, ALICE, thread)
    drawn = [image["view"]["ghost"] for _, image in await boards_of_thread(service, thread)
             if image and image.get("kind") == "board" and image["view"].get("ghost")]
    assert drawn and all(g["label"] == {"key": "ghost.label.best", "params": {}} for g in drawn)
