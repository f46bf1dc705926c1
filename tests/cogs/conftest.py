"""Cog tests: command callbacks called directly with spec'd mock interactions.

The bot is real (not logged in) with a real temp SQLite store and the real services; only the
interaction is a `MagicMock(spec=discord.Interaction)` whose response, followup and original
answer are `AsyncMock`s, and `bot.http.request` is a `RecordingHTTP`: the channel posts the
outbox sender delivers (`await bot.sender.flush()`, as its running loop would) and the removal
of old buttons are recorded there.

What a user sees of a command in the new design:
- privately, on the interaction: the edit of the private "thinking…" answer of a slash command
  (refusals, `/rally status`, `/odds`), a private first response (refused before deferring), or
  a private followup after a click;
- publicly: the channel posts delivered by the outbox sender, never the interaction.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from bot.client import RallyBot
from bot.config import Settings
from bot.services import Place
from bot.store import Store
from tests.discord.fakes import CHANNEL, GUILD, FakeClock, FakeRenderer, RecordingHTTP, Sent, channel_posts
from tests.services.conftest import snapshot_of

HERE = Place(GUILD, CHANNEL)
BOB = (1002, "Bob")
ALICE = (1001, "Alice")
CAROL = (1003, "Carol")
_message_ids = itertools.count(5000)
_interaction_ids = itertools.count(7000)


@dataclass
class FakeMessage:
    id: int


@pytest.fixture
async def store(tmp_path):
    s = await Store.open(tmp_path / "cogs.sqlite3")
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
async def bot(store, tmp_path):
    b = RallyBot(Settings(db=tmp_path / "unused.sqlite3"), clock=FakeClock(), renderer=FakeRenderer(),
                 seed_source=lambda: 42, start_loops=False, sync=False)
    b.http.request = RecordingHTTP([])  # type: ignore[method-assign]
    await b._async_setup_hook()  # what login() does first (an AutoShardedBot closes its event queue)
    await b.open_services(store)
    await b.load_extensions()
    assert not b.extension_errors
    yield b
    b.forget_store()  # the store fixture closes it
    await b.close()


def interaction(bot, user=BOB, *, manage: bool = False, app_permissions: discord.Permissions | None = None,
                channel_id: int = CHANNEL, guild_id: int | None = GUILD, click: bool = False,
                channel: object = None) -> MagicMock:
    """A spec'd mock interaction by `user` (id, name) in the test channel: a slash command, or a
    button click with `click`. `channel` is what `interaction.channel` is (a thread, say)."""
    inter = MagicMock(spec=discord.Interaction)
    inter.id = next(_interaction_ids)
    inter.client = bot
    inter.type = discord.InteractionType.component if click else discord.InteractionType.application_command
    inter.user = MagicMock(spec=discord.Member)
    inter.user.id, inter.user.display_name = user
    inter.user.name = user[1].lower()
    inter.guild_id = guild_id
    inter.channel_id = channel_id
    inter.channel = channel if channel is not None else MagicMock(spec=discord.TextChannel)
    inter.permissions = discord.Permissions(manage_guild=manage)
    inter.app_permissions = app_permissions if app_permissions is not None else discord.Permissions.all()
    inter.response = MagicMock(spec=discord.InteractionResponse)
    state = {"done": False}

    async def answered(*args, **kwargs):
        state["done"] = True

    inter.response.defer = AsyncMock(side_effect=answered)
    inter.response.send_message = AsyncMock(side_effect=answered)
    inter.response.is_done = MagicMock(side_effect=lambda: state["done"])
    inter.followup = MagicMock(spec=discord.Webhook)
    inter.followup.send = AsyncMock(side_effect=lambda *a, **k: FakeMessage(next(_message_ids)))
    inter.edit_original_response = AsyncMock()
    inter.delete_original_response = AsyncMock()
    return inter


def private_texts(inter) -> list[str]:
    """Everything only the user read: private first responses, edits of the deferred answer,
    private followups (in that order of kinds)."""
    out = []
    for call in inter.response.send_message.await_args_list:
        assert call.kwargs.get("ephemeral") is True, call
        out.append(call.args[0] if call.args else call.kwargs.get("content", ""))
    for call in inter.edit_original_response.await_args_list:
        out.append(call.kwargs.get("content", ""))
    for call in inter.followup.send.await_args_list:
        assert call.kwargs.get("ephemeral") is True, f"a public followup: {call}"
        out.append(call.args[0] if call.args else call.kwargs.get("content", ""))
    return out


def only_private(inter) -> str:
    """The single private answer of a refused (or private) command; nothing was deleted."""
    answers = private_texts(inter)
    assert len(answers) == 1, answers
    inter.delete_original_response.assert_not_awaited()
    return answers[0]


def was_saved(inter) -> None:
    """A public command that was committed: the private "thinking…" answer is removed (the
    channel post is the answer) and the user is told nothing privately."""
    inter.delete_original_response.assert_awaited_once_with()
    assert private_texts(inter) == []


async def delivered(bot) -> list[Sent]:
    """Let the outbox sender deliver what is owed; the channel posts it made, in order."""
    calls = bot.http.request.sent
    before = len(calls)
    await bot.sender.flush()
    return channel_posts(calls[before:])


async def only_public(bot, inter) -> Sent:
    """The command was saved, and the sender delivers exactly one channel post for it."""
    was_saved(inter)
    posts = await delivered(bot)
    assert len(posts) == 1, [p.content for p in posts]
    assert posts[0].url.endswith(f"/channels/{CHANNEL}/messages")
    return posts[0]


def mentioned(post: Sent) -> list[int]:
    """Who a post may notify (`allowed_mentions.users`); never @everyone or roles."""
    allowed = post.body["allowed_mentions"]
    assert allowed.get("parse", []) == [], allowed
    return [int(u) for u in allowed.get("users", [])]


async def stored(store):
    """Everything a refusal must leave unchanged: the channel's rally, drivers and log byte for
    byte (`snapshot_of`, as in the service tests) and the outbox (a refusal owes no post)."""
    return await snapshot_of(store), [row.as_dict() for row in await store.outbox.all()]
