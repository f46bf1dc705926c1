"""Gateway benchmark: what a shard of SERVERS servers costs the bot in memory and CPU.

The real `RallyBot` (its settings for shard 0 of SHARD_COUNT, its intents, its caches, every cog
loaded by `setup_hook` on a temporary SQLite store) is fed what Discord's gateway sends a bot with
its intents, as discord.py's gateway would feed it (`bot._connection.parse_*`, the same entry
points), no socket opened:

1. a shard's READY (the servers as unavailable stubs); with the `guilds` intent only, one
   GUILD_CREATE per server after it, of a typical server's shape (`guild_create`: 30 channels with
   their permission overwrites, 25 roles, 3 active threads, the bot's own member and two members
   in voice with their voice states, 40 emojis, 3 stickers, a scheduled event), each payload built,
   parsed and dropped in turn. The bot asks for no intent (bot/client.py `gateway_intents`), so
   Discord sends it no GUILD_CREATE: READY's stub is all a server is to it;
2. a minute of the events Discord sends at a busy rate, EVENTS_PER_SERVER_MIN per server: with no
   intent, interactions alone (`INTERACTIONS_ONLY`: nothing else is sent); with `guilds`, a mix
   (`MIX`) of channel, role, thread and guild updates, thread creates, deletes and list syncs,
   thread member updates and interactions. The interactions are button clicks on other messages:
   their parsing and dispatch, not a command's work, which `bench service_latency` measures (what
   a command then asks of Discord for lack of a cache, a member's roles or the server's name, is
   counted by tests/discord, not here).

Printed (one JSON line):
- intents: the value the bot identifies with, and subscribed: the intents it names (the events of
  every other intent — messages, typing, reactions, members, presences, voice, emojis… — are not
  sent at all: they cost nothing);
- baseline_mb: the bot's process (VmRSS) with every cog loaded and 0 servers, rss_mb once the
  shard is ready (gc run), mb_per_1000_servers: the difference per 1,000 servers (memory:
  "VmRSS delta", same run); goal ≤ 30; rss_after_minute_mb and mb_per_1000_servers_after_minute:
  the same after the busy minute (a server whose member clicked keeps the bot's own member);
- guild_create_s: the CPU time of parsing READY (and the GUILD_CREATEs, if any); ready_s: from
  READY to `on_ready` (wall clock: discord.py waits `guild_ready_timeout`, 2 s, for servers);
- events, cpu_ms_per_1000_events: the CPU time (process_time, no sleeping) of parsing the
  minute's events and running what they dispatched; by_kind: the same per event kind;
- holders: what a server holds, by source file (tracemalloc over TRACED more servers, each
  arriving as above and clicked once, KB per server), so a regression names its cause;
- requests: what the bot sent Discord meanwhile (none expected: the bot answers only commands).
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import os
import random
import tempfile
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

SERVERS = 2500  # Discord's most per shard
SHARD_COUNT = 4
CHANNELS = 30  # 4 categories, 20 text, 5 voice, 1 forum
ROLES = 25
THREADS = 3
EMOJIS = 40
STICKERS = 3
VOICE = 2  # members in a voice channel when the bot connects
EVENTS_PER_SERVER_MIN = 2  # a busy minute: two events per server
TRACED = 100
APP_ID = 4242
#: the minute's events with the `guilds` intent: kind → share
MIX = {"CHANNEL_UPDATE": 0.2, "GUILD_ROLE_UPDATE": 0.1, "GUILD_UPDATE": 0.05, "THREAD_CREATE": 0.1,
       "THREAD_UPDATE": 0.1, "THREAD_DELETE": 0.05, "THREAD_LIST_SYNC": 0.05, "THREAD_MEMBER_UPDATE": 0.05,
       "CHANNEL_CREATE": 0.02, "CHANNEL_DELETE": 0.02, "GUILD_ROLE_CREATE": 0.01, "INTERACTION_CREATE": 0.25}
#: the minute's events with no intent: interactions alone (Discord sends nothing else)
INTERACTIONS_ONLY = {"INTERACTION_CREATE": 1.0}
STAMP = "2026-05-01T12:00:00+00:00"
_ids = itertools.count(1_300_000_000_000_000_000)


def rss_mb() -> float:
    """This process's resident set size in MB (0 without /proc)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def server_id(k: int) -> int:
    """The k-th server of shard 0 of SHARD_COUNT (Discord's rule: `(id >> 22) % count`)."""
    return ((1_180_000_000_000 + k * SHARD_COUNT) << 22) | (k % 4096)


def mix_for(intents: Any) -> dict[str, float]:
    """The minute's events Discord sends a bot with `intents`: `MIX` with `guilds`, else only
    interactions (which need no intent)."""
    return MIX if intents.guilds else INTERACTIONS_ONLY


def user(user_id: int, name: str, bot: bool = False) -> dict:
    return {"id": str(user_id), "username": name, "discriminator": "0", "avatar": f"{user_id:032x}",
            "global_name": name.title(), "bot": bot, "public_flags": 0, "avatar_decoration_data": None}


def overwrite(target: int, kind: int) -> dict:
    return {"id": str(target), "type": kind, "allow": "1024", "deny": "2048"}


def channel(guild: int, channel_id: int, n: int, parent: int | None) -> dict:
    """Channel n of a server: 4 categories first, then 20 text, 5 voice and a forum."""
    kind = 4 if n < 4 else 0 if n < 24 else 2 if n < 29 else 15
    data: dict[str, Any] = {"id": str(channel_id), "type": kind, "guild_id": str(guild), "name": f"channel-{n}",
                            "position": n, "flags": 0, "nsfw": False,
                            "permission_overwrites": [overwrite(guild, 0), overwrite(guild + 1 + n % ROLES, 0)],
                            "parent_id": None if kind == 4 else str(parent)}
    if kind == 0:
        data.update(topic="Rallies every evening: /rally create, then click the buttons." * (n % 2),
                    last_message_id=str(next(_ids)), rate_limit_per_user=0, default_auto_archive_duration=1440)
    elif kind == 2:
        data.update(bitrate=64000, user_limit=0, rtc_region=None, last_message_id=None, rate_limit_per_user=0)
    elif kind == 15:
        data.update(topic="Setups", available_tags=[{"id": str(next(_ids)), "name": t, "moderated": False,
                                                     "emoji_id": None, "emoji_name": None}
                                                    for t in ("asphalt", "gravel", "snow")],
                    default_reaction_emoji=None, default_sort_order=None, default_forum_layout=0,
                    default_thread_rate_limit_per_user=0, rate_limit_per_user=0)
    return data


def role(guild: int, role_id: int, n: int) -> dict:
    return {"id": str(role_id), "name": "@everyone" if role_id == guild else f"role {n}", "color": n * 4099,
            "colors": {"primary_color": n * 4099, "secondary_color": None, "tertiary_color": None},
            "hoist": n % 5 == 0, "icon": None, "unicode_emoji": None, "position": 0 if role_id == guild else n,
            "permissions": "1071698660929", "managed": n == ROLES - 1, "mentionable": n % 3 == 0, "flags": 0,
            "description": None, **({"tags": {"bot_id": str(APP_ID)}} if n == ROLES - 1 else {})}


def thread(guild: int, thread_id: int, parent: int, n: int) -> dict:
    return {"id": str(thread_id), "type": 11, "guild_id": str(guild), "parent_id": str(parent),
            "owner_id": str(next(_ids)), "name": f"stage notes {n}", "last_message_id": str(next(_ids)),
            "message_count": 12, "member_count": 4, "rate_limit_per_user": 0, "flags": 0, "total_message_sent": 12,
            "thread_metadata": {"archived": False, "auto_archive_duration": 1440, "archive_timestamp": STAMP,
                                "locked": False, "create_timestamp": STAMP}}


def member(user_id: int, name: str, roles: list[int], bot: bool = False) -> dict:
    return {"user": user(user_id, name, bot), "roles": [str(r) for r in roles], "joined_at": STAMP, "deaf": False,
            "mute": False, "flags": 0, "nick": None, "avatar": None, "premium_since": None, "pending": False,
            "communication_disabled_until": None}


def guild_create(k: int) -> dict:
    """Server k's GUILD_CREATE as Discord sends it to a bot with the `guilds` intent only: no
    member list (the bot's own member and those in voice), no presences."""
    guild = server_id(k)
    ids = [guild + 1 + i for i in range(CHANNELS + ROLES + THREADS + EMOJIS + STICKERS + VOICE)]
    roles = [role(guild, guild, 0)] + [role(guild, ids[i], i) for i in range(1, ROLES)]
    categories = [ids[ROLES + i] for i in range(4)]
    channels = [channel(guild, ids[ROLES + n], n, categories[n % 4]) for n in range(CHANNELS)]
    text, voice = channels[4]["id"], channels[24]["id"]
    at = ROLES + CHANNELS
    threads = [thread(guild, ids[at + i], int(text), i) for i in range(THREADS)]
    at += THREADS
    emojis = [{"id": str(ids[at + i]), "name": f"emoji_{i}", "roles": [], "require_colons": True, "managed": False,
               "animated": i % 10 == 0, "available": True} for i in range(EMOJIS)]
    at += EMOJIS
    stickers = [{"id": str(ids[at + i]), "name": f"sticker {i}", "tags": "car", "type": 2, "format_type": 1,
                 "description": None, "available": True, "guild_id": str(guild)} for i in range(STICKERS)]
    at += STICKERS
    voters = [member(ids[at + i], f"voice{i}", [ids[1]]) for i in range(VOICE)]
    voice_states = [{"user_id": str(ids[at + i]), "channel_id": voice, "session_id": f"{i:032x}", "deaf": False,
                     "mute": False, "self_deaf": False, "self_mute": i == 0, "self_video": False,
                     "suppress": False, "request_to_speak_timestamp": None} for i in range(VOICE)]
    return {
        "id": str(guild), "name": f"Rally club {k}", "icon": f"{k:032x}", "splash": None, "discovery_splash": None,
        "banner": None, "description": None, "owner_id": str(ids[-1]), "afk_channel_id": None, "afk_timeout": 300,
        "verification_level": 1, "default_message_notifications": 1, "explicit_content_filter": 2,
        "features": ["COMMUNITY", "NEWS"] if k % 3 == 0 else [], "mfa_level": 0, "application_id": None,
        "system_channel_id": text, "system_channel_flags": 0, "rules_channel_id": None, "max_presences": None,
        "max_members": 500000, "vanity_url_code": None, "premium_tier": k % 3, "premium_subscription_count": k % 7,
        "preferred_locale": "en-US", "public_updates_channel_id": None, "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50, "nsfw_level": 0, "premium_progress_bar_enabled": False,
        "safety_alerts_channel_id": None, "widget_enabled": False, "widget_channel_id": None,
        "incidents_data": None, "joined_at": STAMP, "large": False, "unavailable": False, "member_count": 180,
        "roles": roles, "emojis": emojis, "stickers": stickers, "channels": channels, "threads": threads,
        "members": [member(APP_ID, "rallybot", [ids[ROLES - 1]], bot=True), *voters], "voice_states": voice_states,
        "presences": [], "stage_instances": [], "soundboard_sounds": [],
        "guild_scheduled_events": [{"id": str(next(_ids)), "guild_id": str(guild), "channel_id": voice,
                                    "creator_id": str(ids[-1]), "name": "Sunday rally", "description": "Meet",
                                    "scheduled_start_time": STAMP, "scheduled_end_time": None, "privacy_level": 2,
                                    "status": 1, "entity_type": 2, "entity_id": None, "entity_metadata": None,
                                    "user_count": 5, "image": None, "recurrence_rule": None}],
    }


def event(kind: str, k: int, rng: random.Random) -> dict:
    """One event of `kind` for server k (an existing channel, role or thread of its GUILD_CREATE)."""
    guild = server_id(k)
    n = rng.randrange(4, 24)
    parent = guild + 1 + ROLES + n
    if kind == "CHANNEL_UPDATE":
        return channel(guild, parent, n, guild + 1 + ROLES)
    if kind in ("CHANNEL_CREATE", "CHANNEL_DELETE"):
        return channel(guild, guild + 1 + ROLES + CHANNELS - 1, CHANNELS - 1, guild + 1 + ROLES)
    if kind in ("GUILD_ROLE_UPDATE", "GUILD_ROLE_CREATE"):
        i = rng.randrange(1, ROLES)
        return {"guild_id": str(guild), "role": role(guild, guild + 1 + i, i)}
    if kind == "GUILD_UPDATE":
        data = guild_create(k)
        for key in ("channels", "threads", "members", "voice_states", "presences", "stage_instances",
                    "guild_scheduled_events", "soundboard_sounds", "joined_at", "large", "member_count"):
            data.pop(key)
        return data
    first_thread = guild + 1 + ROLES + CHANNELS
    if kind in ("THREAD_CREATE", "THREAD_UPDATE"):
        return thread(guild, first_thread + rng.randrange(THREADS), first_thread - CHANNELS + 4, 0)
    if kind == "THREAD_DELETE":
        return {"id": str(first_thread + rng.randrange(THREADS)), "guild_id": str(guild),
                "parent_id": str(first_thread - CHANNELS + 4), "type": 11}
    if kind == "THREAD_LIST_SYNC":
        threads = [thread(guild, first_thread + i, first_thread - CHANNELS + 4, i) for i in range(THREADS)]
        return {"guild_id": str(guild), "channel_ids": [str(first_thread - CHANNELS + 4)], "threads": threads,
                "members": []}
    if kind == "THREAD_MEMBER_UPDATE":
        return {"id": str(first_thread), "guild_id": str(guild), "user_id": str(APP_ID), "join_timestamp": STAMP,
                "flags": 1}
    if kind == "INTERACTION_CREATE":
        return click(guild, parent)
    raise ValueError(kind)


def click(guild: int, channel_id: int) -> dict:
    """A click on a button of a message the bot does not know (a `custom_id` none of its views
    or dynamic items match): the cost of parsing and dispatching an interaction."""
    interaction = next(_ids)
    clicker = next(_ids)
    return {"id": str(interaction), "application_id": str(APP_ID), "type": 3, "token": f"t{interaction}",
            "version": 1, "guild_id": str(guild), "channel_id": str(channel_id),
            "channel": {"id": str(channel_id), "type": 0, "name": "rally", "guild_id": str(guild),
                        "permissions": "1071698660929", "parent_id": None, "position": 4, "flags": 0,
                        "nsfw": False},
            "member": {**member(clicker, "driver", []), "permissions": "1071698660929"},
            "app_permissions": "1071698660929", "locale": "en-US", "guild_locale": "en-US",
            "attachment_size_limit": 8388608, "entitlements": [], "authorizing_integration_owners": {"0": str(guild)},
            "context": 0, "message": {"id": str(next(_ids)), "channel_id": str(channel_id), "type": 0,
                                      "content": "", "author": user(next(_ids), "otherbot", bot=True),
                                      "attachments": [], "embeds": [], "mentions": [], "mention_roles": [],
                                      "pinned": False, "mention_everyone": False, "tts": False,
                                      "timestamp": STAMP, "edited_timestamp": None, "flags": 0, "components": []},
            "data": {"custom_id": "poll:other-bot:1", "component_type": 2}}


class NullRenderer:
    """No pictures: the bench sends nothing (the bot's renderer is only called for a post)."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"bench gateway draws nothing ({name})")


async def _drain() -> None:
    """Run what the parsed events dispatched (listeners' tasks), without sleeping."""
    for _ in range(3):
        await asyncio.sleep(0)


def shard_bot(db: Path, **options: Any) -> Any:
    """The real `RallyBot` for shard 0 of SHARD_COUNT (its intents and caches), drawing nothing,
    whose every request to Discord is recorded in `bot.bench_requests` and refused."""
    from bot.client import RallyBot
    from bot.config import Settings
    from bot.store.shards import Shards

    bot = RallyBot(Settings(db=db, shards=Shards(SHARD_COUNT, (0,))), renderer=NullRenderer(),
                   start_loops=False, sync=False, **options)
    sent: list[str] = []

    async def no_network(route: Any, **kwargs: Any) -> Any:
        sent.append(f"{route.method} {route.path}")
        raise AssertionError("the bench sends nothing to Discord")

    bot.http.request = no_network  # type: ignore[method-assign]
    bot.bench_requests = sent  # type: ignore[attr-defined]
    return bot


async def bind(bot: Any) -> None:
    """What login() does first: bind the bot to the running event loop."""
    await bot._async_setup_hook()


async def connect(bot: Any, servers: int) -> float:
    """What the gateway gives a shard at start: READY (the servers as unavailable stubs), then,
    with the `guilds` intent only, a GUILD_CREATE per server, each built, parsed and dropped in
    turn; waits for `on_ready` and returns the CPU seconds of the parsing. `bot` is bound to the
    loop first (`bind`)."""
    state = bot._connection
    state.shard_ids = bot.shard_ids  # what `launch_shards` sets before the shards connect
    cpu0 = time.process_time()
    state.parse_ready({"v": 10, "user": user(APP_ID, "rallybot", bot=True), "session_type": "normal",
                       "session_id": "bench", "resume_gateway_url": "wss://gateway.invalid", "shard": [0, SHARD_COUNT],
                       "guilds": [{"id": str(server_id(k)), "unavailable": True} for k in range(servers)],
                       "application": {"id": str(APP_ID), "flags": 0}})
    if bot.intents.guilds:  # else Discord sends no GUILD_CREATE: READY's stubs are all the bot has
        for k in range(servers):
            state.parse_guild_create(guild_create(k))
    spent = time.process_time() - cpu0
    await asyncio.wait_for(bot.wait_until_ready(), timeout=60 + servers / 100)
    if len(bot.guilds) != servers:
        raise RuntimeError(f"the bot knows {len(bot.guilds)} servers, not {servers}")
    return spent


async def _measure(servers: int, minute_events: int, folder: Path) -> dict[str, Any]:
    import discord

    bot = shard_bot(folder / "bench.sqlite3")
    try:
        await bind(bot)
        await bot.setup_hook()  # the store, every cog: the bot with 0 servers
        state = bot._connection
        intents = bot.intents
        gc.collect()
        baseline = rss_mb()
        wall0 = time.perf_counter()
        guild_create_s = await connect(bot, servers)
        ready_s = time.perf_counter() - wall0
        gc.collect()
        loaded = rss_mb()

        rng = random.Random(7)
        mix = mix_for(intents)
        kinds = list(mix)
        plan = rng.choices(kinds, weights=[mix[kind] for kind in kinds], k=minute_events)
        payloads = [(kind, event(kind, rng.randrange(servers), rng)) for kind in plan]
        cost: dict[str, float] = dict.fromkeys(kinds, 0.0)
        handlers = {kind: getattr(state, f"parse_{kind.lower()}") for kind in kinds}
        # interaction responses would go through the webhook adapter: none is made (unknown custom_id)
        cpu0 = time.process_time()
        for kind, payload in payloads:
            started = time.process_time()
            handlers[kind](payload)
            cost[kind] += time.process_time() - started
        await _drain()
        events_cpu = time.process_time() - cpu0
        counts = Counter(plan)
        del payloads
        gc.collect()
        after_minute = rss_mb()

        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        for k in range(servers, servers + TRACED):  # a server's arrival, then a click of one of its members
            state._add_guild_from_data({"id": str(server_id(k)), "unavailable": True})  # as READY does
            if intents.guilds:
                state.parse_guild_create(guild_create(k))
            state.parse_interaction_create(click(server_id(k), server_id(k) + 1 + ROLES + 4))
        await _drain()
        gc.collect()
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        holders = _holders(after.compare_to(before, "filename"))
        return {
            "servers": servers, "shard": [0, SHARD_COUNT], "intents": intents.value,
            "subscribed": sorted(name for name, on in intents if on),
            "memory": "VmRSS delta", "baseline_mb": round(baseline, 1), "rss_mb": round(loaded, 1),
            "mb_per_1000_servers": round((loaded - baseline) * 1000 / max(servers, 1), 1),
            "rss_after_minute_mb": round(after_minute, 1),
            "mb_per_1000_servers_after_minute": round((after_minute - baseline) * 1000 / max(servers, 1), 1),
            "guild_create_s": round(guild_create_s, 2), "ready_s": round(ready_s, 2),
            "guild_ready_timeout_s": state.guild_ready_timeout,
            "events": minute_events, "events_per_s": round(minute_events / 60, 1),
            "cpu_ms_per_1000_events": round(events_cpu * 1000 * 1000 / max(minute_events, 1), 1),
            "by_kind_us": {kind: round(cost[kind] * 1e6 / counts[kind], 1) for kind in sorted(counts)},
            "holders_kb_per_server": holders, "requests": bot.bench_requests,
            "cached": {"emojis": len(bot.emojis), "stickers": len(bot.stickers),
                       "members_per_server": round(sum(len(g.members) for g in bot.guilds) / len(bot.guilds), 2),
                       "messages": len(bot.cached_messages)},
            "discord_py": discord.__version__,
        }
    finally:
        await bot.close()


def _holders(stats: list[Any]) -> dict[str, float]:
    """The biggest allocators of the traced servers, KB per server, by source file."""
    out: dict[str, float] = {}
    for stat in stats[:8]:
        if stat.size_diff <= 0:
            continue
        name = stat.traceback[0].filename
        short = name.split("site-packages/")[-1] if "site-packages/" in name else os.path.basename(name)
        out[short] = round(stat.size_diff / 1024 / TRACED, 2)
    return out


def run(servers: int = SERVERS) -> dict[str, Any]:
    """The figures for a shard of `servers` servers (see the module docstring)."""
    with tempfile.TemporaryDirectory(prefix="rallybot-gateway-") as folder:
        return asyncio.run(_measure(servers, max(1, servers * EVENTS_PER_SERVER_MIN), Path(folder)))
