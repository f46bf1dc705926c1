"""Slash commands through the REAL command tree, from raw interaction payloads (see fakes.py):
option parsing, the private defer, the channel post delivered by the outbox sender, refusals
and permission failures, hostile input, DMs, Discord failing after the commit, autocomplete."""

from __future__ import annotations

import discord
import pytest

from bot.engine.rallyman.action_codec import log_text
from bot.engine.rallyman.actions import Retire, Roll
from tests.discord.fakes import (
    CHANNEL,
    EVERYTHING,
    GUILD,
    Harness,
    Sent,
    attachment_edits,
    buttons_of,
    channel_posts,
    command_payload,
    http_error,
    option,
    private_answers,
    user_payload,
)

BOB = (1002, "Bob")
ALICE = (1001, "Alice")
THREAD = 30
PRIVATE_DEFER = {"type": 5, "data": {"flags": 64}}
AFTER_COMMIT = "Your command was saved"
NOTHING_CHANGED = "nothing was changed"


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "tree.sqlite3") as harness:
        yield harness


async def lobby(h: Harness) -> None:
    await h.command(BOB, "rally", "create", stage="pinewood-sprint", drivers=2)
    await h.command(BOB, "rally", "join")
    await h.command(ALICE, "rally", "join")


def callbacks(calls) -> list[dict]:
    return [c.body for c in calls if c.url.endswith("/callback")]


def deleted_answer(calls) -> bool:
    """The private "thinking…" answer was removed (the channel post is the answer)."""
    return any(c.method == "DELETE" and c.url.endswith("/messages/@original") and c.error is None for c in calls)


async def nothing_stored(h: Harness) -> bool:
    """No rally in the channel and no post owed or sent: a refusal writes nothing."""
    store = h.bot.store
    return await store.rallies.get_active_in_channel(GUILD, CHANNEL) is None and await store.outbox.all() == []


def in_thread(payload: dict, thread_id: int = THREAD) -> dict:
    """The same interaction, sent from a public thread of the test channel."""
    payload["channel_id"] = str(thread_id)
    payload["channel"] = {"id": str(thread_id), "type": 11, "guild_id": str(GUILD), "parent_id": str(CHANNEL),
                          "owner_id": str(BOB[0]), "name": "rally thread", "message_count": 0, "member_count": 1,
                          "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                              "archive_timestamp": "2026-05-01T12:00:00+00:00", "locked": False}}
    return payload


def from_a_dm(payload: dict) -> dict:
    """The same interaction as Discord sends it from a DM with the bot: no guild, a user, a DM channel."""
    member = payload.pop("member")
    payload.pop("guild_id")
    payload["user"] = member["user"]
    payload["channel"] = {"id": payload["channel_id"], "type": 1, "recipients": [user_payload(*BOB)]}
    payload["context"] = 1
    return payload


def webhook_fails(h: Harness, exc: BaseException, method: str = "DELETE") -> None:
    """The next `method` on the interaction's original answer fails with `exc` (recorded), as
    Discord failing right after the command was saved. fakes.RecordingAdapter has no `fail`."""
    original = h.webhooks.request
    left = [1]

    async def request(route, *args, **kwargs):
        if left[0] and route.method == method and route.url.endswith("/messages/@original"):
            left[0] -= 1
            h.sent.append(Sent(route.method, route.url, None, error=exc))
            raise exc
        return await original(route, *args, **kwargs)

    h.webhooks.request = request  # type: ignore[method-assign]


async def test_options_are_parsed_into_the_service_call(h):
    calls = await h.command(BOB, "rally", "create", stage="pinewood-sprint", drivers=2, deadline_hours=6,
                            sisu=True, ai_on_timeout=False)
    assert callbacks(calls) == [PRIVATE_DEFER]  # deferred at once, privately
    assert private_answers(calls) == [] and deleted_answer(calls)
    (post,) = channel_posts(calls)
    assert "up to 2 drivers, 6 h per turn" in post.content
    rally = await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL)
    assert rally.modules == {"sisu": True, "shakedown": False, "ai_on_timeout": False}
    assert rally.turn_deadline_s == 6 * 3600


async def test_an_out_of_range_option_is_refused_by_the_service(h):
    # Discord enforces min/max in its client, the library does not: the service checks again
    calls = await h.command(BOB, "rally", "create", stage="pinewood-sprint", drivers=9)
    (text,) = private_answers(calls)
    assert "`drivers` must be a number from 1 to 4, not `9`" in text
    assert channel_posts(calls) == [] and not deleted_answer(calls)
    assert await nothing_stored(h)


@pytest.mark.parametrize("stage, says", [
    ("../../etc/x", "There is no stage called `../../etc/x`"),
    ("/etc/passwd", "There is no stage called `/etc/passwd`"),
    ("x" * 300, "`stage` is too long (300 characters; at most 265)"),
])
async def test_a_stage_that_is_a_path_or_too_long_is_refused_and_the_channel_stays_free(h, stage, says):
    """Autocomplete only suggests: a client may send any text. A stage is a catalogue name, never
    a path, and bounded; the refusal is specific, nothing is stored, the channel stays free."""
    calls = await h.command(BOB, "rally", "create", stage=stage)
    (text,) = private_answers(calls)
    assert says in text
    assert channel_posts(calls) == [] and await nothing_stored(h)
    calls = await h.command(BOB, "rally", "create", stage="pinewood-sprint")
    assert private_answers(calls) == [] and len(channel_posts(calls)) == 1


async def test_start_defers_privately_and_the_sender_posts_the_board_and_buttons(h):
    await lobby(h)
    calls = await h.command(BOB, "rally", "start")
    assert callbacks(calls) == [PRIVATE_DEFER]
    # the private "thinking…" goes; the turn message is a new channel message, so its mention notifies Bob
    assert deleted_answer(calls) and private_answers(calls) == []
    (post,) = channel_posts(calls)
    assert post.url.endswith(f"/channels/{CHANNEL}/messages")
    assert post.files == ["board.png"] and post.body["attachments"][0]["filename"] == "board.png"
    (sent,) = [c for c in calls if c.method == "POST" and c.url == post.url]  # text first: the board by an edit
    assert sent.files == [] and [e.files for e in attachment_edits(calls, post)] == [["board.png"]]
    assert "Bob, your turn" in post.content and "Turn ends" in post.content
    assert post.body["allowed_mentions"] == {"parse": [], "users": [BOB[0]]}  # only Bob; no @everyone/roles
    assert buttons_of(post.body) == ["rally:1:1:1"]
    (row,) = [r for r in await h.bot.store.outbox.all() if r.kind == "turn"]
    assert post.body["nonce"] == f"rb{row.id}" and post.body["enforce_nonce"] is True  # never posted twice
    assert row.done_at is not None and row.message_id == int(post.reply["id"])


async def test_roll_with_the_end_option_through_the_tree(h):
    await lobby(h)
    start = channel_posts(await h.command(BOB, "rally", "start"))[-1]
    calls = await h.command(BOB, "roll", dice="1", end=True)
    (post,) = channel_posts(calls)
    assert "**Bob** stops in gear 1" in post.content
    (board,) = attachment_edits(calls, post)  # the new turn message's board, added to it
    assert board.files == ["board.png"] and "components" not in board.body
    (edit,) = [c for c in calls if c.method == "PATCH" and c.via == "http" and c is not board]  # old buttons removed
    assert edit.url.endswith(f"/messages/{start.reply['id']}") and edit.body["components"] == []
    log = await h.bot.store.actions.list(1)
    assert log[-1].action == log_text(Roll(("1",), end=True)) and log[-1].actor == BOB[0]


async def test_a_host_command_by_another_member_is_refused_privately(h):
    await lobby(h)
    calls = await h.command(ALICE, "rally", "start")
    assert callbacks(calls) == [PRIVATE_DEFER]
    assert [(c.method, c.url.rsplit("/", 2)[-2:]) for c in calls[1:]] == [("PATCH", ["messages", "@original"])]
    (text,) = private_answers(calls)
    assert "Only the host or a member with Manage Server" in text
    assert (await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL)).status == "lobby"


async def test_missing_channel_permissions_refuse_the_create(h):
    have = discord.Permissions(EVERYTHING.value)
    have.embed_links = False
    payload = command_payload(BOB, "rally", "create", [option("stage", "pinewood-sprint")], app_permissions=have)
    calls = await h.dispatch(payload)
    (text,) = private_answers(calls)
    assert "I am missing Embed Links." in text
    assert await nothing_stored(h)


async def test_create_in_a_thread_needs_send_messages_in_threads_but_not_send_messages(h):
    """In a thread the bot posts with Send Messages in Threads; Send Messages (of the parent
    channel) and Create Public Threads are not needed, and the rally's posts go to the thread."""
    have = discord.Permissions(EVERYTHING.value)
    have.send_messages = False
    have.create_public_threads = False
    payload = in_thread(command_payload(BOB, "rally", "create", [option("stage", "pinewood-sprint")],
                                        app_permissions=have))
    calls = await h.dispatch(payload)
    assert private_answers(calls) == []
    (post,) = channel_posts(calls)
    assert post.url.endswith(f"/channels/{THREAD}/messages") and "Bob opens a rally" in post.content
    assert (await h.bot.store.rallies.get_active_in_channel(GUILD, THREAD)).host_id == BOB[0]


async def test_create_in_a_thread_without_send_messages_in_threads_is_refused_naming_it(h):
    have = discord.Permissions(EVERYTHING.value)
    have.send_messages_in_threads = False
    payload = in_thread(command_payload(BOB, "rally", "create", [option("stage", "pinewood-sprint")],
                                        app_permissions=have))
    (text,) = private_answers(await h.dispatch(payload))
    assert "I am missing Send Messages In Threads." in text
    assert await h.bot.store.rallies.get_active_in_channel(GUILD, THREAD) is None


async def test_create_in_a_channel_without_send_messages_is_refused_naming_it(h):
    have = discord.Permissions(EVERYTHING.value)
    have.send_messages = False
    have.create_public_threads = False
    payload = command_payload(BOB, "rally", "create", [option("stage", "pinewood-sprint")], app_permissions=have)
    calls = await h.dispatch(payload)
    (text,) = private_answers(calls)
    assert "I am missing Send Messages." in text and "Create Public Threads" not in text
    assert await nothing_stored(h)


@pytest.mark.parametrize("name, sub, values", [
    ("rally", "create", {"stage": "pinewood-sprint"}),
    ("rally", "join", {}),
    ("roll", None, {"dice": "1"}),
])
async def test_a_command_from_a_dm_is_refused_privately_and_creates_nothing(h, name, sub, values):
    """discord.py does not enforce `guild_only` at run time: a payload from a DM reaches the
    command, which must refuse it (once, privately) before deferring or touching anything."""
    payload = from_a_dm(command_payload(BOB, name, sub, [option(k, v) for k, v in values.items()]))
    calls = await h.dispatch(payload)
    assert [body["type"] for body in callbacks(calls)] == [4]  # answered at once, not deferred
    (text,) = private_answers(calls)
    assert "use this command in a server, not in a direct message" in text
    assert channel_posts(calls) == [] and await h.bot.store.outbox.all() == []
    assert await h.bot.store.rallies.get_active_in_channel(0, CHANNEL) is None
    assert await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL) is None


@pytest.mark.parametrize("failure", [http_error(503), http_error(404, code=10015)])
async def test_discord_failing_to_remove_the_answer_after_the_commit_says_saved_not_unchanged(h, failure):
    """The move is saved before the private answer is removed. When that removal fails, the
    user reads that it was saved and must not send it again, never "nothing was changed"; the
    move is stored once and its post still reaches the channel."""
    await lobby(h)
    await h.command(BOB, "rally", "start")
    webhook_fails(h, failure)
    calls = await h.command(BOB, "roll", dice="1")
    (text,) = private_answers(calls)
    assert text.startswith(AFTER_COMMIT) and NOTHING_CHANGED not in text
    assert [a.action for a in await h.bot.store.actions.list(1)].count(log_text(Roll(("1",)))) == 1
    (post,) = channel_posts(calls)
    assert "**Bob** rolls 1" in post.content


@pytest.mark.parametrize("failure", [TimeoutError(), OSError(104, "Connection reset by peer")])
async def test_a_network_error_after_the_commit_is_not_reported_as_nothing_changed(h, failure):
    """discord.py's webhook adapter lets timeouts and connection errors through as they are (not
    as HTTPException). After the commit such an error must not be answered "nothing was changed"."""
    await lobby(h)
    await h.command(BOB, "rally", "start")
    webhook_fails(h, failure)
    calls = await h.command(BOB, "roll", dice="1")
    assert not any(NOTHING_CHANGED in text for text in private_answers(calls)), private_answers(calls)
    assert [a.action for a in await h.bot.store.actions.list(1)].count(log_text(Roll(("1",)))) == 1
    assert len(channel_posts(calls)) == 1


async def test_a_roll_sent_twice_before_the_first_is_answered_is_played_once(h):
    """A double submit: both commands find the same turn on arrival; the first is played, the
    second is refused privately ("already played") instead of rolling again."""
    await lobby(h)
    await h.command(BOB, "rally", "start")
    before = len(h.sent)
    for _ in range(2):
        h.bot._connection.parse_interaction_create(command_payload(BOB, "roll", None, [option("dice", "1")]))
    await h.settle()
    await h.bot.sender.flush()
    calls = h.sent[before:]
    (text,) = private_answers(calls)
    assert "already played" in text
    (post,) = channel_posts(calls)
    assert "**Bob** rolls 1" in post.content
    assert [a.action for a in await h.bot.store.actions.list(1)].count(log_text(Roll(("1",)))) == 1


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
    assert calls[0].body == PRIVATE_DEFER
    (text,) = private_answers(calls)
    assert "waiting to start" in text
    assert [c.method for c in calls] == ["POST", "PATCH"]  # nothing deleted, nothing posted in the channel


async def test_help_is_answered_at_once_and_privately(h):
    (call,) = await h.command(ALICE, "help")
    assert call.body["type"] == 4 and call.ephemeral
    assert "`/rally create` — " in call.body["data"]["embeds"][0]["description"]


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
    (post,) = channel_posts(calls)
    assert "Alice is removed from the rally and retires" in post.content
    assert (await h.bot.store.actions.list(1))[-1].action == log_text(Retire(str(ALICE[0])))


async def test_a_command_the_bot_does_not_know_is_answered_as_out_of_date(h):
    (call,) = await h.command(ALICE, "teleport")
    assert call.body["type"] == 4 and call.ephemeral and "out of date" in call.content


async def test_an_unexpected_error_is_logged_and_answered_with_a_short_message(h, caplog, monkeypatch):
    async def broken(place, actor):
        raise RuntimeError("database on fire")

    await h.command(BOB, "rally", "create", stage="pinewood-sprint")
    monkeypatch.setattr(h.bot.rallies, "join", broken)
    calls = await h.command(ALICE, "rally", "join")
    assert [c.method for c in calls] == ["POST", "PATCH"]  # private defer, then its edit
    (text,) = private_answers(calls)
    assert text.startswith("Something went wrong on our side") and "database on fire" not in text
    assert "database on fire" in caplog.text
