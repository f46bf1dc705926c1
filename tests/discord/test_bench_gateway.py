"""bench/gateway.py: the real bot fed a shard's READY, GUILD_CREATEs and a minute of the `guilds`
intent's events (smoke test on a tiny shard; no timing assertions), and `--servers` on the command
line."""

from __future__ import annotations

import argparse

import discord
import pytest

from bench.gateway import MIX, guild_create, run, server_id
from bot.cli.bench import _options
from bot.client import gateway_intents


def test_a_tiny_shard_gives_every_figure_and_the_bot_sends_nothing():
    record = run(servers=12)
    assert record["servers"] == 12 and record["intents"] == gateway_intents().value
    assert record["subscribed"] == ["guilds"]  # no message, member, presence, voice, emoji... events
    assert record["memory"] == "VmRSS delta" and record["rss_mb"] >= record["baseline_mb"] > 0
    assert record["events"] == 24 and record["cpu_ms_per_1000_events"] > 0
    assert set(record["by_kind_us"]) <= set(MIX)
    assert record["ready_s"] >= record["guild_ready_timeout_s"]  # discord.py waits after the last server
    assert record["requests"] == []
    assert record["cached"] == {"emojis": 0, "stickers": 0, "members_per_server": 1.0, "messages": 0}
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


def test_the_intents_are_the_guilds_one_only():
    assert gateway_intents() == discord.Intents(guilds=True)
