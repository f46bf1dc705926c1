"""The Discord bot: a `commands.Bot` that opens the store, loads the cogs, starts the scheduler.

`setup_hook` (run by discord.py after login, before the gateway connects):
1. open the store (SQLite or PostgreSQL, migrating it) and build the services on it, which claim
   only the posts and jobs of this process's shards;
2. load every module of `EXTENSIONS`; one that fails is logged and skipped, not fatal;
3. register the persistent turn buttons (`add_dynamic_items`), so buttons posted before a
   restart still work; their clicks come to this bot (`turn_button`);
4. start the scheduler loop and the outbox sender; both wait for the gateway to be ready, and
   the start-up work (clocks for running rallies that have none, what is still owed) runs in
   them, in the background, so commands are answered at once;
5. install the catalogue's translator (bot/views/translator.py: French and German command
   names, descriptions and choices), then sync the slash commands only when needed (DESIGN §3):
   to `DEV_GUILD_ID` when set, else globally, and only when the hash of the payload, its
   localisations included, differs from the last synced one (kept in the database);
   `python -m bot sync` forces it. The start-up sync runs in the background (`sync_in_background`):
   a refusal (Discord's 400 naming the fields it does not take: bot/views/discord_errors.py), a
   429 or a 5xx is logged at ERROR and the bot goes on with the commands Discord already has; the
   hash is recorded only after a success, so the next start tries again.

Before the loops start (`claim_shards`, only when they do), the process records its shards in the
database (bot/store/shards.py `ShardRegistry`): a start whose SHARD_IDS overlap a live process's,
or whose SHARD_COUNT differs, is refused (`ShardConflict`, naming the other process) before a post
or a job is claimed; a heartbeat keeps the record live, and a process whose record another start
found stale and removed stops (its shards may be served by another). `close()` removes it.

The render worker processes (`bot/services/images.py`) start in a thread in the background once
the services are open (a board asked for meanwhile starts them itself); `close()` stops the loops,
the web page, closes the gateway and the database, then the workers.
With `RALLYBOT_WEB_PORT` set, the spectators' web page (bot/web/) listens there from the setup on,
in a child process of its own (bot/web/child.py: read-only on the same database, at a lower CPU
priority, restarted with a backoff if it dies, stopped first at close), so a storm of page views
never delays a command; a page that cannot start (port taken) is one error line and the bot goes on.
The gateway is asked for no intent at all (`gateway_intents`): Discord sends no server's
channels, roles or threads, nor its messages, typing or voice, so a server costs the process only
READY's stub of it (`python -m bot bench gateway`; docs/hosting.md). Commands and clicks come as
interactions, which need no intent and carry what the bot reads: the member, their permissions
(Manage Server, Manage Channels), the channel, the server's language. What a server's cache gave
before is asked of Discord when needed, with discord.py's public calls:
- a league's organiser role: the member's roles are learnt only when a role could decide
  (bot/views/member_roles.py: two requests, kept 5 minutes);
- the server's name on a run (the world scratch): fetched once and kept in the server's settings
  (bot/views/server_names.py, refreshed daily);
- the channel a run's or a table's private thread is made in: the interaction's own, else fetched
  (bot/views/threads.py).
No privileged intent (message content, members, presences); no event listener (the mention
prefix of `commands.Bot` is never used: no message arrives). The other cache options at their
smallest too (they matter little with no intent):
- `max_messages=None`: no message cache; posts are sent and edited by id (the outbox keeps the ids),
  never looked up among cached messages.
- `member_cache_flags` none and `chunk_guilds_at_startup=False`: the member an interaction names
  comes with it, in its payload; no member list is kept or downloaded at start-up.

The cogs, views and scheduler are given this bot (a `Host` of theirs: bot/views/host.py,
bot/scheduler/loop.py) and never import this module, which imports them.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.tree_info import sent_payload, tree_hash
from bot.config import Settings
from bot.i18n import catalogue, languages
from bot.scheduler import SchedulerLoop
from bot.services import RallyService
from bot.services.command_sync import CommandSyncState
from bot.services.images import (
    PillowRenderer,
    Renderer,
    configure,
    default_renderer,
    draw_async,
    shutdown_pool,
    start_pool,
)
from bot.services.play.deadlines import DeadlineService
from bot.store import Store
from bot.store.clock import utc_now
from bot.store.shards import HEARTBEAT_S
from bot.views.discord_errors import FAILURES, SyncFailed, describe, refused_fields
from bot.views.hand_menu import picked_by
from bot.views.interaction_io import run_click, send_error
from bot.views.member_roles import MemberRoles
from bot.views.options_cache import OptionsCache
from bot.views.publish import show_time
from bot.views.sender import OutboxSender
from bot.views.threads import open_table_thread
from bot.views.translator import CatalogueTranslator
from bot.views.turn_buttons import clicked_by
from bot.web.child import WebChild
from bot.web.process import WebStartError

log = logging.getLogger(__name__)

EXTENSIONS = ("bot.cogs.rally", "bot.cogs.turn", "bot.cogs.help", "bot.cogs.league", "bot.cogs.run", "bot.cogs.scratch",
              "bot.cogs.notify", "bot.cogs.rules", "bot.cogs.stage", "bot.cogs.ratings",
              "bot.cogs.career", "bot.cogs.replay", "bot.cogs.steward")


def gateway_intents() -> discord.Intents:
    """The gateway events the bot asks for: none (see the module docstring); interactions come anyway."""
    return discord.Intents.none()


class RallyTree(app_commands.CommandTree):
    """Errors raised before a command's own handler (bad option value, used in a DM, out-of-date
    command) are answered by the same `send_error` as the cogs' errors."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await send_error(interaction, error)


class RallyBot(commands.AutoShardedBot):
    """The bot: one process serves the shards `SHARD_COUNT`/`SHARD_IDS` name (all of them by
    default, as many as Discord recommends), and claims only their servers' posts and jobs."""

    def __init__(self, settings: Settings | None = None, *, clock: Callable[[], datetime] = utc_now,
                 renderer: Renderer | None = None, seed_source: Callable[[], int] | None = None,
                 start_loops: bool = True, sync: bool = True, extensions: tuple[str, ...] = EXTENSIONS) -> None:
        settings = settings or Settings()
        shards = settings.shards
        sharding: dict[str, Any] = {"shard_count": shards.count, "shard_ids": list(shards.ids)} if shards.count else {}
        super().__init__(command_prefix=commands.when_mentioned, intents=gateway_intents(), max_messages=None,
                         member_cache_flags=discord.MemberCacheFlags.none(), chunk_guilds_at_startup=False,
                         tree_cls=RallyTree, help_command=None, **sharding)
        self.settings = settings
        self.clock = clock
        self.renderer = renderer if renderer is not None else default_renderer()
        self.seed_source = seed_source
        self.start_loops = start_loops
        self.sync_on_start = sync
        self.extension_names = extensions
        self.extension_errors: dict[str, str] = {}
        self.options_cache = OptionsCache()
        self.member_roles = MemberRoles()  # learnt when a league's organiser role decides
        self.scheduler = SchedulerLoop(self)
        self.turn_button = clicked_by(partial(run_click, self))  # the class a posted turn button's clicks find
        self.pick_menu = picked_by(partial(run_click, self))  # a private hand's select menu: a pick is a click
        self._store: Store | None = None
        self._rallies: RallyService | None = None
        self._deadlines: DeadlineService | None = None
        self._sender: OutboxSender | None = None
        self._pool_start: asyncio.Task[object] | None = None
        self.sync_at_start: asyncio.Task[bool] | None = None  # the start-up sync, in the background
        self.web: WebChild | None = None
        self.shard_record: int | None = None  # this process's record among the database's bot processes
        self._heartbeat: asyncio.Task[None] | None = None
        self.stopping: asyncio.Task[None] | None = None  # the close a lost shard record started

    # The services exist from `open_services` on (setup_hook); before that, using them is a bug.
    @property
    def store(self) -> Store:
        assert self._store is not None, "open_services() first"
        return self._store

    @property
    def rallies(self) -> RallyService:
        assert self._rallies is not None, "open_services() first"
        return self._rallies

    @property
    def deadlines(self) -> DeadlineService:
        assert self._deadlines is not None, "open_services() first"
        return self._deadlines

    @property
    def sender(self) -> OutboxSender:
        assert self._sender is not None, "open_services() first"
        return self._sender

    async def setup_hook(self) -> None:
        await self.open_services()
        if self.start_loops:  # refused (ShardConflict) before anything starts, a post or a job claimed
            await self.claim_shards()
            await self.warm()
        if isinstance(self.renderer, PillowRenderer):  # the render workers start in the background
            plan = self.settings.render_plan()  # sized to the host (bot/sizing.py), said once
            configure(plan)
            log.info("%s", plan.line())
            self._pool_start = asyncio.create_task(asyncio.to_thread(start_pool), name="render-pool-start")
        await self.load_extensions()
        if self.settings.web_port is not None:
            await self.start_web(self.settings.web_port, self.settings.web_host)
        self.add_dynamic_items(self.turn_button, self.pick_menu)
        if self.start_loops:
            self.scheduler.start()
            self.sender.start()
        await self.tree.set_translator(CatalogueTranslator())
        if self.sync_on_start:
            self.sync_at_start = asyncio.create_task(self.sync_in_background(), name="command-sync")

    async def open_services(self, store: Store | None = None) -> None:
        """Open the store (or use `store`) and build the services on it."""
        self._store = store or await Store.open(self.settings.db)
        self._rallies = RallyService(self._store, seed_source=self.seed_source, clock=self.clock)
        self._rallies.work.shards = self.settings.shards
        self._rallies.championships.tables.threads = partial(open_table_thread, self)  # a table game's tables
        self._deadlines = DeadlineService(self._rallies.work, clock=self.clock, when=show_time)
        self._sender = OutboxSender(self, self._rallies.delivery, self.renderer, prompts=self.options_cache,
                                    buttons=self.turn_button)
        self._rallies.work.on_commit = self._sender.wake
        self._rallies.work.public_url = self.settings.public_url

    async def warm(self) -> int:
        """Before the gateway connects (no command yet): every language's messages, and the stages
        and move tables of this process's most played running rallies (`RallyWork.warm`), so the
        first commands after a start or a restart cost what the others do. Returns the rallies warmed."""
        for lang in languages():
            catalogue(lang)
        warmed = await self.rallies.work.warm()
        log.info("warmed %d running rallies' stages and %d languages", warmed, len(languages()))
        return warmed

    async def claim_shards(self) -> None:
        """Record this process's shards in the database (refused with `ShardConflict` when they
        clash with a live process's) and keep the record live every HEARTBEAT_S."""
        registry = self.store.shard_processes
        self.shard_record = await registry.claim(self.settings.shards, socket.gethostname(), os.getpid(), self.clock())
        self._heartbeat = asyncio.create_task(self._beat(self.shard_record), name="shard-heartbeat")

    async def _beat(self, record: int) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            try:
                alive = await self.store.shard_processes.heartbeat(record, self.clock())
            except Exception:  # a database hiccup: the next beat tries again, well before the record is stale
                log.exception("could not refresh this process's shard record")
                continue
            if not alive:
                log.error("this process's shard record was removed as stale (no heartbeat for too long): another "
                          "process may serve its shards now; the bot stops so that nothing is sent twice")
                self.shard_record = None
                self.stopping = asyncio.create_task(self.close(), name="stop-stale-process")
                return

    async def start_web(self, port: int, host: str) -> str | None:
        """Serve the spectators' web page on `host:port` from its own process (bot/web/child.py);
        its address, or None when it cannot start (logged, naming the port: the bot goes on)."""
        try:
            child = WebChild(self.settings.db, port, host, forwarded=self.settings.web_proxy,
                             draw=partial(draw_async, self.renderer))
            address = await child.start()
        except WebStartError as exc:
            log.error("%s: the bot goes on without its web page", exc)
            return None
        self.web = child
        log.info("the web page is at %s (its own process %s, read-only, nice +%d)", address, child.pid, child.nice)
        return address

    async def load_extensions(self) -> None:
        for name in self.extension_names:
            try:
                await self.load_extension(name)
            except Exception as exc:
                log.exception("could not load extension %s", name)
                self.extension_errors[name] = f"{type(exc).__name__}: {exc}"

    async def sync_commands(self, *, force: bool = False, guild_id: int | None = None) -> bool:
        """Sync to `guild_id` / DEV_GUILD_ID (instant), else globally; skipped when the tree's hash
        is the one last synced to that scope, unless `force`. Returns whether it synced."""
        guild_id = guild_id if guild_id is not None else self.settings.dev_guild_id
        guild = discord.Object(id=guild_id) if guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        scope = f"guild:{guild_id}" if guild is not None else "global"
        payload = await sent_payload(self.tree, guild)
        digest = tree_hash(sorted(payload, key=lambda c: c["name"]))
        state = CommandSyncState(self.store)
        if not force and await state.last_hash(scope) == digest:
            log.info("slash commands unchanged since the last sync (%s): not syncing", scope)
            return False
        try:
            synced = await self.tree.sync(guild=guild)
        except discord.HTTPException as exc:  # CommandSyncFailure (a 400) is one too
            raise SyncFailed(scope, refused_fields(exc, payload)) from exc
        except FAILURES as exc:  # a time-out, a lost connection
            raise SyncFailed(scope, [describe(exc, "PUT the slash commands")]) from exc
        await state.remember(scope, digest)
        log.info("synced %d slash commands (%s)", len(synced), scope)
        return True

    async def sync_in_background(self) -> bool:
        """The start-up sync (`sync_commands`), off the way of the gateway connection (a 429 on a
        sync can make discord.py wait for hours). A failure is logged at ERROR, a line per field
        Discord refused; the bot goes on with the commands Discord already has, and as the hash
        is not recorded, the next start tries again (once per start: never a loop)."""
        try:
            return await self.sync_commands()
        except SyncFailed as failed:
            for line in failed.lines:
                log.error("Discord refused the slash commands (%s): %s", failed.scope, line)
            log.error("the slash commands are not synced: the bot goes on with the ones Discord already has; "
                      "the next start tries again (`python -m bot sync` now)")
        except Exception:
            log.exception("the slash commands are not synced: the next start tries again")
        return False

    async def close(self) -> None:
        """Stop the loops, close the gateway, checkpoint and close the database."""
        self.scheduler.stop()
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        if self.sync_at_start is not None and not self.sync_at_start.done():
            self.sync_at_start.cancel()
            await asyncio.gather(self.sync_at_start, return_exceptions=True)
        if self.web is not None:
            await self.web.stop()
        if self._sender is not None:
            await self._sender.stop()
        try:
            await super().close()
        finally:
            if self._store is not None:
                if self.shard_record is not None:
                    try:
                        await self._store.shard_processes.release(self.shard_record)
                    except Exception:  # the record goes stale instead: it blocks no start for long
                        log.exception("could not remove this process's shard record")
                    self.shard_record = None
                await self._store.close()
            if self._pool_start is not None:  # started (or starting): wait for it, then stop the workers
                await asyncio.gather(self._pool_start, return_exceptions=True)
                await asyncio.to_thread(shutdown_pool)

    def forget_store(self) -> None:
        """Tests that own the store close it themselves."""
        self._store = None
