"""`/roll`, `/stop`, `/line`, `/spare`, `/odds`, `/help` and a turn button, with mock interactions.

Every turn command: success, a refusal and "not your turn", each refusal private and leaving the
stored rally byte for byte unchanged, owing no post (`stored`). A saved move removes the private
"thinking…" answer and reaches the channel as one post delivered by the outbox sender. Bob hosts
and joins first, so Bob drives first (A3).
"""

from __future__ import annotations

import pytest
from discord import app_commands

from bot.cogs.help import HelpCog
from bot.cogs.turn import TurnCog
from bot.engine.rallyman.action_codec import from_text, log_text
from bot.engine.rallyman.actions import Roll, Spare
from bot.services import Actor
from bot.services.work import snapshot_json
from tests.cogs.conftest import (
    ALICE,
    BOB,
    HERE,
    delivered,
    interaction,
    mentioned,
    only_private,
    only_public,
    private_texts,
    stored,
)
from tests.discord.fakes import CHANNEL, buttons_of, http_error

AFTER_COMMIT = "Your command was saved"
NOTHING_CHANGED = "nothing was changed"


@pytest.fixture
def cog(bot) -> TurnCog:
    return bot.get_cog("TurnCog")


@pytest.fixture
async def rally(bot, store):
    """Bob and Alice's running rally, its start already posted: Bob's turn, gear 0."""
    bob, alice = Actor(*BOB), Actor(*ALICE)
    await bot.rallies.create(HERE, bob, "pinewood-sprint", drivers=2)
    await bot.rallies.join(HERE, bob)
    await bot.rallies.join(HERE, alice)
    await bot.rallies.start(HERE, bob)
    await delivered(bot)
    return await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)


async def refused(store, call, inter) -> str:
    """Run a command expected to be refused; check nothing changed; return the private text."""
    before = await stored(store)
    await call
    assert await stored(store) == before
    return only_private(inter)


async def moves(store, rally) -> list:
    """The rally's logged actions, read back from the log's canonical form."""
    return [from_text(a.action) for a in await store.actions.list(rally.id)]


async def test_roll_posts_the_dice_and_new_buttons(bot, store, cog, rally):
    inter = interaction(bot, BOB)
    await cog.command("roll").callback(inter, dice="1")
    inter.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)
    post = await only_public(bot, inter)
    assert "**Bob** rolls 1" in post.content and "roll on" in post.content
    assert buttons_of(post.body) != [] and mentioned(post) == []  # same turn: nobody pinged
    assert (await moves(store, rally))[-1] == Roll(("1",))


async def test_roll_with_end_stops_after_the_dice(bot, store, cog, rally):
    inter = interaction(bot, BOB)
    await cog.command("roll").callback(inter, dice="1", end=True)
    post = await only_public(bot, inter)
    # round 2 begins: Bob, on the road, drives first again (A4.3) and is pinged anew
    assert "**Bob** stops in gear 1" in post.content and "Bob, your turn" in post.content
    assert f"<@{BOB[0]}>" in post.content and mentioned(post) == [BOB[0]]
    assert (await moves(store, rally))[-1] == Roll(("1",), end=True)


async def test_a_new_turn_message_takes_the_buttons_off_the_old_one(bot, store, cog, rally):
    old = await bot.rallies.delivery.turn_message(rally.id)
    await cog.command("roll").callback(interaction(bot, BOB), dice="1")
    await delivered(bot)
    edits = [c for c in bot.http.request.sent if c.method == "PATCH" and "attachments" not in c.body]  # not the board
    assert len(edits) == 1 and edits[0].body["components"] == []
    assert edits[0].url.endswith(f"/channels/{CHANNEL}/messages/{old.message_id}")


async def test_roll_refusals(bot, store, cog, rally):
    inter = interaction(bot, ALICE)
    text = await refused(store, cog.command("roll").callback(inter, dice="1"), inter)
    assert "not your turn: Bob is driving" in text
    inter = interaction(bot, BOB)
    assert "you may roll 1" in await refused(store, cog.command("roll").callback(inter, dice="3"), inter)
    inter = interaction(bot, BOB)
    assert "I don't understand `banana`" in await refused(store, cog.command("roll").callback(inter, dice="banana"),
                                                          inter)
    inter = interaction(bot, BOB)
    assert "`dice` is too long" in await refused(store, cog.command("roll").callback(inter, dice="1 " * 60), inter)
    assert await delivered(bot) == []


async def test_stop_after_a_die_passes_the_turn(bot, store, cog, rally):
    await bot.rallies.act(HERE, Actor(*BOB), "1")
    await delivered(bot)
    inter = interaction(bot, ALICE)
    assert "not your turn" in await refused(store, cog.command("stop").callback(inter), inter)
    inter = interaction(bot, BOB)
    await cog.command("stop").callback(inter)
    assert "**Bob** stops in gear 1" in (await only_public(bot, inter)).content


async def test_stop_before_any_die_is_refused(bot, store, cog, rally):
    inter = interaction(bot, BOB)
    assert "Roll at least one die" in await refused(store, cog.command("stop").callback(inter), inter)


async def test_line_chooses_the_trajectory_of_the_next_corner(bot, store, cog, rally):
    choice = app_commands.Choice(name="skid", value="skid")
    inter = interaction(bot, ALICE)
    assert "not your turn" in await refused(store, cog.command("line").callback(inter, line=choice), inter)
    inter = interaction(bot, BOB)
    await cog.command("line").callback(inter, line=choice)
    assert "**Bob** will take the skid line at corner 1" in (await only_public(bot, inter)).content


async def test_spare_refused_without_a_flat_and_for_another_driver(bot, store, cog, rally):
    inter = interaction(bot, BOB)
    assert "no flat tire" in await refused(store, cog.command("spare").callback(inter), inter)
    inter = interaction(bot, ALICE)
    assert "not your turn" in await refused(store, cog.command("spare").callback(inter), inter)


async def test_spare_fits_the_tire_when_there_is_a_flat(bot, store, cog, rally):
    # set-up: Bob starts his turn with a flat tire (as a shortcut card would give, A9; A14.1)
    state = bot.rallies.work.state_of(rally).clone()
    state.car_by_id(str(BOB[0])).flats = 1
    await store.set_snapshot(rally.id, rally.version, snapshot_json(state), "running")  # a test set-up
    inter = interaction(bot, BOB)
    await cog.command("spare").callback(inter)
    assert "spare" in (await only_public(bot, inter)).content.lower()
    assert (await store.actions.list(rally.id))[-1].action == log_text(Spare())  # set-up logged 'snapshot' before


async def test_odds_are_private_and_refused_for_another_driver(bot, store, cog, rally):
    inter = interaction(bot, BOB)
    before = await stored(store)
    await cog.command("odds").callback(inter, dice="1 w")
    inter.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)
    assert "chance of losing control" in only_private(inter)
    assert await stored(store) == before and await delivered(bot) == []
    inter = interaction(bot, ALICE)
    assert "not your turn" in await refused(store, cog.command("odds").callback(inter, dice="1"), inter)
    inter = interaction(bot, BOB)
    assert "Give the dice you plan to roll" in await refused(store, cog.command("odds").callback(inter, dice="stop"),
                                                             inter)


async def test_help_answers_privately_without_deferring(bot):
    inter = interaction(bot, ALICE)
    await HelpCog.help.callback(bot.get_cog("HelpCog"), inter)
    inter.response.defer.assert_not_awaited()
    (call,) = inter.response.send_message.await_args_list
    assert call.kwargs["ephemeral"] is True and "`/rally create` — " in call.kwargs["embeds"][0].description


async def test_turn_button_click_plays_refuses_strangers_and_stale_clicks(bot, store, rally):
    inter = interaction(bot, ALICE, click=True)
    before = await stored(store)
    await bot.turn_button(rally.id, rally.version, "1").callback(inter)
    inter.response.defer.assert_awaited_once_with()  # a click shows no loading message
    assert "not your turn: Bob is driving" in only_private(inter)  # a private followup
    inter.edit_original_response.assert_not_awaited()  # never touch the message with the buttons
    assert await stored(store) == before
    inter = interaction(bot, BOB, click=True)
    await bot.turn_button(rally.id, rally.version, "1").callback(inter)
    assert private_texts(inter) == [] and not inter.delete_original_response.await_count
    inter.edit_original_response.assert_not_awaited()
    (post,) = await delivered(bot)
    assert "**Bob** rolls 1" in post.content
    inter = interaction(bot, BOB, click=True)
    before = await stored(store)
    await bot.turn_button(rally.id, rally.version, "1").callback(inter)  # the same, older button again
    assert "This turn is over" in only_private(inter)
    assert await stored(store) == before and await delivered(bot) == []


async def test_a_button_of_another_rally_is_over(bot, store, rally):
    inter = interaction(bot, BOB, click=True)
    before = await stored(store)
    await bot.turn_button(rally.id + 1, rally.version, "1").callback(inter)
    assert "This turn is over" in only_private(inter)
    assert await stored(store) == before


async def paused(bot, store) -> None:
    """Set-up: the bot loses the right to post in the channel (403 on a `/rally board` post), so
    the rally is paused and its posts wait; the host is told by DM."""
    await bot.rallies.board(HERE, Actor(*ALICE))
    bot.http.request.fail(http_error(403, code=50013), path=f"/channels/{CHANNEL}/messages")
    await delivered(bot)
    assert (await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)).paused_at is not None


async def test_a_move_in_a_paused_rally_is_saved_and_the_player_is_told_why_nothing_shows(bot, store, cog, rally):
    await paused(bot, store)
    before = await moves(store, rally)
    inter = interaction(bot, BOB)
    await cog.command("roll").callback(inter, dice="1")
    inter.delete_original_response.assert_not_awaited()
    (text,) = private_texts(inter)
    assert text.startswith("Saved. I cannot post in this channel right now")
    assert await moves(store, rally) == [*before, Roll(("1",))]


@pytest.mark.parametrize("failure", [http_error(503), http_error(404, code=10015)])
async def test_discord_failing_to_delete_the_answer_after_the_commit_never_says_nothing_was_changed(
        bot, store, cog, rally, failure):
    """The roll is committed before the private answer is removed; when Discord then fails, the
    user is told it was saved (not to send it again), the move is stored once, and its post
    still reaches the channel."""
    inter = interaction(bot, BOB)
    inter.delete_original_response.side_effect = failure
    before = await moves(store, rally)
    await cog.command("roll").callback(inter, dice="1")
    (text,) = private_texts(inter)
    assert text.startswith(AFTER_COMMIT) and NOTHING_CHANGED not in text
    assert await moves(store, rally) == [*before, Roll(("1",))]
    (post,) = await delivered(bot)
    assert "**Bob** rolls 1" in post.content


async def test_discord_failing_to_edit_the_answer_of_a_paused_rally_never_says_nothing_was_changed(
        bot, store, cog, rally):
    await paused(bot, store)
    inter = interaction(bot, BOB)
    inter.edit_original_response.side_effect = http_error(503)
    before = await moves(store, rally)
    await cog.command("roll").callback(inter, dice="1")
    texts = private_texts(inter)  # the failed edit (the paused note), then the followup
    assert texts[-1].startswith(AFTER_COMMIT) and not any(NOTHING_CHANGED in text for text in texts)
    assert await moves(store, rally) == [*before, Roll(("1",))]


async def test_when_discord_answers_nothing_after_the_commit_the_move_is_kept_once(bot, store, cog, rally):
    """Deleting the answer and the private followup both fail: nothing more can be said, the
    command does not raise (so no generic error is shown), and the move is stored once."""
    inter = interaction(bot, BOB)
    inter.delete_original_response.side_effect = http_error(503)
    inter.followup.send.side_effect = http_error(503)
    before = await moves(store, rally)
    await cog.command("roll").callback(inter, dice="1")
    assert await moves(store, rally) == [*before, Roll(("1",))]
    (post,) = await delivered(bot)
    assert "**Bob** rolls 1" in post.content
