"""Cog tests: command callbacks called directly with spec'd mock interactions.

The bot is real (not logged in) with a real temp SQLite store and the real services; only the
interaction is a `MagicMock(spec=discord.Interaction)` whose response and followup are
`AsyncMock`s, and `bot.http.request` is a recorder (removing old buttons edits a message).
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
from tests.discord.fakes import CHANNEL, GUILD, FakeClock, FakeRenderer, RecordingHTTP

HERE = Place(GUILD, CHANNEL)
BOB = (1002, "Bob")
ALICE = (1001, "Alice")
CAROL = (1003, "Carol")
_message_ids = itertools.count(5000)


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
    b = RallyBot(Settings(db_path=tmp_path / "unused.sqlite3"), clock=FakeClock(), renderer=FakeRenderer(),
                 seed_source=lambda: 42, start_loops=False, sync=False)
    b.http.request = RecordingHTTP([])  # type: ignore[method-assign]
    await b.open_services(store)
    await b.load_extensions()
    assert not b.extension_errors
    yield b
    b.store = None  # the store fixture closes it
    await b.close()


def interaction(bot, user=BOB, *, manage: bool = False, app_permissions: discord.Permissions | None = None,
                channel_id: int = CHANNEL) -> MagicMock:
    """A spec'd mock interaction by `user` (id, name) in the test channel."""
    inter = MagicMock(spec=discord.Interaction)
    inter.client = bot
    inter.user = MagicMock(spec=discord.Member)
    inter.user.id, inter.user.display_name = user
    inter.user.name = user[1].lower()
    inter.guild_id = GUILD
    inter.channel_id = channel_id
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
    inter.delete_original_response = AsyncMock()
    return inter


def sent(inter) -> list[dict]:
    """Every followup of the interaction: content, ephemeral, file name, view, mentions."""
    out = []
    for call in inter.followup.send.await_args_list:
        kwargs = dict(call.kwargs)
        content = call.args[0] if call.args else kwargs.get("content", "")
        file = kwargs.get("file")
        out.append({"content": content, "ephemeral": kwargs.get("ephemeral", False),
                    "file": file.filename if file else None, "view": kwargs.get("view"),
                    "mentions": kwargs.get("allowed_mentions")})
    return out


def only_private(inter) -> str:
    """The single private answer of a refused command (checks it is private and alone)."""
    answers = sent(inter)
    assert len(answers) == 1 and answers[0]["ephemeral"], answers
    return answers[0]["content"]


def only_public(inter) -> dict:
    """The single public answer; the loading message is deleted first only when it pings (an
    edit would not notify the driver: discord/discord-api-docs#5497)."""
    answers = sent(inter)
    assert len(answers) == 1 and not answers[0]["ephemeral"], answers
    pings = bool(answers[0]["mentions"] and answers[0]["mentions"].users)
    assert inter.delete_original_response.await_count == int(pings)
    return answers[0]
