"""Commands written once: a game's commands (`/roll`, `/stop`, `/odds` …) reach
the service through one entry point, `verb(place, actor, name, options)`, fed by the game's own
verb table (`Game.commands.verbs`), and `/act` takes any move as typed. Bad input: an unknown command or
option, a yes/no that is not one, a move that is no legal action — each a clear refusal that
leaves the stored rally, its log and the outbox byte for byte as they were."""

from __future__ import annotations

import pytest

from bot import games
from bot.engine.core.errors import RallyError
from bot.engine.core.game import Verb, VerbOption
from bot.engine.rallyman.action_codec import log_text
from bot.engine.rallyman.actions import Roll
from bot.services.help_text import help_groups
from bot.services.reply import Reply
from tests.services.conftest import BOB, HERE, running_rally, snapshot_of
from tests.toy_game.game import DashCommands, DashRules, dice_dash


async def unchanged(store) -> tuple:
    """What a refusal must leave as it was: rally row, drivers, log, and every post owed."""
    return await snapshot_of(store), [r.as_dict() for r in await store.outbox.all()]


@pytest.mark.parametrize("name, options, needle", [
    ("fly", {}, "`/fly` is not a command of this game. Its commands: /roll, /stop, /line"),
    ("roll", {"dice": "1", "turbo": "yes"}, "`/roll` has no option `turbo`"),
    ("stop", {"dice": "1"}, "`/stop` has no option `dice`"),
    ("roll", {"dice": "1", "end": "yes"}, "`end` must be yes or no"),
    ("roll", {"dice": True}, "`dice` must be text"),
    ("roll", {}, "`dice` is empty"),
    ("line", {"line": "x" * 101}, "`line` is too long (101 characters; at most 100)"),
    ("odds", {"dice": "stop"}, "Give the dice you plan to roll"),
])
async def test_a_bad_command_or_option_is_refused_by_name_and_changes_nothing(service, store, name, options, needle):
    await running_rally(service)
    before = await unchanged(store)
    with pytest.raises(RallyError) as refused:
        await service.verb(HERE, BOB, name, options)
    assert needle in str(refused.value)
    assert await unchanged(store) == before


async def test_the_table_builds_the_text_the_game_reads_and_plays_it(service, store):
    """`/roll dice:1 end:yes` is the move `1 stop` (A6.3): one die, then the gear card."""
    await running_rally(service)
    reply = await service.verb(HERE, BOB, "roll", {"dice": "1", "end": True})
    assert "**Bob** rolls 1" in reply.text and "stops in gear 1" in reply.text
    assert (await store.actions.list(1))[-1].action == log_text(Roll(("1",), end=True))


async def test_a_private_command_answers_only_the_asker_and_changes_nothing(service, store):
    await running_rally(service)
    before = await unchanged(store)
    reply = await service.verb(HERE, BOB, "odds", {"dice": "1"})
    assert isinstance(reply, Reply) and reply.ephemeral and "chance of losing control" in reply.text
    assert await unchanged(store) == before


@pytest.mark.parametrize("text, needle", [
    ("banana", "I don't understand `banana`"),
    ("", "`action` is empty"),
    ("stop", "Roll at least one die"),
])
async def test_act_with_text_that_is_no_legal_move_gets_the_games_refusal(service, store, text, needle):
    await running_rally(service)
    before = await unchanged(store)
    with pytest.raises(RallyError) as refused:
        await service.act(HERE, BOB, text, option="action")
    assert needle in str(refused.value)
    assert await unchanged(store) == before


class HopRules(DashRules):
    id = "hop-test"


class Hop(DashCommands):
    """The test-only toy game (tests/toy_game) with one command of its own: a command table is
    all a game needs to be heard."""

    verbs = (Verb("hop", "discord.cmd.roll", "hop {far}",
                  (VerbOption("far", "discord.opt.dice"),)),)


@pytest.fixture
def hop():
    games.register(dice_dash(rules=HopRules(), commands=Hop()))
    try:
        yield
    finally:
        games.unregister(HopRules.id)


def test_a_new_games_commands_reach_the_help_with_no_line_written_for_them(hop):
    (turn,) = [commands for title, commands in help_groups() if title == "help.group_turn"]
    names = [name for name, _ in turn]
    assert names[:9] == ["roll", "stop", "line", "spare", "odds", "tires", "attack", "order", "place"]
    assert names[9:] == ["play", "reveal", "pass", "hop", "act", "hand"]  # classic's, Road Rally's, the toy's
    assert games.verb("hop") is Hop.verbs[0]
