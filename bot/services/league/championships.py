"""`Championships`: the league side of the bot for the cogs and the console, on the shared unit of
work. It builds the league services with one set of round locks, routes the `league.*` and
`scratch.*` jobs of the scheduler to them, and registers the end hook that records a run's result
in the transaction that ends its rally.

A run starts in two steps because Discord makes its thread in between: `check_run` refuses early
what `start_run` would refuse (so no thread is made for nothing), then the cog creates the private
thread and `start_run` checks everything again under the round's lock and commits the run.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.services.errors import ServiceError
from bot.services.league.export import LeagueExport
from bot.services.league.jobs import LeagueJobs
from bot.services.league.leagues import LeagueService
from bot.services.league.round_close import results_post, standings_post
from bot.services.league.round_kit import RoundLocks, discord_time, local, new_seed
from bot.services.league.rounds import RoundService
from bot.services.league.runs import RunService, runnable
from bot.services.league.stewarding import StewardingService
from bot.services.league.table_games import TableGames
from bot.services.reply import Actor, Place, Reply
from bot.services.work import RallyWork
from bot.services.world.scratch import ScratchService
from bot.services.world.verify import verify_upload
from bot.store.clock import from_text
from bot.store.connection import Tx
from bot.store.leagues import League, Round, rounds_of_league_tx, run_of_tx


class Championships:
    """`leagues` (creating, organisers, settings, joining), `rounds` (add, list, cancel),
    `stewarding` (penalties, disqualifications), `runs`, `tables` (the table games of a round of
    a game without solo runs), `scratch`, `jobs`, `exports` (CSV, calendar); plus the run commands."""

    def __init__(self, work: RallyWork, clock: Callable[[], datetime],
                 seed_source: Callable[[], str] = new_seed, when: Callable[[datetime], str] = discord_time) -> None:
        self.work = work
        self.clock = clock
        self.locks = RoundLocks(work.store.db)
        self.leagues = LeagueService(work, self.locks, clock)
        self.rounds = RoundService(work, self.locks, clock, self.leagues, seed_source, when)
        self.stewarding = StewardingService(work, self.locks, clock, self.leagues, self.rounds)
        self.runs = RunService(work, self.locks, clock, when)
        self.tables = TableGames(work, when)  # rounds of a game without solo runs: its `threads` port is plugged in
        self.jobs = LeagueJobs(work, self.locks, when, seed_source, self.tables)
        self.scratch = ScratchService(work, self.runs, clock, seed_source)
        self.exports = LeagueExport(self.leagues)
        work.job_routes["league."] = self.jobs.handle
        work.job_routes["scratch."] = self.jobs.handle

    async def open_round(self, place: Place, league_name: object = None,
                         round_number: object = None) -> tuple[Round, League]:
        """The round a `/run` command means: the one named, else the league's only open round."""
        league = await self.leagues.league_here(place, league_name)
        if round_number is not None and str(round_number).strip():
            return await self.rounds.find_round(league, round_number), league
        rounds = await self.work.store.db.read(lambda tx: rounds_of_league_tx(tx, league.id))
        now = self.clock()
        open_now = [r for r in rounds if runnable(r, now)]
        if not open_now:
            coming = [r for r in rounds if r.status == "scheduled" and from_text(r.opens_at) > now]
            if coming:  # say when the next one opens
                nxt = min(coming, key=lambda r: r.opens_at)
                raise ServiceError("run.round_opens_later", number=nxt.number,
                                   opens=self.rounds.when(local(nxt.opens_at, league)))
            raise ServiceError("run.round_not_open")
        if len(open_now) > 1:
            raise ServiceError("run.which_round", numbers=", ".join(str(r.number) for r in open_now))
        return open_now[0], league

    async def check_run(self, place: Place, actor: Actor, league: object = None,
                        round_number: object = None, ghost: object = None) -> tuple[Round, League]:
        rnd, found = await self.open_round(place, league, round_number)
        await self.runs.check(rnd, found, actor, ghost, place.guild_id)
        return rnd, found

    async def start_run(self, place: Place, actor: Actor, rnd: Round, league: League, thread_id: int,
                        guild_name: str = "", ghost: object = None) -> Reply:
        return await self.runs.start(place, actor, rnd, league, thread_id, guild_name, ghost)

    async def replay(self, place: Place, actor: Actor, driver_id: int, league: object = None,
                     round_number: object = None, turn: object = None) -> Reply:
        found = await self.leagues.league_here(place, league)
        if round_number is not None and str(round_number).strip():
            rnd = await self.rounds.find_round(found, round_number)
        else:
            rnd = await self._latest_to_replay(found, actor, driver_id)
        return await self.runs.replay(place, actor, rnd, found, driver_id, turn)

    async def _latest_to_replay(self, league: League, actor: Actor, driver_id: int) -> Round:
        """The latest round the asker may look at: a closed one, or an open one for their own run;
        of those the latest where the driver has a run (a round opened a moment ago has none)."""
        async def read(tx: Tx) -> tuple[list[Round], Round | None]:
            rounds = await rounds_of_league_tx(tx, league.id)
            allowed = sorted((r for r in rounds if r.status == "closed" or
                              (r.status == "open" and driver_id == actor.user_id)),
                             key=lambda r: r.closes_at, reverse=True)
            for r in allowed:
                if await run_of_tx(tx, r.id, driver_id) is not None:
                    return rounds, r
            return rounds, None

        rounds, rnd = await self.work.store.db.read(read)
        if rnd is not None:
            return rnd
        if driver_id != actor.user_id and not any(r.status == "closed" for r in rounds) and \
                any(r.status == "open" for r in rounds):
            raise ServiceError("run.replay_after_close")  # only an open round: theirs to see after its close
        raise ServiceError("run.no_run")

    async def standings(self, place: Place, actor: Actor, league: object = None) -> Reply:
        found = await self.leagues.league_here(place, league)
        return await standings_post(self.work, found, self.clock())

    async def results(self, place: Place, actor: Actor, round_number: object, league: object = None) -> Reply:
        """Post a closed round's results again, with its image and its cards file."""
        found = await self.leagues.league_here(place, league)
        rnd = await self.rounds.find_round(found, round_number)
        return await results_post(self.work, found, rnd, self.clock())

    async def verify(self, data: bytes) -> list[str]:
        """`/verify`: the report on uploaded cards, anchored to the seed hashes this bot published."""
        return list((await verify_upload(self.work.store, data)).lines)
