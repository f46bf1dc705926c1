"""Slash commands through the REAL command tree, from raw interaction payloads (see fakes.py):
option parsing, defer + followup with an image, refusals and permission failures, autocomplete."""

from __future__ import annotations

import discord
import pytest

from tests.discord.fakes import (
    CHANNEL,
    GUILD,
    EVERYTHING,
    Harness,
    command_payload,
    option,
    posts,
)

BOB = (1002, "Bob")
ALICE = (1001, "Alice")


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "tree.sqlite3") as harness:
        yield harness


async def lobby(h: Harness) -> None:
    await h.command(BOB, "rally", "create", stage="pinewood-sprint", drivers=2)
    await h.command(BOB, "rally", "join")
    await h.command(ALICE, "rally", "join")


def callback_types(calls) -> list[int]:
    return [c.body["type"] for c in calls if c.url.endswith("/callback")]


async def test_options_are_parsed_into_the_service_call(h):
    calls = await h.command(BOB, "rally", "create", stage="pinewood-sprint", drivers=2, deadline_hours=6,
                            sisu=True, ai_on_timeout=False)
    assert callback_types(calls) == [5]  # deferred at once, publicly (no ephemeral flag)
    assert "up to 2 drivers, 6 h per turn" in calls[-1].content
    rally = await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL)
    assert rally.modules == {"sisu": True, "shakedown": False, "ai_on_timeout": False}
    assert rally.turn_deadline_s == 6 * 3600


async def test_an_out_of_range_option_is_refused_by_the_service(h):
    # Discord enforces min/max in its client, the library does not: the service checks again
    calls = await h.command(BOB, "rally", "create", stage="pinewood-sprint", drivers=9)
    assert calls[-1].ephemeral and "A rally takes 1 to 4 drivers, not 9" in calls[-1].content
    assert await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL) is None


async def test_start_defers_then_follows_up_with_the_board_image_and_buttons(h):
    await lobby(h)
    calls = await h.command(BOB, "rally", "start")
    callback, delete, followup = calls[0], calls[1], calls[2]
    assert callback.body == {"type": 5}
    # the loading message goes, so the turn message is new and its mention notifies Bob
    assert delete.method == "DELETE" and delete.url.endswith("/messages/@original")
    assert followup.method == "POST" and followup.url.endswith(f"/webhooks/{h.bot.application_id}/"
                                                                 f"{followup.url.rsplit('/', 1)[1]}")
    assert followup.files == ["board.png"] and followup.body["attachments"][0]["filename"] == "board.png"
    assert not followup.ephemeral and "Bob, your turn" in followup.content
    assert followup.body["allowed_mentions"] == {"parse": [], "users": [BOB[0]]}  # only Bob; no @everyone/roles
    buttons = [c["custom_id"] for row in followup.body["components"] for c in row["components"]]
    assert buttons == ["rally:1:1:1"]


async def test_roll_with_the_end_option_through_the_tree(h):
    await lobby(h)
    await h.command(BOB, "rally", "start")
    calls = await h.command(BOB, "roll", dice="1", end=True)
    assert "**Bob** stops in gear 1" in posts(calls)[-1].content
    assert calls[-1].method == "PATCH" and calls[-1].body["components"] == []  # old buttons removed
    log = await h.bot.store.actions.list(1)
    assert log[-1].action == "roll 1 stop" and log[-1].actor == BOB[0]


async def test_a_host_command_by_another_member_is_refused_privately(h):
    await lobby(h)
    calls = await h.command(ALICE, "rally", "start")
    assert callback_types(calls) == [5]
    assert [c.method for c in calls[1:]] == ["DELETE", "POST"]  # loading message removed first
    assert calls[1].url.endswith("/messages/@original")
    assert calls[2].ephemeral and "Only the host or a member with Manage Server" in calls[2].content
    assert (await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL)).status == "lobby"


async def test_missing_channel_permissions_refuse_the_create(h):
    have = discord.Permissions(EVERYTHING.value)
    have.embed_links = False
    payload = command_payload(BOB, "rally", "create", [option("stage", "pinewood-sprint")], app_permissions=have)
    calls = await h.dispatch(payload)
    assert calls[-1].ephemeral and "I am missing Embed Links" in calls[-1].content
    assert await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL) is None


async def test_stage_autocomplete_answers_with_matching_stage_names(h):
    payload = command_payload(BOB, "rally", "create", [option("stage", "pine", focused=True)], autocomplete=True)
    (call,) = await h.dispatch(payload)
    assert call.body["type"] == 8  # APPLICATION_COMMAND_AUTOCOMPLETE_RESULT
    assert [c["value"] for c in call.body["data"]["choices"]] == ["pinewood-sprint"]


async def test_dice_autocomplete_offers_the_legal_dice_to_the_driver_only(h):
    await lobby(h)
    await h.command(BOB, "rally", "start")
    await h.command(BOB, "roll", dice="1")
    (call,) = await h.dispatch(command_payload(BOB, "roll", None, [option("dice", "", focused=True)],
                                               autocomplete=True))
    assert [c["value"] for c in call.body["data"]["choices"]] == ["2", "W"]
    assert [c["name"] for c in call.body["data"]["choices"]] == ["2", "white"]
    (call,) = await h.dispatch(command_payload(ALICE, "roll", None, [option("dice", "", focused=True)],
                                               autocomplete=True))
    assert call.body["data"]["choices"] == []
    h.bot.options_cache = type(h.bot.options_cache)()  # as after a restart: the cache is empty
    (call,) = await h.dispatch(command_payload(BOB, "roll", None, [option("dice", "w", focused=True)],
                                               autocomplete=True))
    assert [c["value"] for c in call.body["data"]["choices"]] == ["W"]  # looked up in the database


async def test_status_is_private_from_the_first_answer(h):
    await lobby(h)
    calls = await h.command(ALICE, "rally", "status")
    assert calls[0].body == {"type": 5, "data": {"flags": 64}}
    assert calls[1].ephemeral and "waiting to start" in calls[1].content
    assert [c.method for c in calls] == ["POST", "POST"]  # nothing deleted: it was private already


async def test_help_is_answered_at_once_and_privately(h):
    (call,) = await h.command(ALICE, "help")
    assert call.body["type"] == 4 and call.ephemeral and "/rally create" in call.content


async def test_kick_resolves_the_user_option_from_the_payload(h):
    await lobby(h)
    await h.command(BOB, "rally", "start")
    resolved = {"users": {str(ALICE[0]): {"id": str(ALICE[0]), "username": "alice", "discriminator": "0",
                                          "avatar": None, "global_name": "Alice"}},
                "members": {str(ALICE[0]): {"roles": [], "joined_at": "2025-01-01T00:00:00+00:00", "deaf": False,
                                            "mute": False, "flags": 0, "permissions": "0"}}}
    payload = command_payload(BOB, "rally", "kick", [{"name": "driver", "type": 6, "value": str(ALICE[0])}],
                              resolved=resolved)
    calls = await h.dispatch(payload)
    assert "Alice is removed from the rally and retires" in posts(calls)[-1].content
    assert (await h.bot.store.actions.list(1))[-1].action == f"retire {ALICE[0]}"


async def test_a_command_the_bot_does_not_know_is_answered_as_out_of_date(h):
    (call,) = await h.command(ALICE, "teleport")
    assert call.body["type"] == 4 and call.ephemeral and "out of date" in call.content


async def test_an_unexpected_error_is_logged_and_answered_with_a_short_message(h, caplog, monkeypatch):
    async def broken(place, actor):
        raise RuntimeError("database on fire")

    await h.command(BOB, "rally", "create", stage="pinewood-sprint")
    monkeypatch.setattr(h.bot.rallies, "join", broken)
    calls = await h.command(ALICE, "rally", "join")
    assert [c.method for c in calls] == ["POST", "DELETE", "POST"]
    assert calls[-1].ephemeral and calls[-1].content.startswith("Something went wrong on our side")
    assert "database on fire" not in calls[-1].content and "database on fire" in caplog.text
