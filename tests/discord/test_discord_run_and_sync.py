"""`python -m bot` without a token, settings from env and .env, the command-sync policy, and a
clean shutdown on SIGTERM (scheduler loop and outbox sender stopped, database closed) — all
without the network."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path
from unittest.mock import AsyncMock

import discord
import pytest

from bot.cli import run as run_cli
from bot.client import RallyBot
from bot.config import ConfigError, Settings, apply_dotenv, read_dotenv

ROOT = Path(__file__).resolve().parents[2]


def run_bot(*args: str, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DEV_GUILD_ID")}
    base.update(RALLYBOT_DOTENV="/nonexistent", **env)
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120, env=base)


def test_without_a_token_it_explains_how_to_get_one_and_exits_2():
    result = run_bot()
    assert result.returncode == 2
    assert "DISCORD_TOKEN is not set" in result.stderr
    assert "https://discord.com/developers/applications" in result.stderr
    assert "python -m bot console" in result.stderr and "Traceback" not in result.stderr


def test_a_bad_server_id_is_named_not_a_traceback():
    result = run_bot("run", DISCORD_TOKEN="x", DEV_GUILD_ID="my-server")
    assert result.returncode == 2 and "DEV_GUILD_ID must be a server id" in result.stderr
    assert "Traceback" not in result.stderr


def test_dotenv_values_fill_in_but_the_environment_wins(tmp_path):
    path = tmp_path / ".env"
    path.write_text("# settings\nexport DISCORD_TOKEN='from-file'\nLOG_LEVEL=debug  # comment\nDEV_GUILD_ID=42\n")
    assert read_dotenv(path) == {"DISCORD_TOKEN": "from-file", "LOG_LEVEL": "debug", "DEV_GUILD_ID": "42"}
    environ = {"DISCORD_TOKEN": "from-env", "RALLYBOT_DB": str(tmp_path / "x.sqlite3")}
    apply_dotenv(path, environ)
    settings = Settings.from_env(environ)
    assert (settings.token, settings.dev_guild_id, settings.log_level) == ("from-env", 42, "DEBUG")
    assert settings.db == tmp_path / "x.sqlite3"
    path.write_text("just words\n")
    with pytest.raises(ConfigError, match="expected KEY=value"):
        read_dotenv(path)
    with pytest.raises(ConfigError, match="LOG_LEVEL must be one of"):
        Settings.from_env({"LOG_LEVEL": "loud"})


@pytest.fixture
async def bot(tmp_path):
    b = RallyBot(Settings(db=tmp_path / "sync.sqlite3"), start_loops=False, sync=False)
    await b._async_setup_hook()  # what login() does first (an AutoShardedBot closes its event queue)
    await b.open_services()
    await b.load_extensions()
    b.tree.sync = AsyncMock(return_value=[])  # the one network call of a sync
    yield b
    await b.close()


async def test_commands_sync_only_when_the_tree_changed(bot):
    assert await bot.sync_commands() is True  # first start: never synced
    assert await bot.sync_commands() is False  # unchanged: no call to Discord
    bot.tree.sync.assert_awaited_once_with(guild=None)

    @bot.tree.command(name="extra", description="a new command")
    async def extra(interaction: discord.Interaction) -> None: ...

    assert await bot.sync_commands() is True  # the hash changed
    assert await bot.sync_commands(force=True) is True  # `python -m bot sync`
    assert bot.tree.sync.await_count == 3


async def test_with_a_dev_guild_commands_go_to_that_guild(bot):
    bot.settings = Settings(db=bot.settings.db, dev_guild_id=77)
    assert await bot.sync_commands() is True
    (call,) = bot.tree.sync.await_args_list
    assert call.kwargs["guild"].id == 77
    assert {c.name for c in bot.tree.get_commands(guild=discord.Object(77))} >= {"rally", "roll", "help"}
    assert await bot.sync_commands() is False


async def test_sigterm_closes_the_bot_cleanly(tmp_path, monkeypatch):
    """`serve` with the gateway replaced by an endless wait: SIGTERM → loop stopped, store closed."""
    seen: list[RallyBot] = []

    async def fake_start(self, token, *, reconnect=True):
        seen.append(self)
        self.sync_on_start = False
        await self._async_setup_hook()
        await self.setup_hook()
        while not self.is_closed():  # like the gateway loop of `connect`
            await asyncio.sleep(0.01)

    monkeypatch.setattr(RallyBot, "start", fake_start)
    loop = asyncio.get_running_loop()
    loop.call_later(0.3, os.kill, os.getpid(), signal.SIGTERM)
    code = await run_cli.serve(Settings(token="t", db=tmp_path / "serve.sqlite3"))
    assert code == 0
    (bot,) = seen
    assert bot.is_closed() and bot.store.db.closed and not bot.scheduler.loop.is_running()
    assert not [t for t in asyncio.all_tasks() if t.get_name() == "outbox-sender" and not t.done()]  # sender stopped
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.remove_signal_handler(sig)


async def test_the_sync_command_logs_in_over_http_and_forces_a_global_sync(tmp_path, monkeypatch, capsys):
    from bot.cli import sync as sync_cli
    from bot.client import RallyTree

    async def fake_login(self, token):  # what login() does, minus the HTTP call
        await self._async_setup_hook()
        await self.setup_hook()

    synced = AsyncMock(return_value=[])
    monkeypatch.setattr(RallyBot, "login", fake_login)
    monkeypatch.setattr(RallyTree, "sync", synced)
    settings = Settings(token="t", db=tmp_path / "cli-sync.sqlite3", dev_guild_id=77)
    assert await sync_cli._sync(settings, None) == 0
    assert await sync_cli._sync(settings, None) == 0  # forced: even though nothing changed
    assert [c.kwargs["guild"] for c in synced.await_args_list] == [None, None]  # global, not the dev guild
    assert "synced to all servers (global)" in capsys.readouterr().out


async def test_the_bot_runs_with_only_database_url_and_discord_token(pg_url, monkeypatch):
    """A Heroku-style host sets those two: the bot opens PostgreSQL, migrates it, serves, stops."""
    environ = {"DATABASE_URL": pg_url, "DISCORD_TOKEN": "t"}
    settings = Settings.from_env(environ)
    assert settings.db == pg_url and settings.token == "t"
    seen: list[RallyBot] = []

    async def fake_start(self, token, *, reconnect=True):
        seen.append(self)
        self.sync_on_start = False
        await self._async_setup_hook()
        await self.setup_hook()
        versions.append(await self.store.schema_version())
        await self.close()

    versions: list[int] = []
    monkeypatch.setattr(RallyBot, "start", fake_start)
    assert await run_cli.serve(settings) == 0
    (bot,) = seen
    assert versions and versions[0] >= 5
    assert bot.store.db.dialect == "postgresql" and bot.store.db.closed
    from bot.store import Store

    async with Store.open(pg_url, migrate=False) as store:  # migrated for real, on the server
        assert await store.schema_version() >= 5
