"""`/roll`, `/stop`, `/line`, `/spare`, `/odds`, `/help` and a turn button, with mock interactions.

Every turn command: success, a refusal and "not your turn", each refusal private and leaving the
stored rally byte for byte unchanged. Bob hosts and joins first, so Bob drives first (A3).
"""

from __future__ import annotations

import pytest
from discord import app_commands

from bot.cogs.help import HelpCog
from bot.cogs.turn import TurnCog
from bot.services import Actor
from bot.services.core import snapshot_json
from bot.views.turn_buttons import TurnButton
from tests.cogs.conftest import ALICE, BOB, HERE, interaction, only_private, only_public, sent
from tests.services.conftest import snapshot_of


@pytest.fixture
def cog(bot) -> TurnCog:
    return bot.get_cog("TurnCog")


@pytest.fixture
async def rally(bot, store):
    bob, alice = Actor(*BOB), Actor(*ALICE)
    await bot.rallies.create(HERE, bob, "pinewood-sprint", drivers=2)
    await bot.rallies.join(HERE, bob)
    await bot.rallies.join(HERE, alice)
    await bot.rallies.start(HERE, bob)
    return await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)


async def refused(store, call, inter) -> str:
    """Run a command expected to be refused; check nothing changed; return the private text."""
    before = await snapshot_of(store)
    await call
    assert await snapshot_of(store) == before
    return only_private(inter)


async def test_roll_posts_the_dice_and_new_buttons(bot, store, cog, rally):
    inter = interaction(bot, BOB)
    await TurnCog.roll.callback(cog, inter, dice="1")
    answer = only_public(inter)
    assert "**Bob** rolls 1" in answer["content"] and "roll on" in answer["content"]
    assert answer["view"] is not None and answer["mentions"].users is False  # same turn: nobody pinged
    assert [a.action for a in await store.actions.list(rally.id)][-1] == "roll 1"


async def test_roll_with_end_stops_after_the_dice(bot, store, cog, rally):
    inter = interaction(bot, BOB)
    await TurnCog.roll.callback(cog, inter, dice="1", end=True)
    answer = only_public(inter)
    # round 2 begins: Bob, on the road, drives first again (A4.3) and is pinged anew
    assert "**Bob** stops in gear 1" in answer["content"] and "Bob, your turn" in answer["content"]
    assert f"<@{BOB[0]}>" in answer["content"] and [u.id for u in answer["mentions"].users] == [BOB[0]]
    assert [a.action for a in await store.actions.list(rally.id)][-1] == "roll 1 stop"


async def test_roll_refusals(bot, store, cog, rally):
    inter = interaction(bot, ALICE)
    text = await refused(store, TurnCog.roll.callback(cog, inter, dice="1"), inter)
    assert "not your turn: Bob is driving" in text
    inter = interaction(bot, BOB)
    assert "you may roll 1" in await refused(store, TurnCog.roll.callback(cog, inter, dice="3"), inter)
    inter = interaction(bot, BOB)
    assert "I don't understand `banana`" in await refused(store, TurnCog.roll.callback(cog, inter, dice="banana"),
                                                          inter)


async def test_stop_after_a_die_passes_the_turn(bot, store, cog, rally):
    await bot.rallies.act(HERE, Actor(*BOB), "1")
    inter = interaction(bot, ALICE)
    assert "not your turn" in await refused(store, TurnCog.stop.callback(cog, inter), inter)
    inter = interaction(bot, BOB)
    await TurnCog.stop.callback(cog, inter)
    assert "**Bob** stops in gear 1" in only_public(inter)["content"]


async def test_stop_before_any_die_is_refused(bot, store, cog, rally):
    inter = interaction(bot, BOB)
    assert "Roll at least one die" in await refused(store, TurnCog.stop.callback(cog, inter), inter)


async def test_line_chooses_the_trajectory_of_the_next_corner(bot, store, cog, rally):
    choice = app_commands.Choice(name="skid", value="skid")
    inter = interaction(bot, ALICE)
    assert "not your turn" in await refused(store, TurnCog.line.callback(cog, inter, line=choice), inter)
    inter = interaction(bot, BOB)
    await TurnCog.line.callback(cog, inter, line=choice)
    assert "**Bob** will take the skid line at corner 1" in only_public(inter)["content"]


async def test_spare_refused_without_a_flat_and_for_another_driver(bot, store, cog, rally):
    inter = interaction(bot, BOB)
    assert "no flat tire" in await refused(store, TurnCog.spare.callback(cog, inter), inter)
    inter = interaction(bot, ALICE)
    assert "not your turn" in await refused(store, TurnCog.spare.callback(cog, inter), inter)


async def test_spare_fits_the_tire_when_there_is_a_flat(bot, store, cog, rally):
    # set-up: Bob starts his turn with a flat tire (as a shortcut card would give, A9; A14.1)
    state = bot.rallies.state_of(rally).clone()
    state.car_by_id(str(BOB[0])).flats = 1
    await store.set_snapshot(rally.id, rally.version, snapshot_json(state))
    inter = interaction(bot, BOB)
    await TurnCog.spare.callback(cog, inter)
    assert "spare" in only_public(inter)["content"].lower()
    assert [a.action for a in await store.actions.list(rally.id)][-1] == "spare"


async def test_odds_are_private_and_refused_for_another_driver(bot, store, cog, rally):
    inter = interaction(bot, BOB)
    before = await snapshot_of(store)
    await TurnCog.odds.callback(cog, inter, dice="1 w")
    inter.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)
    assert "chance of losing control" in only_private(inter)
    assert await snapshot_of(store) == before
    inter = interaction(bot, ALICE)
    assert "not your turn" in await refused(store, TurnCog.odds.callback(cog, inter, dice="1"), inter)
    inter = interaction(bot, BOB)
    assert "Give the dice you plan to roll" in await refused(store, TurnCog.odds.callback(cog, inter, dice="stop"),
                                                             inter)


async def test_help_answers_privately_without_deferring(bot):
    inter = interaction(bot, ALICE)
    await HelpCog.help.callback(bot.get_cog("HelpCog"), inter)
    inter.response.defer.assert_not_awaited()
    (call,) = inter.response.send_message.await_args_list
    assert call.kwargs["ephemeral"] is True and "/rally create" in call.args[0]


async def test_turn_button_click_plays_refuses_strangers_and_stale_clicks(bot, store, rally):
    inter = interaction(bot, ALICE)
    before = await snapshot_of(store)
    await TurnButton(rally.id, rally.version, "1").callback(inter)
    inter.response.defer.assert_awaited_once_with()  # a click shows no loading message
    assert "not your turn: Bob is driving" in only_private(inter)
    inter.delete_original_response.assert_not_awaited()  # never delete the message with the buttons
    assert await snapshot_of(store) == before
    inter = interaction(bot, BOB)
    await TurnButton(rally.id, rally.version, "1").callback(inter)
    assert "**Bob** rolls 1" in only_public(inter)["content"]
    inter = interaction(bot, BOB)
    before = await snapshot_of(store)
    await TurnButton(rally.id, rally.version, "1").callback(inter)  # the same, older button again
    assert "This turn is over" in only_private(inter)
    assert await snapshot_of(store) == before


async def test_a_button_of_another_rally_is_over(bot, store, rally):
    inter = interaction(bot, BOB)
    await TurnButton(rally.id + 1, rally.version, "1").callback(inter)
    assert "This turn is over" in only_private(inter)
    assert sent(inter)[0]["view"] is None
