"""The render pool and its caches sized to the host (bot/sizing.py) from the CPUs, the
cgroup's memory limit and the settings `RALLYBOT_RENDER_WORKERS` (old name `RALLYBOT_RENDER_PROCESSES`)
and `RALLYBOT_MEMORY_MB`; impossible settings refused at start-up naming the setting and the
smallest value that works (exit 2, no traceback, nothing written); the README's settings for a
512 MB host start the bot's setup with the pool they promise, said once in the log."""

from __future__ import annotations

import asyncio
import logging
import re

import pytest

from bot import sizing
from bot.cli import run as run_cli
from bot.client import RallyBot
from bot.config import ConfigError, Settings
from bot.services import images
from bot.sizing import RenderPlan, minimum_mb, plan
from tests.discord.test_discord_run_and_sync import run_bot
from tests.docs_text import doc_text


def test_the_pool_comes_from_the_cores_and_the_memory():
    assert plan(cores=2) == RenderPlan(1, 64, 300, "default")  # 300 MB hold one worker with full caches
    assert plan(memory_mb=400, cores=2) == RenderPlan(2, 30, 400, "RALLYBOT_MEMORY_MB")
    assert plan(memory_mb=400, cores=1).workers == 1  # never more workers than CPUs
    assert plan(memory_mb=4000, cores=8) == RenderPlan(8, 64, 4000, "RALLYBOT_MEMORY_MB")  # caches at most 64 MB
    assert plan(memory_mb=200, cores=4) == RenderPlan(0, 25, 200, "RALLYBOT_MEMORY_MB")  # a worker would not fit
    assert plan(workers=0, cores=4).workers == 0  # the setting wins
    assert plan(cgroup_mb=512, cores=2) == RenderPlan(2, 34, 409, "cgroup memory.max")  # 80 % of the limit
    assert plan(memory_mb=300, cgroup_mb=512, cores=2).budget_mb == 300  # the setting wins over the cgroup
    for workers in range(4):  # the least budget of each pool size works: caches of at least 8 MB
        least = plan(workers=workers, memory_mb=minimum_mb(workers), cores=4)
        assert least.workers == workers and least.cache_mb >= sizing.MIN_CACHE_MB
        with_web = plan(workers=workers, memory_mb=minimum_mb(workers, web=True), cores=4, web=True)
        assert with_web.workers == workers and with_web.cache_mb >= sizing.MIN_CACHE_MB


def test_the_web_page_s_process_is_counted_in_the_budget():
    """Its process (drawing nothing: the workers draw its pictures) takes WEB_MB of the budget: 300 MB
    then hold no worker with its caches, and the bot draws in its thread; 400 MB hold one."""
    assert plan(cores=2, web=True) == RenderPlan(0, 35, 300, "default", web=True)
    assert plan(memory_mb=400, cores=2, web=True) == RenderPlan(1, 64, 400, "RALLYBOT_MEMORY_MB", web=True)
    assert minimum_mb(1, web=True) == minimum_mb(1) + sizing.WEB_MB
    assert plan(cores=2, web=True).line() == ("render: in the bot's thread, caches 35 MB, memory budget 300 MB "
                                              "(default, web page counted)")
    settings = Settings.from_env({"RALLYBOT_WEB_PORT": "8080", "RALLYBOT_MEMORY_MB": "400"})
    assert settings.render_plan().web and settings.render_plan().workers == min(1, sizing.cpus())
    with pytest.raises(ConfigError, match=rf"RALLYBOT_MEMORY_MB=300 is too small for 1 render worker and the web "
                                          rf"page: the smallest value that works is {minimum_mb(1, web=True)} "
                                          rf"\(or RALLYBOT_RENDER_WORKERS=0, which works from "
                                          rf"{minimum_mb(0, web=True)}\)"):
        Settings.from_env({"RALLYBOT_WEB_PORT": "8080", "RALLYBOT_MEMORY_MB": "300", "RALLYBOT_RENDER_WORKERS": "1"})


def test_the_cgroup_limit_is_read_when_there_is_one(tmp_path):
    path = tmp_path / "memory.max"
    assert sizing.cgroup_memory_mb(path) is None  # no file: no limit
    path.write_text("max\n")
    assert sizing.cgroup_memory_mb(path) is None
    path.write_text(f"{512 * 1024 * 1024}\n")
    assert sizing.cgroup_memory_mb(path) == 512


def test_the_settings_and_the_old_name():
    assert Settings.from_env({"RALLYBOT_RENDER_WORKERS": "0"}).render_workers == 0
    assert Settings.from_env({"RALLYBOT_RENDER_PROCESSES": "3"}).render_workers == 3  # the name before
    both = Settings.from_env({"RALLYBOT_RENDER_WORKERS": "1", "RALLYBOT_RENDER_PROCESSES": "3"})
    assert both.render_workers == 1
    settings = Settings.from_env({"RALLYBOT_MEMORY_MB": " 400 "})
    assert (settings.memory_mb, settings.render_workers) == (400, None)
    assert settings.render_plan().budget_mb == 400
    assert Settings().render_plan().workers == sizing.host_plan().workers  # unset: the host's


@pytest.mark.parametrize(("env", "said"), [
    ({"RALLYBOT_RENDER_WORKERS": "-1"}, "RALLYBOT_RENDER_WORKERS must be a whole number of render workers from 0"),
    ({"RALLYBOT_RENDER_WORKERS": "two"}, "RALLYBOT_RENDER_WORKERS must be a whole number"),
    ({"RALLYBOT_RENDER_PROCESSES": "1.5"}, "RALLYBOT_RENDER_PROCESSES must be a whole number"),
    ({"RALLYBOT_RENDER_WORKERS": "65"}, "from 0 to 64"),
    ({"RALLYBOT_MEMORY_MB": "lots"},
     f"RALLYBOT_MEMORY_MB must be a whole number of megabytes (at least {minimum_mb(0)})"),
    ({"RALLYBOT_MEMORY_MB": "-300"}, "RALLYBOT_MEMORY_MB must be a whole number"),
    ({"RALLYBOT_MEMORY_MB": "100"}, f"too small to draw a board: the smallest value that works is {minimum_mb(0)}"),
    ({"RALLYBOT_MEMORY_MB": "200", "RALLYBOT_RENDER_WORKERS": "2"},
     f"RALLYBOT_MEMORY_MB=200 is too small for 2 render workers: the smallest value that works is {minimum_mb(2)}"),
])
def test_an_impossible_setting_is_refused_naming_it_and_the_smallest_value(env, said):
    with pytest.raises(ConfigError) as refused:
        Settings.from_env(env)
    assert said in str(refused.value)


def test_each_smallest_value_named_does_work():
    for workers in range(3):
        env = {"RALLYBOT_RENDER_WORKERS": str(workers), "RALLYBOT_MEMORY_MB": str(minimum_mb(workers))}
        assert Settings.from_env(env).render_plan().workers == workers
        env["RALLYBOT_MEMORY_MB"] = str(minimum_mb(workers) - 1)
        with pytest.raises(ConfigError):
            Settings.from_env(env)


def test_at_start_up_a_bad_setting_exits_2_without_a_traceback_and_writes_nothing(tmp_path):
    db = tmp_path / "never.sqlite3"
    result = run_bot("run", DISCORD_TOKEN="x", RALLYBOT_DB=str(db), RALLYBOT_MEMORY_MB="64")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "RALLYBOT_MEMORY_MB=64 is too small" in result.stderr and str(minimum_mb(0)) in result.stderr
    assert not db.exists()  # refused before anything opened the database
    result = run_bot("console", "--db", str(db), RALLYBOT_RENDER_WORKERS="-2")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "RALLYBOT_RENDER_WORKERS must be a whole number" in result.stderr and not db.exists()


def readme_512_settings() -> dict[str, str]:
    """The `KEY=value` lines of the documentation's block for a 512 MB host (docs/memory.md)."""
    text = doc_text()
    block = re.search(r"Settings for a 512 MB host.*?```\w*\n(.*?)```", text, re.S)
    assert block is not None, "the documentation: the settings for a 512 MB host"
    pairs = [line.split("#", 1)[0].strip() for line in block.group(1).splitlines()]
    return dict(pair.split("=", 1) for pair in pairs if "=" in pair)


async def test_the_readme_settings_for_a_512_mb_host_start_the_bot_with_their_pool(tmp_path, monkeypatch, caplog):
    env = readme_512_settings()
    assert "RALLYBOT_MEMORY_MB" in env
    settings = Settings.from_env({**env, "DISCORD_TOKEN": "t", "RALLYBOT_DB": str(tmp_path / "small.sqlite3")})
    expected = settings.render_plan()
    assert expected.budget_mb <= 512 and minimum_mb(expected.workers) <= expected.budget_mb
    started: list[tuple[int, list[int]]] = []

    async def fake_start(self, token, *, reconnect=True):
        self.sync_on_start = False
        await self._async_setup_hook()
        await self.setup_hook()
        assert self._pool_start is not None
        await self._pool_start
        started.append((images.pool_size(), images.worker_pids()))
        await self.close()

    images.shutdown_pool()
    monkeypatch.setattr(RallyBot, "start", fake_start)
    try:
        with caplog.at_level(logging.INFO, logger="bot.client"):
            assert await run_cli.serve(settings) == 0
    finally:
        images.configure(None)
        await asyncio.to_thread(images.shutdown_pool)
    ((size, pids),) = started
    assert size == expected.workers and len(pids) == expected.workers
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("render:")]
    assert said == [expected.line()]  # once
    assert f"memory budget {expected.budget_mb} MB" in said[0] and f"caches {expected.cache_mb} MB" in said[0]


# -- the Discord servers the bot holds (bench gateway: SERVER_KB a server) ---------------------------------

def test_the_servers_held_are_counted_in_the_plan():
    assert sizing.servers_mb(0) == 0 and sizing.servers_mb(1) == 1  # rounded up
    assert sizing.servers_mb(2500) == 2500 * sizing.SERVER_KB // 1000 == 10
    assert minimum_mb(0, servers=2500) == minimum_mb(0) + 10
    assert minimum_mb(2, web=True, servers=1000) == minimum_mb(2, web=True) + 4
    assert plan(cores=2) == RenderPlan(1, 64, 300, "default")
    assert plan(cores=2, servers=2500) == RenderPlan(1, 64, 300, "default", servers=2500)  # a shard's: room left
    # 25,000 servers (ten full shards in one process) leave 100 MB less: no worker fits in 300 MB, caches shrink
    held = plan(cores=2, servers=25000)
    assert held == RenderPlan(0, 25, 300, "default", servers=25000)
    assert held.line().endswith("(default, 25,000 servers counted)")
    assert plan(memory_mb=minimum_mb(1, servers=2500), workers=1, cores=2, servers=2500).cache_mb == sizing.MIN_CACHE_MB


def test_the_servers_come_from_the_setting_else_from_the_shards():
    assert Settings.from_env({}).servers == 0  # one process, no sharding: a small bot, none counted
    assert Settings.from_env({"SHARD_COUNT": "4", "SHARD_IDS": "0-1"}).servers == 2 * sizing.SERVERS_PER_SHARD
    assert Settings.from_env({"SHARD_COUNT": "4", "RALLYBOT_SERVERS": "300"}).servers == 300
    settings = Settings.from_env({"RALLYBOT_SERVERS": "2500", "RALLYBOT_MEMORY_MB": "400"})
    assert settings.render_plan().servers == 2500 and settings.render_plan().budget_mb == 400


@pytest.mark.parametrize(("env", "said"), [
    ({"RALLYBOT_SERVERS": "many"}, "RALLYBOT_SERVERS must be the number of Discord servers this process serves"),
    ({"RALLYBOT_SERVERS": "-5"}, "RALLYBOT_SERVERS must be the number"),
    ({"RALLYBOT_SERVERS": "2500", "RALLYBOT_MEMORY_MB": str(minimum_mb(0))},
     f"RALLYBOT_MEMORY_MB={minimum_mb(0)} is too small to draw a board with 2,500 Discord servers: "
     f"the smallest value that works is {minimum_mb(0, servers=2500)}"),
    ({"SHARD_COUNT": "8", "SHARD_IDS": "0-3", "RALLYBOT_MEMORY_MB": str(minimum_mb(1) + 10),
      "RALLYBOT_RENDER_WORKERS": "1"},
     f"too small for 1 render worker with 4,000 Discord servers: the smallest value that works is "
     f"{minimum_mb(1, servers=4000)}"),
])
def test_a_budget_too_small_for_the_servers_is_refused_naming_them(env, said):
    with pytest.raises(ConfigError) as refused:
        Settings.from_env(env)
    assert said in str(refused.value)
    least = re.search(r"the smallest value that works is (\d+)", str(refused.value))
    if least is not None:  # the value named works
        assert Settings.from_env({**env, "RALLYBOT_MEMORY_MB": least.group(1)}).render_plan().budget_mb == int(
            least.group(1))
