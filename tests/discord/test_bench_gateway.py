"""bench/gateway.py: the real bot fed a shard's READY and a minute of what Discord sends a bot with
no intent, interactions alone (smoke test on a tiny shard; no timing assertions); the GUILD_CREATE
a bot with the `guilds` intent would get; and `--servers` on the command line."""

from __future__ import annotations

import argparse

import discord
import pytest

from bench.gateway import INTERACTIONS_ONLY, MIX, guild_create, mix_for, run, server_id
from bot.cli.bench import _options
from bot.client import gateway_intents


def test_a_tiny_shard_gives_every_figure_and_the_bot_sends_nothing():
    record = run(servers=12)
    assert record["servers"] == 12 and record["intents"] == gateway_intents().value == 0
    assert record["subscribed"] == []  # no server, message, member, presence, voice, emoji... events
    assert record["memory"] == "VmRSS delta" and record["rss_mb"] >= record["baseline_mb"] > 0
    assert record["rss_after_minute_mb"] > 0 and "mb_per_1000_servers_after_minute" in record
    assert record["events"] == 24 and record["cpu_ms_per_1000_events"] > 0
    assert set(record["by_kind_us"]) == {"INTERACTION_CREATE"}  # all Discord sends a bot with no intent
    assert record["ready_s"] >= record["guild_ready_timeout_s"]  # discord.py waits after the last server
    assert record["requests"] == []
    cached = record["cached"]
    assert (cached["emojis"], cached["stickers"], cached["messages"]) == (0, 0, 0)
    assert 0 < cached["members_per_server"] <= 1.0  # the bot's own, in a server one of whose members clicked
    assert any(name.startswith("discord/") for name in record["holders_kb_per_server"])


def test_a_server_has_a_typical_shape_on_shard_zero():
    payload = guild_create(3)
    assert (int(payload["id"]) >> 22) % 4 == 0 and int(payload["id"]) == server_id(3)
    assert len(payload["channels"]) == 30 and len(payload["roles"]) == 25 and len(payload["threads"]) == 3
    assert payload["roles"][0]["id"] == payload["id"]  # @everyone
    assert [m["user"]["bot"] for m in payload["members"]] == [True, False, False]  # the bot, two in voice
    assert len(payload["emojis"]) == 40 and len(payload["stickers"]) == 3


def args(**given) -> argparse.Namespace:
    return argparse.Namespace(**{"name": "gateway", **given})


@pytest.mark.parametrize(("given", "expected"), [
    ({"servers": 300}, {"servers": 300}),
    ({}, {}),
    ({"name": "memory", "servers": 2500}, {"servers": 2500}),
    ({"name": "memory", "servers": 0}, {"servers": 0}),
    ({"servers": 0}, "--servers must be at least 1 for 'bench gateway'"),
    ({"name": "memory", "servers": -1}, "0 or more for 'bench memory'"),
    ({"name": "engine", "servers": 10}, "--servers: only for 'bench gateway' and 'bench memory'"),
])
def test_servers_on_the_command_line(given, expected):
    found = _options(args(**given))
    assert found == expected if isinstance(expected, dict) else expected in found


def test_the_bot_asks_for_no_intent_and_the_bench_feeds_what_each_intent_gets():
    assert gateway_intents() == discord.Intents.none()
    assert mix_for(gateway_intents()) == INTERACTIONS_ONLY
    assert mix_for(discord.Intents(guilds=True)) == MIX and "GUILD_ROLE_UPDATE" in MIX
