"""`/act` and the shortcuts built from the games' verb tables, through the REAL
command tree from raw interaction payloads: `/act` plays any move as typed, its autocomplete
offers the asking seat's legal actions, a move that is none gets the game's own refusal privately
and changes nothing; a registered game's command reaches the tree and the help with no code
written for it."""

from __future__ import annotations

import pytest

from bot.cogs.tree_info import summary, tree_payload
from bot.engine.core.game import Verb, VerbOption
from bot.games import register, unregister
from bot.services.help_text import help_groups
from tests.discord.fakes import Harness, channel_posts, command_payload, option, private_answers
from tests.toy_game.game import DashCommands, DashRules, dice_dash

BOB = (1002, "Bob")
ALICE = (1001, "Alice")


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "act.sqlite3") as harness:
        await harness.command(BOB, "rally", "create", stage="pinewood-sprint", drivers=2)
        await harness.command(BOB, "rally", "join")
        await harness.command(ALICE, "rally", "join")
        await harness.command(BOB, "rally", "start")
        yield harness


async def stored(h: Harness) -> tuple:
    store = h.bot.store
    return ((await store.rallies.get(1)).as_dict(), [a.as_dict() for a in await store.actions.list(1)],
            [r.as_dict() for r in await store.outbox.all()])


async def test_act_plays_a_move_as_typed(h):
    (post,) = channel_posts(await h.command(BOB, "act", action="1"))
    assert "**Bob** rolls 1" in post.content
    (post,) = channel_posts(await h.command(BOB, "act", action="stop"))
    assert "**Bob** stops in gear 1" in post.content


@pytest.mark.parametrize("who, text, says", [
    (BOB, "banana", "I don't understand `banana`"),
    (BOB, "x" * 101, "`action` is too long (101 characters; at most 100)"),
    (ALICE, "1", "not your turn: Bob is driving"),
])
async def test_act_with_no_legal_move_is_refused_privately_and_changes_nothing(h, who, text, says):
    before = await stored(h)
    calls = await h.command(who, "act", action=text)
    (answer,) = private_answers(calls)
    assert says in answer and channel_posts(calls) == []
    assert await stored(h) == before


async def test_act_autocompletes_the_asking_seats_legal_actions(h):
    await h.command(BOB, "act", action="1")
    (call,) = await h.dispatch(command_payload(BOB, "act", None, [option("action", "", focused=True)],
                                               autocomplete=True))
    assert [c["value"] for c in call.body["data"]["choices"]] == ["2", "W", "stop"]
    (call,) = await h.dispatch(command_payload(BOB, "act", None, [option("action", "st", focused=True)],
                                               autocomplete=True))
    assert [c["value"] for c in call.body["data"]["choices"]] == ["stop"]
    (call,) = await h.dispatch(command_payload(ALICE, "act", None, [option("action", "", focused=True)],
                                               autocomplete=True))
    assert call.body["data"]["choices"] == []  # not her turn: nothing to offer


async def test_a_registered_games_command_is_in_the_tree_and_the_help_with_no_code_for_it(tmp_path):
    hop = Verb("hop", "discord.cmd.roll", "hop {far}", (VerbOption("far", "discord.opt.dice", required=False),
                                                       VerbOption("fast", "discord.opt.end", required=False,
                                                                  kind="bool", word="fast")))

    class Toy(DashRules):  # the test-only toy game, with one command of its own
        id = "hop-tree"

    class Hops(DashCommands):
        verbs = (hop,)

    register(dice_dash(rules=Toy(), commands=Hops()))
    try:
        async with Harness(tmp_path / "toy.sqlite3") as harness:
            rows = {row["name"]: row for row in summary(tree_payload(harness.bot.tree))}
            in_help = sorted(name for _, commands in help_groups() for name, _ in commands)
    finally:
        unregister(Toy.id)
    assert rows["hop"]["options"] == [
        {"name": "far", "description": "Dice in order: gear dice 1-5 and white; add skid, interior or shortcut for a "
                                       "corner", "type": "string", "required": False},
        {"name": "fast", "description": "Stop after these dice and take the gear card", "type": "boolean",
         "required": False}]
    assert in_help == sorted(rows)
