"""A new game needs no change outside its own folders. The test-only toy game
(Dice Dash, tests/toy_game/game.py), registered here only, is played through the real services
and store on both backends, in the console, through the real command tree from raw payloads, and
in a league round with its close, standings and points sorted the toy's way (higher is better).
"""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime

from bot.console import PLACE, Console, run_console, user_id
from bot.console.clock import console_service
from bot.services import RallyService
from bot.services.play.replay import log_problem, replay_snapshot
from tests.discord.fakes import Harness, channel_posts, private_answers

NAMES = ("ann", "ben")


async def play_to_the_end(console: Console, service: RallyService, store, toy, names=NAMES) -> None:
    """Type, for whoever is to act, the toy AI's choice: `/dash` or `/bank` (its own commands)."""
    by_id = {str(user_id(n)): n for n in names}
    for _ in range(400):
        rally = await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id)
        if rally is None:
            return
        state = service.work.state_of(rally)
        (seat,) = toy.rules.to_act(state)
        action = toy.coach.choose(toy.rules.view(state, seat), seat)
        await console.run_line(f"{by_id[seat]}: /{'dash' if action.kind == 'roll' else 'bank'}")
    raise AssertionError("the dash did not end")


async def test_a_dash_in_the_console_on_each_backend_replays_and_ranks_higher_points_first(store, toy):
    service = RallyService(store, seed_source=lambda: 5)
    out = io.StringIO()
    console = Console(service, out=out)
    await console.run_line("ann: /rally create stage:dash-3 drivers:2 game:dicedash")
    for name in NAMES:
        await console.run_line(f"{name}: /rally join")
    await console.run_line("ann: /rally start")
    await console.run_line("ben: /dash")  # not his turn: the toy's own refusal
    await play_to_the_end(console, service, store, toy)
    text = out.getvalue()
    assert "[only ben] It is not your turn to dash." in text
    assert "Rolled a" in text and "Banked" in text and "dashes next" in text
    assert text.count("[only") == 1, text[-2000:]  # nothing else was refused

    (rally,) = await store.rallies.finished_in_channel(PLACE.guild_id, PLACE.channel_id, 5)
    assert (rally.game, rally.status) == ("dicedash", "finished")
    outcome = toy.rules.outcome(toy.rules.from_json(rally.snapshot))
    scores = [r.score for r in outcome.seats]
    assert scores == sorted(scores, reverse=True)  # victory points: the most first
    # the results are the last lines but the careers' post and the "provisional rules" mark every post
    # of a provisional ruleset carries (the toy's default)
    results = "\n".join(line for line in text.splitlines()
                        if "earns an achievement" not in line and line != "[channel] provisional rules")
    last = "".join(results.rsplit("[channel]", 2)[1:])
    assert all(f"{name}: {points} points" in text for name, points in
               ((n, outcome.seats[i].score) for i, n in enumerate(
                   toy.narrator.seat_name(toy.rules.view(toy.rules.from_json(rally.snapshot), None),
                                          r.seat) for r in outcome.seats)))
    assert "points" in last

    # the log is the truth: it replays to the stored snapshot, every entry canonical for its game
    row = {**rally.as_dict(), "drivers": [d.as_dict() for d in await store.drivers.list(rally.id)]}
    actions = [a.as_dict() for a in await store.actions.list(rally.id)]
    assert replay_snapshot(row, actions) == rally.snapshot
    assert [log_problem(a["action"], rally.game) for a in actions] == [None] * len(actions)
    assert (await store.check(replay_snapshot, log_problem)).mismatches == []

    # its posts carry no picture (the toy draws none) and never its state (the pot, the dice)
    rows = await store.outbox.all()
    assert rows and all(row.body.get("image") is None for row in rows)
    stored = json.dumps([row.body for row in rows])
    assert '"pot"' not in stored and '"counter"' not in stored and '"toy.event_roll"' in stored

    # the archive reads it through the protocol too
    mark = len(out.getvalue())
    await console.run_line("ann: /rally results")
    assert "Dash 3" in out.getvalue()[mark:] and "points" in out.getvalue()[mark:]


async def test_a_bad_game_is_refused_naming_the_games_and_changes_nothing(store, toy):
    service = RallyService(store, seed_source=lambda: 5)
    out = io.StringIO()
    console = Console(service, out=out)
    await console.run_line("ann: /rally create stage:dash-3 game:chess")
    await console.run_line("ann: /rally create stage:pinewood-sprint game:dicedash")  # not a Dash track
    text = out.getvalue()
    assert "There is no game called `chess`. Games: rallyman, dirt, roadrally, dicedash." in text
    assert "There is no stage called `pinewood-sprint`. Stages: dash-3, dash-5" in text
    assert await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id) is None


async def test_the_command_tree_has_the_toys_commands_and_plays_them(tmp_path, toy):
    ann, ben = (2001, "Ann"), (2002, "Ben")
    async with Harness(tmp_path / "toy.sqlite3") as h:
        await h.command(ann, "rally", "create", stage="dash-3", drivers=2, game="dicedash")
        await h.command(ann, "rally", "join")
        await h.command(ben, "rally", "join")
        (started,) = channel_posts(await h.command(ann, "rally", "start"))
        assert "Ann, your dash: roll or bank." in started.content
        labels = [c["label"] for row in started.body.get("components", []) for c in row["components"]]
        assert labels == ["Roll", "Bank"]  # the toy's own buttons, in its own words
        (refused,) = private_answers(await h.command(ben, "bank"))
        assert "It is not your turn to dash." in refused
        (rolled,) = channel_posts(await h.command(ann, "dash"))
        assert "Rolled a" in rolled.content
        (acted,) = channel_posts(await h.command(ann, "act", action="bank"))
        assert "Banked" in acted.content and "Ben dashes next." in acted.content


NOW = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)  # a Monday


def league_night():
    yield 'mod: /league create name:"Dash Cup" timezone:UTC game:dicedash'
    yield "mod: /league round add stage:dash-3 day:mon hour:20"
    for name in NAMES:
        yield f"{name}: /league join"
    yield "mod: /clock +12h"
    for name in NAMES:
        yield f"{name}: /run start"
        yield f"{name}: /autopilot"
    yield "mod: /clock +7d"
    yield "ann: /league standings"


async def test_a_league_round_of_the_toy_closes_and_stands_by_points_higher_first(store, toy):
    service = console_service(store, seed=3, now=NOW)
    out = io.StringIO()
    await run_console(league_night(), service, out, admins=["mod"])
    text = out.getvalue()
    assert "Dash Cup — round 1 is closed" in text, text[-3000:]
    rounds = await store.db.read(lambda tx: tx.fetch_all("SELECT game FROM rounds", ()))
    assert [r[0] for r in rounds] == ["dicedash"]
    runs = await store.db.read(lambda tx: tx.fetch_all(
        "SELECT user_id, score, score_unit, status FROM runs ORDER BY score DESC", ()))
    assert len(runs) == 2 and {r[2] for r in runs} == {"vp"} and {r[3] for r in runs} == {"finished"}
    best, worst = runs
    standings = text.rsplit("Dash Cup — standings", 1)[1]
    assert standings.index(NAMES[[user_id(n) for n in NAMES].index(best[0])]) < \
        standings.index(NAMES[[user_id(n) for n in NAMES].index(worst[0])])
