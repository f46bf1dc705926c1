"""How many render workers the bot starts and how much its picture caches may hold.

The bot runs on small hosts (a 512 MB dyno, a cheap VPS): going over the memory it may use gets
it killed mid-rally. `plan()` turns the host into a `RenderPlan`:

- the memory budget: `RALLYBOT_MEMORY_MB` when set, else 80 % of the cgroup's `memory.max` (a
  container's limit; the rest is headroom for bursts), else `DEFAULT_MEMORY_MB`;
- what the budget holds besides the pictures: the bot process (`BOT_MB`), the Discord servers it
  knows (`SERVER_KB` each: `servers_mb`; `RALLYBOT_SERVERS`, else 1,000 a shard of its
  `SHARD_IDS`, else none counted) and, when the web page is on (`RALLYBOT_WEB_PORT`), its process
  (`WEB_MB`: it draws nothing, the workers draw for it);
- the render workers: `RALLYBOT_RENDER_WORKERS` when set (`RALLYBOT_RENDER_PROCESSES`, its old
  name, too), else as many as the CPUs this process may use (`os.sched_getaffinity`) and the
  budget hold, each with at least `WANTED_CACHE_MB` of caches; 0 workers: the pictures are drawn
  in a thread of the bot process (the smallest hosts);
- each drawing process's cache budget (`bot.render.cache.set_budget`: static layers, strips,
  text ...): what the budget leaves once the bot, the web page and the workers are counted,
  shared among the workers, at most `MAX_CACHE_MB`.

The figures are measured (`bench memory`: 1,000 rallies over the three games and 50 stages, a
league, the web page serving 50 clients, on this repository's 2-core machine; each process at its
peak): `BOT_MB` the bot process (discord.py, every cog, the services), `WEB_MB` the web page's
process, `WORKER_MB` a render worker with its caches empty, the drawing of a stage's new layer
included, `THREAD_MB` what drawing adds to the bot process when it draws itself. Pure: reads no
environment (`bot.config` parses the settings and gives them here); `cgroup_memory_mb` reads the
cgroup file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

BOT_MB = 110  # the bot process at 1,000 rallies (bench memory: 104–109 at its peak)
#: the web page's process, drawing nothing: 78 at its peak under 50 readers (bench memory), its
#: caches then far from full; 63 idle, and its caches hold 20 at most (`bot.web.options`)
WEB_MB = 90
#: a render worker, caches empty: ~75 once it drew boards of the three games, and a picture's
#: drawing takes up to 40 more while it lasts (a Road Rally board, a DIRT preview: the frame, the
#: palette's octree; measured per picture in a worker's process)
WORKER_MB = 115
#: a Discord server in the bot process: with no gateway intent discord.py keeps only READY's stub
#: of it, and the bot's own member once one of its members clicked: `bench gateway` measures 1.5 MB
#: a 1,000 servers once ready, 2.6-3.1 after a busy minute of clicks (VmRSS; tracemalloc: ~2 KB a
#: server). (With the `guilds` intent, its channels and roles: 36-38 MB a 1,000.)
SERVER_KB = 4
SERVERS_PER_SHARD = 1000  # Discord's recommended shard count puts about this many servers on a shard
THREAD_MB = 65  # drawing in the bot process (0 workers): the render modules, fonts, a picture's drawing
MIN_CACHE_MB = 8  # the least a drawing process's caches may have: a board's layer (≤ 2 MB) and strips
WANTED_CACHE_MB = 24  # a worker is started only when the budget leaves it at least this much of caches
MAX_CACHE_MB = 64  # more buys nothing at 50 stages (their layers fit)
DEFAULT_MEMORY_MB = 300  # no setting, no cgroup limit: the target
CGROUP_SHARE = 0.8  # of a container's memory.max: the rest is headroom
MAX_WORKERS = 64
CGROUP_FILE = Path("/sys/fs/cgroup/memory.max")


@dataclass(frozen=True)
class RenderPlan:
    """`workers` render processes (0: the bot's own render thread), each drawing process's caches
    bounded to `cache_mb`, in a memory budget of `budget_mb` (`source`: where it comes from)."""

    workers: int
    cache_mb: int
    budget_mb: int
    source: str = "default"
    web: bool = False  # the web page's process is counted in the budget
    servers: int = 0  # the Discord servers counted in the bot process

    def line(self) -> str:
        """The start-up log's line."""
        who = f"{self.workers} worker{'s' if self.workers != 1 else ''}" if self.workers else "in the bot's thread"
        each = " each" if self.workers > 1 else ""
        web = ", web page counted" if self.web else ""
        servers = f", {self.servers:,} servers counted" if self.servers else ""
        return (f"render: {who}, caches {self.cache_mb} MB{each}, memory budget {self.budget_mb} MB "
                f"({self.source}{web}{servers})")


def servers_mb(servers: int) -> int:
    """What `servers` Discord servers take in the bot process's gateway cache, in MB (rounded up)."""
    return -(-servers * SERVER_KB // 1000)


def others_mb(web: bool = False, servers: int = 0) -> int:
    """What the budget holds besides the pictures: the bot process with its `servers`, and the web
    page's when on."""
    return BOT_MB + servers_mb(servers) + (WEB_MB if web else 0)


def minimum_mb(workers: int, web: bool = False, servers: int = 0) -> int:
    """The smallest memory budget `workers` render workers (0: the bot's thread) work in, with
    the web page's process when `web`, the bot holding `servers` Discord servers."""
    if workers == 0:
        return others_mb(web, servers) + THREAD_MB + MIN_CACHE_MB
    return others_mb(web, servers) + workers * (WORKER_MB + MIN_CACHE_MB)


def cpus() -> int:
    """The CPUs this process may run on (a container's CPU set limits them)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def cgroup_memory_mb(path: Path = CGROUP_FILE) -> int | None:
    """The cgroup (v2) memory limit in MB, or None (no file, `max`, unreadable)."""
    try:
        text = path.read_text().strip()
    except OSError:
        return None
    return int(text) // (1024 * 1024) if text.isdigit() else None


def plan(workers: int | None = None, memory_mb: int | None = None, *, cores: int | None = None,
         cgroup_mb: int | None = None, web: bool = False, servers: int = 0) -> RenderPlan:
    """The render plan for these settings (None: unset) on a host of `cores` CPUs (default: this
    one's) whose cgroup allows `cgroup_mb` (None: no limit), with the web page's process when
    `web`, the bot process holding `servers` Discord servers. Settings too small for what they
    ask are refused by `bot.config` before
    (`minimum_mb`); a cgroup too small gets the least plan."""
    cores = cpus() if cores is None else cores
    if memory_mb is not None:
        budget, source = memory_mb, "RALLYBOT_MEMORY_MB"
    elif cgroup_mb is not None:
        budget, source = int(cgroup_mb * CGROUP_SHARE), "cgroup memory.max"
    else:
        budget, source = DEFAULT_MEMORY_MB, "default"
    left = budget - others_mb(web, servers)
    if workers is None:
        workers = max(0, min(cores, MAX_WORKERS, left // (WORKER_MB + WANTED_CACHE_MB)))
    if workers == 0:
        cache = left - THREAD_MB
    else:
        cache = (left - workers * WORKER_MB) // workers
    return RenderPlan(workers, max(MIN_CACHE_MB, min(MAX_CACHE_MB, cache)), budget, source, web, servers)


def host_plan(render_workers: int | None = None, memory_mb: int | None = None, web: bool = False,
              servers: int = 0) -> RenderPlan:
    """`plan` for this host (its CPUs, its cgroup's memory limit) and these settings (the names
    of `bot.config.Settings`' fields; `web`: the web page is on; `servers`: counted in the bot)."""
    return plan(render_workers, memory_mb, cgroup_mb=cgroup_memory_mb(), web=web, servers=servers)
