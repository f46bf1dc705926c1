"""DIRT everywhere classic is: a rally of two stages in the console on both
backends against an AI driver, through the real command tree with its buttons and `/act`, and a
league round on a DIRT stage (solo runs, close, standings) — all through the `Game` protocol."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime

from bot import games
from bot.console import PLACE, Console, run_console, user_id
from bot.console.clock import console_service
from bot.services import RallyService
from bot.services.play.replay import log_problem, replay_snapshot
from bot.services.world.card_check import verify_text
from bot.store.leagues import cards_tx
from tests.discord.fakes import Harness, buttons_of, channel_posts, click_payload, private_answers

DIRT = games.get("dirt")


async def drive_to_the_end(console: Console, service: RallyService, store, names: dict[str, str]) -> None:
    """Type, for whichever person is to act, what the DIRT AI would play (`/roll …`, `/stop`)."""
    for _ in range(3000):
        rally = await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id)
        if rally is None:
            return
        state = service.work.state_of(rally)
        (seat,) = DIRT.rules.to_act(state)
        if seat not in names:  # an AI driver's turn: the console lets it drive
            await console.run_line("ann: /rally status")
            continue
        move = DIRT.coach.choose(DIRT.rules.view(state, seat), seat)
        await console.run_line(f"{names[seat]}: /{DIRT.commands.typed(move)}")
    raise AssertionError("the rally did not end")


async def test_a_two_stage_dirt_rally_against_the_ai_in_the_console_replays_and_says_provisional(store):
    service = RallyService(store, seed_source=lambda: 5)
    out = io.StringIO()
    console = Console(service, out=out)
    await console.run_line("ann: /rally create game:dirt stage:dusty-pines,sauna-hill drivers:3")
    await console.run_line("ann: /rally add-ai count:1")
    await console.run_line("ann: /rally join")
    await console.run_line("ben: /rally join")
    await console.run_line("ann: /rally start")
    await drive_to_the_end(console, service, store, {str(user_id("ann")): "ann", str(user_id("ben")): "ben"})
    text = out.getvalue()
    assert "opens a rally of 2 specials: SS1 Dusty Pines, SS2 Sauna Hill" in text
    assert "Stage 1 is over" in text and "Rally classification after stage 1:" in text
    assert "The rally is over." in text and "provisional rules" in text.rsplit("The rally is over.", 1)[1]
    assert "[only" not in text  # nothing the AI chose was refused

    (rally,) = await store.rallies.finished_in_channel(PLACE.guild_id, PLACE.channel_id, 5)
    assert (rally.game, rally.ruleset, rally.status) == ("dirt", "provisional", "finished")
    state = DIRT.rules.from_json(rally.snapshot)
    assert all(len(car.stage_times) == 2 or car.status in ("out", "retired") for car in state.cars.values())
    row = {**rally.as_dict(), "drivers": [d.as_dict() for d in await store.drivers.list(rally.id)]}
    actions = [a.as_dict() for a in await store.actions.list(rally.id)]
    assert replay_snapshot(row, actions) == rally.snapshot  # the log is the truth
    assert [log_problem(a["action"], rally.game) for a in actions] == [None] * len(actions)
    rows = await store.outbox.all()
    assert any((r.body.get("image") or {}).get("game") == "dirt" for r in rows)  # boards drawn by DIRT's renderer


async def test_dirt_refusals_in_the_console_change_nothing(store):
    service = RallyService(store, seed_source=lambda: 5)
    out = io.StringIO()
    console = Console(service, out=out)
    await console.run_line("ann: /rally create game:dirt stage:pinewood-sprint")  # a classic stage
    await console.run_line("ann: /rally create game:dirt stage:dusty-pines ruleset:classic")
    assert await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id) is None
    await console.run_line("ann: /rally create game:dirt stage:dusty-pines drivers:2")
    await console.run_line("ann: /rally join")
    await console.run_line("ben: /rally join")
    await console.run_line("ann: /rally start")
    rally = await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id)
    first = DIRT.rules.to_json(service.work.state_of(rally))
    (seat,) = DIRT.rules.to_act(service.work.state_of(rally))
    name = "ann" if seat == str(user_id("ann")) else "ben"
    mark = len(out.getvalue())
    for line in (f"{name}: /roll 3", f"{name}: /roll coast", f"{name}: /roll leader", f"{name}: /roll 1+brake",
                 f"{name}: /roll 1 sideways"):
        await console.run_line(line)
    rally = await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id)
    assert DIRT.rules.to_json(service.work.state_of(rally)) == first
    text = out.getvalue()
    assert "There is no stage called `pinewood-sprint`. Stages: birch-ridge" in text
    assert "no ruleset called `classic`" in text
    refusals = text[mark:].split(f"[only {name}] ")[1:]
    assert len(refusals) == 5, text[mark:]
    assert "gear die 1" in refusals[0] and "coast" in refusals[1]  # B6.2, B6.3: from standstill, gear 1 first


async def test_the_command_tree_plays_dirt_with_buttons_and_act(tmp_path):
    ann, ben = (2001, "Ann"), (2002, "Ben")
    async with Harness(tmp_path / "dirt.sqlite3") as h:
        await h.command(ann, "rally", "create", stage="dusty-pines", drivers=2, game="dirt")
        await h.command(ann, "rally", "join")
        await h.command(ben, "rally", "join")
        started = channel_posts(await h.command(ann, "rally", "start"))
        turn = started[-1]
        assert "your turn: you may roll" in turn.content
        first = "Ann" if "Ann, your turn" in turn.content else "Ben"
        driver, other = (ann, ben) if first == "Ann" else (ben, ann)
        message = h.last_turn_message()
        ids = buttons_of(message)
        assert len(ids) == 2  # gear die 1, left or right lane (B6.2, B7)
        (refused,) = private_answers(await h.command(other, "roll", dice="1"))
        assert "not your turn" in refused
        clicked = channel_posts(await h.dispatch(click_payload(driver, message, ids[0])))
        assert any("plays gear die 1" in p.content for p in clicked)
        acted = channel_posts(await h.command(driver, "act", action="2"))
        assert any("plays gear die 2" in p.content for p in acted)
        stopped = channel_posts(await h.command(driver, "stop"))
        assert any("ends the turn in gear 2" in p.content for p in stopped)


NOW = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)  # a Monday
NAMES = ("ann", "ben")


def league_night():
    yield 'mod: /league create name:"Gravel Cup" timezone:UTC game:dirt'
    yield "mod: /league round add stage:sauna-hill day:mon hour:20"
    for name in NAMES:
        yield f"{name}: /league join"
    yield "mod: /clock +12h"
    for name in NAMES:
        yield f"{name}: /run start"
        yield f"{name}: /autopilot"
    yield "mod: /clock +7d"
    yield "ann: /league standings"


async def test_a_league_round_on_a_dirt_stage_closes_with_times_lowest_first(store):
    service = console_service(store, seed=3, now=NOW)
    out = io.StringIO()
    await run_console(league_night(), service, out, admins=["mod"])
    text = out.getvalue()
    assert "Gravel Cup — round 1 is closed" in text, text[-3000:]
    rounds = await store.db.read(lambda tx: tx.fetch_all("SELECT game, ruleset FROM rounds", ()))
    assert [tuple(r) for r in rounds] == [("dirt", "provisional")]
    runs = await store.db.read(lambda tx: tx.fetch_all(
        "SELECT user_id, score, score_unit, status FROM runs ORDER BY score", ()))
    assert len(runs) == 2 and {r[2] for r in runs} == {"s"}
    finished = [r for r in runs if r[3] == "finished"]
    assert finished, runs
    standings = text.rsplit("Gravel Cup — standings", 1)[1]
    best = NAMES[[user_id(n) for n in NAMES].index(finished[0][0])]
    assert best in standings and "provisional rules" in standings

    # its result cards name DIRT and its provisional rules, bound by the round's digest (B13)
    cards = await store.db.read(lambda tx: cards_tx(tx, 1))
    document = json.loads(cards)
    assert document["round"]["game"] == "dirt" and document["round"]["provisional"] is True
    report = verify_text(cards)
    assert report.ok and all("genuine [Rallyman: DIRT, provisional rules]" in line for line in report.lines[:2]), \
        report.lines
    document["cards"][0]["provisional"] = False
    assert not verify_text(json.dumps(document)).ok  # an edited flag is refused


async def test_deadlines_let_the_ai_drive_a_turn_not_begun_and_end_a_begun_one_as_it_stands(store):
    service = console_service(store, seed=2, now=NOW)
    out = io.StringIO()
    lines = ["ann: /rally create game:dirt stage:dusty-pines drivers:2", "ann: /rally join", "ben: /rally join",
             "ann: /rally start", "mod: /clock +25h"]
    await run_console(iter(lines), service, out, admins=["mod"])
    text = out.getvalue()
    assert "Time is up for ann: the AI drives this turn for them." in text
    # the AI drove that one turn only: the same driver's next turn (round 2, B5) is theirs again
    *_, turn, tag, _ = text.rstrip().splitlines()
    assert turn.startswith("[channel] ann, your turn: you may roll")
    assert tag == "[channel] _DIRT, provisional rules (`/rules` lists them)_"  # B13: on every turn message
    mark = len(text)
    await run_console(iter(["ann: /roll 5", "mod: /clock +25h"]), service, out, admins=["mod"])
    later = out.getvalue()[mark:]
    assert "the turn ends here, as if they had stopped" in later and "ends the turn in gear 5: +20 s" in later
    assert "ben, your turn" in later
