"""Benchmark of the spectators' site ("Speed"): a storm of page loads beside the bot.

The site as the bot runs it: the bench's process holds what the bot holds (a store on a
temporary SQLite file, the real services, the command path), and the site runs in its own child
process exactly as `RALLYBOT_WEB_PORT` starts it (`bot.web.child.WebChild`: `python -m bot web`,
read-only on the same file, at nice +10, version reads shared and reused for
`CHILD_VERSION_TTL` seconds), on a free loopback port. Built through the services first: a public
league (`/league web public`, drivers, a calendar of rounds) whose channel also holds a running
rally with a few turns played, so both pages are public.

The readers are `clients` concurrent aiohttp `ClientSession`s (one connection each, kept alive),
in a separate load process (`python -m bench.web --load …`, in a session of its own) that lowers
its own priority first (`bot.web.process.lower_priority(LOAD_NICE)`: nice +10, and its session's
autogroup on Linux): real readers are other machines, so their CPU is not charged to the bot (on
this machine's shared cores the bot's process keeps its priority over both the readers and the
site). Each reader sends GET after GET for `seconds`, full 200 responses (a reader's first load:
no `If-None-Match`), and times each request. The commands of `text_*_during` are timed from the
moment the readers start.

- `static_p50_ms`, `static_p99_ms`, `static_rps`: the storm on a static file of the same server
  (`STATIC`, the site's smallest text file near 1 KiB: its size is `static_bytes`), just before
  the page storm and, like it, beside the bot's command load (both storms meet the same bot).
- `p50_ms`, `p99_ms`, `rps`: the storm on the league page and the rally page, alternately (cached
  pages: built once per data version, then served from the page cache).
- `text_p50_ms_without`, `text_p99_ms_without`: the bot's command path (as bench/service_latency.py
  times it: a `/roll`-like command through the services, from the call to its reply, commit
  included) on `COMMAND_RALLIES` rallies, each sending the AI's next command `COMMAND_GAP_S` after
  its last reply, with no storm, `seconds` in all: half just before the page storm and half just
  after it, so a drift of the machine's other load (other programs) weighs on both figures alike;
  `text_p50_ms_during`, `text_p99_ms_during`: the same load during the page storm (the same run,
  the same store).
- Goals: `p99_ms` ≤ 3 × `static_p99_ms`, `rps` ≥ 0.5 × `static_rps`, `text_p99_ms_during` ≤ 1.5 ×
  `text_p99_ms_without`; `goals` tells which hold.

Reading the text figures: the `COMMAND_RALLIES` rallies send their commands in step, so a stall of
the bot's database thread delays ten commands at once, and with ~1,000 commands a window, ONE such
stall sets that window's p99. On a machine whose disk other programs share, the stalls seen
(40–180 ms, every few seconds, storm or not) were SQLite's WAL auto-checkpoints (their fsync) on
that thread: with `PRAGMA wal_autocheckpoint = 0` the same run showed none, and p99 19 ms during
the storm against 24 ms without it. Compare p50 too, and repeat a run before concluding.

The per-client request limit (`--rate`/`--burst` of `python -m bot web`) is lifted: every reader
here is 127.0.0.1, and the bench measures serving, not refusing. Not measured: TLS and a reverse proxy, images
(`board.png`: the render cache, bench render), the live stream.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the checkout importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from typing import Any

CLIENTS = 200
SECONDS = 20.0
STATIC = "live.js"  # 1,840 bytes; site.css is 2,176 and icon.svg 225
COMMAND_RALLIES = 10
COMMAND_GAP_S = 0.2  # a rally's next command after its reply: at most 50 commands/s in all
GUILD, LEAGUE_CHANNEL = 10, 20
DRIVERS = ((9001, "Ada"), (9002, "Seb"))
ORGANISER = (9004, "Mod")
RALLY_TURNS = 12  # commands played in the league channel's rally before the storm (its page has a log)
LOAD_NICE = 10  # the load process's priority increment (it stands for other machines)
READY = "storm"  # the load process's first line: its readers start now


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


# -- the load process -----------------------------------------------------------------------------

async def _reader(urls: list[str], until: float, offset: int, out: list[float], errors: list[int]) -> None:
    import aiohttp

    connector = aiohttp.TCPConnector(limit=1)
    async with aiohttp.ClientSession(connector=connector) as session:
        n = offset
        while time.perf_counter() < until:
            url = urls[n % len(urls)]
            n += 1
            t0 = time.perf_counter()
            try:
                async with session.get(url) as response:
                    await response.read()
                    ok = response.status == 200
            except (aiohttp.ClientError, OSError):
                ok = False
            if ok:
                out.append((time.perf_counter() - t0) * 1000)
            else:
                errors.append(1)


async def _storm(urls: list[str], clients: int, seconds: float) -> dict[str, Any]:
    latencies: list[float] = []
    errors: list[int] = []
    start = time.perf_counter()
    await asyncio.gather(*(_reader(urls, start + seconds, i, latencies, errors) for i in range(clients)))
    elapsed = time.perf_counter() - start
    return {"latencies": latencies, "errors": len(errors), "elapsed": elapsed}


def _load_main(argv: list[str]) -> None:
    """`python -m bench.web --load URL [URL …] --clients N --seconds S`: the readers; prints the
    raw figures as one JSON line (latencies in ms, errors, elapsed seconds)."""
    parser = argparse.ArgumentParser(prog="bench.web")
    parser.add_argument("--load", nargs="+", required=True)
    parser.add_argument("--clients", type=int, default=CLIENTS)
    parser.add_argument("--seconds", type=float, default=SECONDS)
    from bot.web.process import lower_priority

    lower_priority(LOAD_NICE)  # first: even its imports never outrank the bot
    args = parser.parse_args(argv)
    import aiohttp  # noqa: F401 - imported before the clock starts (a reader's first request is not the import)

    print(READY, flush=True)
    print(json.dumps(asyncio.run(_storm(args.load, args.clients, args.seconds))))


async def _run_load(urls: list[str], clients: int, seconds: float,
                    started: asyncio.Event | None = None) -> dict[str, Any]:
    """The readers in their own process, while this event loop keeps serving; `started` is set
    when they begin (the load process has started and imported what it needs)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.web", "--load", *urls, "--clients", str(clients), "--seconds", str(seconds),
        cwd=str(Path(__file__).resolve().parents[1]), stdout=asyncio.subprocess.PIPE, start_new_session=True)
    assert proc.stdout is not None
    while (line := await proc.stdout.readline()) and line.strip() != READY.encode():
        pass
    if started is not None:
        started.set()
    out, _ = await proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"bench web: the load process failed (exit {proc.returncode})")
    record: dict[str, Any] = json.loads(out.decode().strip().splitlines()[-1])
    if not record["latencies"]:
        raise RuntimeError(f"bench web: no request of {urls} answered 200 ({record['errors']} errors)")
    return record


# -- the bot side ---------------------------------------------------------------------------------

async def _site(service: Any) -> tuple[int, int]:
    """The public league and the running rally in its channel, through the services; their ids."""
    from bot.services import Actor, Place
    from bot.store.leagues import leagues_of_guild_tx

    place = Place(GUILD, LEAGUE_CHANNEL)
    organiser = Actor(*ORGANISER, can_manage=True)
    drivers = [Actor(*d) for d in DRIVERS]
    leagues = service.championships.leagues
    await leagues.create(place, organiser, "Bench Cup", "Europe/Paris", drop="1")
    for driver in drivers:
        await leagues.join(place, driver)
    await leagues.web(place, organiser, "public")
    await service.championships.rounds.round_add(place, organiser, "pinewood-sprint", day="mon", hour="20", rounds=4)
    await service.create(place, drivers[0], "ridge-and-moor", drivers=2)
    for driver in drivers:
        await service.join(place, driver)
    await service.start(place, drivers[0])
    for _ in range(RALLY_TURNS):
        await _command(service, place, drivers)
    rally = await service.store.rallies.get_active_in_channel(GUILD, LEAGUE_CHANNEL)
    leagues_here = await service.store.db.read(lambda tx: leagues_of_guild_tx(tx, GUILD))
    if rally is None or len(leagues_here) != 1:
        raise RuntimeError("bench web: the league's rally is not running")
    return leagues_here[0].id, rally.id


async def _command(service: Any, place: Any, drivers: list[Any]) -> float | None:
    """The AI's next command in the rally at `place`, through the services (a new rally when the
    last one ended, untimed); its latency in ms."""
    from bot.engine.rallyman.ai import choose_action
    from bot.engine.rallyman.protocol import GAME as RALLYMAN

    rally = await service.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
    if rally is None or rally.status != "running":
        if rally is None:
            await service.create(place, drivers[0], "ridge-and-moor", drivers=2)
            for driver in drivers:
                await service.join(place, driver)
            await service.start(place, drivers[0])
        return None
    state = service.work.state_of(rally)
    actor = next(d for d in drivers if str(d.user_id) == state.cars[state.turn.car].id)
    text = RALLYMAN.commands.label(choose_action(state))
    t0 = time.perf_counter()
    await service.act(place, actor, text)
    return (time.perf_counter() - t0) * 1000


async def _commands(service: Any, places: list[Any], seconds: float) -> list[float]:
    """`COMMAND_RALLIES` rallies sending commands for `seconds`; the latencies (ms)."""
    from bot.services import Actor

    drivers = [Actor(*d) for d in DRIVERS]
    out: list[float] = []
    until = time.perf_counter() + seconds

    async def one(place: Any) -> None:
        while time.perf_counter() < until:
            took = await _command(service, place, drivers)
            if took is not None:
                out.append(took)
            await asyncio.sleep(COMMAND_GAP_S)

    await asyncio.gather(*(one(p) for p in places))
    while batch := await service.delivery.claim():  # the posts owed, as the sender would mark them
        for row in batch:
            await service.delivery.sent(row, None)
    return out


async def _beside_commands(service: Any, places: list[Any], urls: list[str], clients: int,
                           seconds: float) -> tuple[dict[str, Any], list[float]]:
    """A storm on `urls` and, from the moment its readers start, the command load: both storms
    (static file, pages) meet the same busy bot. The storm's figures and the commands' latencies."""
    storming = asyncio.Event()
    storm = asyncio.create_task(_run_load(urls, clients, seconds, storming))
    await storming.wait()
    commands = await _commands(service, places, seconds)
    return await storm, commands


def _figures(record: dict[str, Any]) -> tuple[float, float, float]:
    lat = record["latencies"]
    return round(statistics.median(lat), 2), round(_p(lat, 0.99), 2), round(len(lat) / record["elapsed"], 1)


async def _measure(clients: int, seconds: float) -> dict[str, Any]:
    from bot.services import Actor, Place, RallyService
    from bot.store import Store
    from bot.web.child import WebChild
    from bot.web.static import static_files

    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "web.sqlite3")
        server: WebChild | None = None
        try:
            service = RallyService(store, seed_source=lambda: 8)
            league_id, rally_id = await _site(service)
            places = [Place(77, 1000 + i) for i in range(COMMAND_RALLIES)]
            drivers = [Actor(*d) for d in DRIVERS]
            for place in places:
                await _command(service, place, drivers)  # creates and starts each rally
            server = WebChild(store.path, 0, budget=(1e9, 10**9))  # as the bot starts it (RALLYBOT_WEB_PORT)
            base = (await server.start()).rstrip("/")
            pages = [f"{base}/league/{league_id}", f"{base}/rally/{rally_id}"]
            static = f"{base}/static/{STATIC}"
            for url in (*pages, static):  # one warm-up load each (the page cache), checked
                warm = await _run_load([url], 1, 0.2)
                if warm["errors"]:
                    raise RuntimeError(f"bench web: {url} did not answer 200")
            without = await _commands(service, places, seconds / 2)  # the baseline's first half …
            static_run, _ = await _beside_commands(service, places, [static], clients, seconds)
            page_run, during = await _beside_commands(service, places, pages, clients, seconds)
            without += await _commands(service, places, seconds / 2)  # … and its second, right after
        finally:
            if server is not None:
                await server.stop()
            await store.close()
    p50, p99, rps = _figures(page_run)
    s50, s99, srps = _figures(static_run)
    t99_without, t99_during = round(_p(without, 0.99), 2), round(_p(during, 0.99), 2)
    return {
        "p50_ms": p50, "p99_ms": p99, "rps": rps, "errors": page_run["errors"],
        "static_p50_ms": s50, "static_p99_ms": s99, "static_rps": srps, "static_errors": static_run["errors"],
        "static_file": STATIC, "static_bytes": len(static_files()[STATIC][0]),
        "text_p50_ms_during": round(statistics.median(during), 2), "text_p99_ms_during": t99_during,
        "text_p50_ms_without": round(statistics.median(without), 2), "text_p99_ms_without": t99_without,
        "commands_during": len(during), "commands_without": len(without),
        "clients": clients, "seconds": seconds,
        "goals": {"p99_le_3x_static_p99": p99 <= 3 * s99, "rps_ge_half_static_rps": rps >= 0.5 * srps,
                  "text_p99_during_le_1_5x_without": t99_during <= 1.5 * t99_without},
    }


def run(clients: int = CLIENTS, seconds: float = SECONDS) -> dict[str, Any]:
    """The figures of the module docstring: `clients` readers for `seconds` per storm."""
    return asyncio.run(_measure(clients, seconds))


if __name__ == "__main__":
    if "--load" in sys.argv:
        _load_main(sys.argv[1:])
    else:
        print(json.dumps(run()))
