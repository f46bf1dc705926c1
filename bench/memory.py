"""Memory benchmark: the whole bot at RALLIES rallies over three games and STAGES stages.

One bot process, as the bot holds it: a temporary SQLite store, the real services, the render
worker pool (`images.start_pool`, sized as the bot sizes it: `RALLYBOT_RENDER_WORKERS` /
`RALLYBOT_MEMORY_MB`, see `bot.services.render_plan`) with a temporary disk cache folder, and the
spectators' web page. Built through the services, in this order:

- with `servers` (`--servers N`, default 0): the bot knowing N servers first, as `bench gateway`
  builds it (the real `RallyBot`'s discord.py state: READY, and a GUILD_CREATE of a typical
  server's shape each only for a bot with the `guilds` intent, which this bot does not ask for),
  counted in the bot's RSS (`servers_mb`: what it added);

- careers and leagues: a public league with a closed round of LEAGUE_RUNS finished runs, rated at its
  close (the ratings, `bench league`'s `_close`: one genuine run driven by the AI, copied);
- RALLIES rallies spread over the three games and STAGES stages: stage j (j = i mod STAGES) is
  classic's `gen-j` (j mod 3 = 0), DIRT's `gen-j` (1) or Road Rally USA's `std-j` (2); each created,
  joined by two drivers (three in a game of three at least) and started, its first board (the
  post its start owes) drawn through `draw_async` while the next rallies start, a few at a time,
  as the outbox sender does (in the workers; in
  the bot's render thread with 0 workers);
  the first PUBLISHED rallies' channels are published (`/rally web public`);
- the web page as the bot serves it, in its child process (`bot/web/child.py` `WebChild`, counted
  in `web_rss_mb` and in the total; its pictures drawn by the bot's render workers) read by
  CLIENTS concurrent readers for SECONDS (a load process, as `bench web`): the published rallies'
  pages and boards, the league, its closed round, the stages' pages and previews.

Printed (one JSON line), resident set sizes (VmRSS) in MB:
- baseline_mb: this process after its imports (the bot's: discord.py and every cog, bot/client.py
  `EXTENSIONS`) and the worker pool's start, before any rally;
- rss_mb: this process at the end; peak_mb its peak (VmHWM);
- workers_rss_mb: each render worker at the end; web_rss_mb: the web child;
- total_rss_mb: the peak of the sum bot + every worker + web child, sampled every SAMPLE_S while
  the bench runs (goal ≤ 300), and peak_parts_mb: each one's RSS at that moment; total_end_mb:
  that sum at the end; total_hwm_mb: the sum of each
  one's own peak (VmHWM: an upper bound, the peaks need not coincide);
- total_pss_mb: the peak of the proportional set sizes of the bot and all its descendants (the
  workers' fork server and multiprocessing's resource tracker too, whose RSS at the end, mostly
  pages the workers share with the fork server, is helpers_rss_mb): the memory the whole really
  takes, shared pages counted once;
- render: the plan used, as the bot makes it on this host with its web page on and its servers
  counted (`RALLYBOT_RENDER_WORKERS`, `RALLYBOT_MEMORY_MB`, `--servers` else `RALLYBOT_SERVERS`;
  workers, cache MB each, budget MB, web, servers); least_budget_mb: the smallest
  `RALLYBOT_MEMORY_MB` that plan starts with (`bot.sizing.minimum_mb`);
- render_total_over_encode, render_cold_ms: `bench render`'s warm total/encode and cold first
  board, measured in the same run right after (a separate process, so its own memory is not
  counted; `render=False` skips it);
- seconds, rallies, stages, boards, games (rallies by game), pages (web answers 200), web_errors,
  web_refused (the addresses that did not answer 200 on a first load: none expected).
The defaults take a few minutes on a 2-core machine; `run(rallies=…, stages=…, clients=…)` for others.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.cache_env import own_cache_env

RALLIES = 1000
STAGES = 50
CLIENTS = 50
SECONDS = 10.0
LEAGUE_RUNS = 200
PUBLISHED = 50  # rallies whose channel is published on the web page
SAMPLE_S = 0.25
DRIVERS = ((9001, "Ada"), (9002, "Seb"), (9003, "Kim"))  # the first seats.min (at least 2) of them join
ORGANISER = (9004, "Mod")
GAMES = ("rallyman", "dirt", "roadrally")
ROOT = Path(__file__).resolve().parents[1]


def rss_mb(pid: int | str = "self", field: str = "VmRSS") -> float:
    """A process's resident set size (or `field`, e.g. VmHWM) in MB, from /proc; 0 without /proc."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0


def pss_mb(pid: int | str = "self") -> float:
    """A process's proportional set size in MB (its shared pages divided among their sharers)."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0


def descendants() -> list[int]:
    """This process's children, theirs, and so on (the render workers' fork server, the workers, a
    web child), without the bench's own load process (`bench.web --load`: the readers)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if b"bench.web" not in cmdline:
                parents.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry.name))
    out, todo = [], [os.getpid()]
    while todo:
        for child in parents.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def stage_of(j: int) -> tuple[str, str]:
    """Stage j of the bench: (game, stage name)."""
    game = GAMES[j % len(GAMES)]
    return game, (f"std-{j}" if game == "roadrally" else f"gen-{j}")


class Sampler:
    """The peaks of bot + workers (+ web child) RSS, and of every process's PSS (the bot and all its
    descendants: the workers' fork server too), sampled in a thread while the bench runs."""

    def __init__(self, extra: list[int]) -> None:
        import threading

        self.extra = extra
        self.peak = 0.0
        self.peak_parts: dict[str, Any] = {}
        self.peak_pss = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def parts(self) -> dict[str, Any]:
        """Each process's RSS now: the bot, its render workers, the web child (when sampled)."""
        from bot.services import images

        return {"bot": rss_mb(), "workers": [rss_mb(p) for p in images.worker_pids()],
                "web": [rss_mb(p) for p in self.extra]}

    def sample(self) -> None:
        parts = self.parts()
        total = round(parts["bot"] + sum(parts["workers"]) + sum(parts["web"]), 1)
        if total > self.peak:
            self.peak, self.peak_parts = total, parts
        self.peak_pss = max(self.peak_pss, round(pss_mb() + sum(pss_mb(p) for p in descendants()), 1))

    def _loop(self) -> None:
        while not self._stop.is_set():
            self.sample()
            self._stop.wait(SAMPLE_S)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()


async def _league(service: Any, store: Any, clock: Any, runs: int) -> dict[str, int]:
    """A league with a closed round of `LEAGUE_RUNS` rated runs (bench league's close)."""
    from bench import league
    from bot.services import Place
    from bot.services.play.deadlines import DeadlineService

    deadlines = DeadlineService(service.work, clock=clock)
    close = await league._close(store, service, deadlines, clock, runs, seed=11)
    await service.championships.leagues.web(Place(league.GUILD, league.CHANNEL), league.ORGANISER, "public")
    row = await store.db.fetch_one("SELECT league_id FROM rounds WHERE id = ?", (close["round_id"],))
    assert row is not None
    return {"league": int(row[0]), "round": int(close["round_id"]), "rated": int(close["rated"])}


async def _rallies(service: Any, store: Any, rallies: int, stages: int,
                   draw: Any) -> tuple[int, list[int], Counter]:
    """The rallies, started, each first board drawn as the outbox sender would (`draw(spec)`, a few
    at a time, while the next rallies start); boards drawn, the published rallies' ids, rallies by game."""
    from bot import games
    from bot.services import Actor, Place

    actors = [Actor(uid, name) for uid, name in DRIVERS]
    organiser = Actor(*ORGANISER, can_manage=True)
    published: list[int] = []
    by_game: Counter = Counter()
    drawing: set[asyncio.Task] = set()
    boards = 0
    for i in range(rallies):
        game, stage = stage_of(i % stages)
        place = Place(77, 10_000 + i)
        if i < PUBLISHED:
            await service.channel_web.set(place, organiser, "public")
        seats = max(2, games.get(game).rules.seats.min)
        await service.create(place, actors[0], stage, drivers=seats, game=game)
        for actor in actors[:seats]:
            await service.join(place, actor)
        reply = await service.start(place, actors[0])
        by_game[game] += 1
        row = await store.outbox.get(reply.outbox[-1]) if reply.outbox else None
        if row is not None and row.body.get("image"):
            task = asyncio.create_task(draw(row.body["image"]))
            drawing.add(task)
            task.add_done_callback(drawing.discard)
            boards += 1
        if i < PUBLISHED:
            rally = await store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
            if rally is not None:
                published.append(rally.id)
    await asyncio.gather(*drawing)
    return boards, published, by_game


async def _web(store: Any, renderer: Any, urls_of: Any, clients: int, seconds: float,
               sampler: Sampler) -> dict[str, Any]:
    """The web page as the bot serves it (`RALLYBOT_WEB_PORT`, bot/client.py `start_web`): its child
    process (bot/web/child.py, counted in `web_rss_mb` and the total), its pictures drawn by the
    bot's render workers (the drawing link, bot/web/draw_link.py), read by `clients` readers for
    `seconds` (bench web's load). The per-reader request limit is lifted: every reader here is 127.0.0.1."""
    from functools import partial

    import aiohttp

    from bench import web as web_bench
    from bot.services.images import draw_async
    from bot.web.child import WebChild

    server = WebChild(store.path, 0, budget=(1e9, 10**9), draw=partial(draw_async, renderer))
    web_mb = 0.0
    try:
        base = (await server.start()).rstrip("/")
        if server.pid is not None:  # its memory is the bot's too: sampled with the bot and the workers
            sampler.extra.append(server.pid)
        urls = urls_of(base)
        refused = []
        async with aiohttp.ClientSession() as session:  # each address once: those not answering 200 are named
            for url in urls:
                async with session.get(url) as response:
                    await response.read()
                    if response.status != 200:
                        refused.append(f"{url.removeprefix(base)} {response.status}")
        record = await web_bench._run_load(urls, clients, seconds)
        if server.pid is not None:
            web_mb = rss_mb(server.pid, "VmHWM")  # the child's own peak
            sampler.sample()
            sampler.extra.remove(server.pid)
    finally:
        await server.stop()
    return {"pages": len(record["latencies"]), "web_errors": record["errors"], "web_refused": refused,
            "web_rss_mb": web_mb, "web": "child process"}


async def _servers(servers: int, folder: Path) -> tuple[Any, float]:
    """The bot knowing `servers` servers (`bench gateway`'s shard: READY, and what the bot's
    intents add: none) in this process, and the MB it added; (None, 0) for none."""
    if not servers:
        return None, 0.0
    from bench.gateway import bind, connect, shard_bot

    before = rss_mb()
    bot = shard_bot(folder / "gateway.sqlite3")  # never opened: the rallies' store is the bench's own
    await bind(bot)
    await connect(bot, servers)
    return bot, round(rss_mb() - before, 1)


async def _measure(rallies: int, stages: int, clients: int, seconds: float, league_runs: int,
                   servers: int = 0) -> dict[str, Any]:
    import importlib

    from bench.league import START, Clock
    from bot.client import EXTENSIONS
    from bot.services import RallyService, images
    from bot.services.images import default_renderer, draw_async
    from bot.store import Store

    for name in EXTENSIONS:  # the bot process as it runs: discord.py and every cog imported
        importlib.import_module(name)
    from bot import sizing
    from bot.config import render_from

    renderer = default_renderer()
    # the plan the bot makes on this host with its web page on (its process is in the budget)
    # and the servers it holds (`--servers`, else RALLYBOT_SERVERS) counted in the bot's share
    settings = render_from(os.environ)
    plan = sizing.host_plan(**{**settings, "servers": servers or settings["servers"]}, web=clients > 0)
    images.configure(plan)
    if plan.workers and await asyncio.to_thread(images.start_pool) is None:
        raise RuntimeError("the render workers could not start")
    baseline = rss_mb()
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp, Sampler([]) as sampler:
        gateway, servers_mb = await _servers(servers, Path(tmp))
        store = await Store.open(Path(tmp) / "memory.sqlite3")
        try:
            clock = Clock(START)
            service = RallyService(store, seed_source=lambda: 8, clock=clock)
            league = await _league(service, store, clock, league_runs)
            clock.now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
            sem = asyncio.Semaphore(4 * max(1, plan.workers))  # the sender's pace: a few posts at a time

            async def one(spec: dict) -> None:
                async with sem:
                    await draw_async(renderer, spec)

            boards, published, by_game = await _rallies(service, store, rallies, stages, one)

            def urls(base: str) -> list[str]:
                out = [f"{base}/league/{league['league']}", f"{base}/round/{league['round']}"]
                for rally_id in published:
                    out += [f"{base}/rally/{rally_id}", f"{base}/rally/{rally_id}/board.png"]
                for j in range(min(stages, 12)):
                    game, stage = stage_of(j)
                    out += [f"{base}/stage/{game}/{stage}", f"{base}/stage/{game}/{stage}/preview.png"]
                return out

            web = (await _web(store, renderer, urls, clients, seconds, sampler) if clients
                   else {"pages": 0, "web_errors": 0, "web_refused": [], "web_rss_mb": 0.0, "web": "off"})
            workers = sorted(rss_mb(pid) for pid in images.worker_pids())
            end = round(rss_mb() + sum(workers), 1)
            others = [p for p in descendants() if p not in images.worker_pids()]
            helpers = round(sum(rss_mb(p) for p in others), 1)
            hwm = round(rss_mb(field="VmHWM") + sum(rss_mb(p, "VmHWM") for p in images.worker_pids()), 1)
        finally:
            await store.close()
            if gateway is not None:
                await gateway.close()
    return {"bench": "memory", "servers": servers, "servers_mb": servers_mb,
            "total_rss_mb": sampler.peak, "total_end_mb": end, "rss_mb": rss_mb(),
            "baseline_mb": baseline, "peak_mb": rss_mb(field="VmHWM"), "workers_rss_mb": workers,
            "total_hwm_mb": hwm, "peak_parts_mb": sampler.peak_parts, "total_pss_mb": sampler.peak_pss,
            "helpers_rss_mb": helpers,
            "render": {"workers": plan.workers, "cache_mb": plan.cache_mb, "budget_mb": plan.budget_mb,
                       "web": plan.web, "servers": plan.servers},
            "least_budget_mb": sizing.minimum_mb(plan.workers, plan.web, plan.servers),
            "rallies": rallies, "stages": stages, "boards": boards, "games": dict(by_game),
            "league_runs": league["rated"], "clients": clients, **web,
            "seconds": round(time.perf_counter() - t0, 1)}


def render_figures() -> dict[str, Any]:
    """`bench render`'s warm total/encode and cold first board, run now in its own process."""
    out = subprocess.run([sys.executable, "-m", "bot", "bench", "render"], cwd=ROOT, capture_output=True,
                         text=True, check=False)
    lines = out.stdout.strip().splitlines()
    if out.returncode != 0 or not lines:
        return {"render_error": (out.stderr.strip().splitlines() or ["no output"])[-1]}
    record = json.loads(lines[-1])
    return {"render_total_over_encode": record.get("total_over_encode"), "render_cold_ms": record.get("cold_ms")}


def run(rallies: int = RALLIES, stages: int = STAGES, clients: int = CLIENTS, seconds: float = SECONDS,
        render: bool = True, league_runs: int = LEAGUE_RUNS, servers: int = 0) -> dict:
    # the workers' disk cache: empty, and never the bot's own
    with tempfile.TemporaryDirectory() as folder, own_cache_env(folder):
        from bot.services import images

        try:
            record = asyncio.run(_measure(rallies, stages, clients, seconds, league_runs, servers))
        finally:
            images.shutdown_pool()
            images.configure(None)
    if render:
        record.update(render_figures())
    return record


if __name__ == "__main__":
    print(json.dumps(run()))
