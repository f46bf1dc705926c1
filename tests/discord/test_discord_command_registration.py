"""The slash-command sync, refereed by Discord's own API spec and documented rules.

The payload is the one the real bot sends (`sync_payload` of its tree, with the catalogue's
translator that `RallyBot.setup_hook` installs): every command, option and choice in English and
in each language it is translated to. Discord refuses the WHOLE bulk overwrite (400, code 50035)
for one bad value anywhere in it, so this is checked against the schema of
`PUT /applications/{application_id}/commands` and the rules the schema does not encode
(tests/discord/referee.py: name pattern and case in every locale, description lengths, option
order and nesting, integer bounds within ±(2**53 − 1), 4,000 characters per command in its
largest locale...).
"""

from __future__ import annotations

import discord
import pytest

from bot.cogs.option_types import LARGEST_TYPED_ID
from bot.cogs.tree_info import sync_payload
from bot.views.translator import CatalogueTranslator
from tests.discord import referee
from tests.discord.fakes import GUILD, Harness

GLOBAL = "/applications/{application_id}/commands"
IN_GUILD = "/applications/{application_id}/guilds/{guild_id}/commands"


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "registration.sqlite3") as harness:
        yield harness


def _items(commands: list[dict]) -> list[dict]:
    out: list[dict] = []
    for command in commands:
        out.append(command)
        out += _items(command.get("options") or [])
    return out


async def test_the_translated_global_payload_is_one_discord_accepts(h):
    assert isinstance(h.bot.tree.translator, CatalogueTranslator)
    payload = await sync_payload(h.bot.tree)
    localised = {loc for item in _items(payload) for loc in item.get("name_localizations") or {}}
    assert {"fr", "de"} <= localised  # the payload carries its translations: they are judged too
    assert referee.judge("PUT", GLOBAL, payload) == []
    assert referee.command_problems(payload, global_scope=True) == []


async def test_the_dev_guild_payload_is_one_discord_accepts(h):
    guild = discord.Object(id=GUILD)
    h.bot.tree.copy_global_to(guild=guild)
    payload = await sync_payload(h.bot.tree, guild)
    assert payload  # the global commands, copied to the guild
    assert referee.judge("PUT", IN_GUILD, payload) == []
    assert referee.command_problems(payload, global_scope=False) == []


async def test_a_real_sync_goes_through_the_refereed_fake_and_sends_the_payload(h):
    """`tree.sync()` itself, not a stand-in: the PUT reaches the fake HTTP layer, which judges it."""
    before = referee.LEDGER.operations["bulk_set_application_commands"]
    expected = await sync_payload(h.bot.tree)
    synced = await h.bot.tree.sync()
    (put,) = [c for c in h.sent if c.method == "PUT"]
    assert put.error is None
    assert sorted(put.body, key=lambda c: c["name"]) == expected
    assert len(synced) == len(expected)
    assert referee.LEDGER.operations["bulk_set_application_commands"] == before + 1


async def test_the_rally_number_options_stop_at_the_largest_integer_discord_accepts(h):
    """`/rally results rally:` and `/replay rally:` once declared max_value 2**53: one past
    JavaScript's safe integers, and Discord refused the whole sync."""
    payload = await sync_payload(h.bot.tree)
    (replay,) = [c for c in payload if c["name"] == "replay"]
    (rally,) = [c for c in payload if c["name"] == "rally"]
    (results,) = [o for o in rally["options"] if o["name"] == "results"]
    bounds = [o["max_value"] for o in [*replay["options"], *results["options"]] if o["name"] == "rally"]
    assert bounds == [LARGEST_TYPED_ID, LARGEST_TYPED_ID] == [2**53 - 1] * 2
