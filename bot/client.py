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
   `python -m bot sync` forces it.

The render worker processes (`bot/services/images.py`) start in a thread in the background once
the services are open (a board asked for meanwhile starts them itself); `close()` stops the loops,
the web page, closes the gateway and the database, then the workers.
With `RALLYBOT_WEB_PORT` set, the spectators' web page (bot/web/) listens there from the setup on,
in a child process of its own (bot/web/child.py: read-only on the same database, at a lower CPU
priority, restarted with a backoff if it dies, stopped first at close), so a storm of page views
never delays a command; a page that cannot start (port taken) is one error line and the bot goes on.
Intents are the defaults: no privileged intent (no message content, members or presences).

The cogs, views and scheduler are given this bot (a `Host` of theirs: bot/views/host.py,
bot/scheduler/loop.py) and never import this module, which imports them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.tree_info import sync_payload, tree_hash
from bot.config import Settings
from bot.scheduler import SchedulerLoop
from bot.services import RallyService
from bot.services.command_sync import CommandSyncState
from bot.services.deadlines import DeadlineService
from bot.services.images import (
    PillowRenderer,
    Renderer,
    configure,
    default_renderer,
    draw_async,
    shutdown_pool,
    start_pool,
)
from bot.store import Store
from bot.store.clock import utc_now
from bot.views.hand_menu import picked_by
from bot.views.interaction_io import run_click, send_error
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
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(),
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
        self.scheduler = SchedulerLoop(self)
        self.turn_button = clicked_by(partial(run_click, self))  # the class a posted turn button's clicks find
        self.pick_menu = picked_by(partial(run_click, self))  # a private hand's select menu: a pick is a click
        self._store: Store | None = None
        self._rallies: RallyService | None = None
        self._deadlines: DeadlineService | None = None
        self._sender: OutboxSender | None = None
        self._pool_start: asyncio.Task[object] | None = None
        self.web: WebChild | None = None

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
            await self.sync_commands()

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
        digest = tree_hash(await sync_payload(self.tree, guild))
        state = CommandSyncState(self.store)
        if not force and await state.last_hash(scope) == digest:
            log.info("slash commands unchanged since the last sync (%s): not syncing", scope)
            return False
        synced = await self.tree.sync(guild=guild)
        await state.remember(scope, digest)
        log.info("synced %d slash commands (%s)", len(synced), scope)
        return True

    async def close(self) -> None:
        """Stop the loops, close the gateway, checkpoint and close the database."""
        self.scheduler.stop()
        if self.web is not None:
            await self.web.stop()
        if self._sender is not None:
            await self._sender.stop()
        try:
            await super().close()
        finally:
            if self._store is not None:
                await self._store.close()
            if self._pool_start is not None:  # started (or starting): wait for it, then stop the workers
                await asyncio.gather(self._pool_start, return_exceptions=True)
                await asyncio.to_thread(shutdown_pool)

    def forget_store(self) -> None:
        """Tests that own the store close it themselves."""
        self._store = None
