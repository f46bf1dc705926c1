"""The scheduled jobs of leagues and of the world ranking: open, remind, close, week rollover.

Jobs live in the `jobs` table (`bot/store/jobs.py`): after downtime each overdue job is claimed
once and runs late, with a note saying when it was due (the same rule as turn deadlines). Every
handler is idempotent: it runs under the round's lock, re-reads the round, does its work only if
the round is still in the state the job expects, and completes the job in the transaction of its
posts, so a job claimed twice (a lease ran out, a restart) acts once.

- `league.open`: the round opens; the channel is told the stages, the close time (a Discord
  timestamp) and the SHA-256 of the round's secret seed.
- `league.remind` (24 h and 1 h before the close): drivers of the league who have not finished are
  pinged, if any, and those who turned DMs on (`/notify dm on`) are also told by DM; a driver whose
  official run of the week answers the round is not (`bot/services/league/official_runs.py`; the open and
  the reminders link such runs again first).
- `league.close`: `bot/services/league/round_close.py` (results, points, cards, standings, seed).
- `scratch.open` / `scratch.close`: the world round of an ISO week opens (its seed hash is posted
  in every league channel) and closes (the seed and the final top of the ranking are posted, and
  the next week's round is made ready).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial

from bot import games
from bot.engine.core.official import next_week
from bot.engine.core.ranking import shared_ranks
from bot.engine.core.text import msg
from bot.services.errors import ServiceError
from bot.services.images import preview_spec
from bot.services.league.round_close import close_round
from bot.services.league.round_kit import (
    KIND_CLOSE,
    KIND_OPEN,
    KIND_REMIND,
    RoundLocks,
    discord_time,
    league_post_tx,
    local,
    new_seed,
    round_of_ref,
    round_ref,
    round_title,
    specials_text,
)
from bot.services.league.table_games import TableGames, is_table_game
from bot.services.notify import reminder_dms_tx
from bot.services.work import Post, RallyWork
from bot.services.world.rounds import (
    KIND_WEEK_CLOSE,
    KIND_WEEK_OPEN,
    ensure_week_tx,
    score_text,
    scratch_command,
    week_of_ref,
    world_head,
)
from bot.store import Job
from bot.store.clock import from_text
from bot.store.connection import Tx
from bot.store.jobs import complete_tx, schedule_tx
from bot.store.leagues import (
    all_leagues_tx,
    league_tx,
    link_answers_tx,
    not_finished_members_tx,
    round_tx,
    runs_of_round_tx,
    set_round_status_tx,
    world_round_tx,
    world_top_tx,
)

log = logging.getLogger(__name__)

LATE_AFTER = timedelta(minutes=5)
WORLD_TOP = 10
TABLE_RETRY_MIN = timedelta(minutes=15)  # a table round whose threads failed: first retry after …
TABLE_RETRY_MAX = timedelta(hours=24)  # … and never more than this between two tries
#: a thread maker's refusals (written for a driver's run thread) → what the league channel reads
TABLE_REFUSALS = {"discord.thread_forbidden": "league.tables_thread_forbidden",
                  "discord.thread_channel_gone": "league.tables_channel_gone"}


class LeagueJobs:
    """Handles `league.*` and `scratch.*` jobs (routed here by `DeadlineService.run_due`)."""

    def __init__(self, work: RallyWork, locks: RoundLocks, when: Callable[[datetime], str] = discord_time,
                 seed_source: Callable[[], str] = new_seed, tables: TableGames | None = None) -> None:
        self.tables = tables or TableGames(work, when)
        self.work = work
        self.store = work.store
        self.locks = locks
        self.when = when
        self.seed_source = seed_source

    def late(self, job: Job, now: datetime) -> list[str]:
        due = from_text(job.due_at)
        return [msg("deadline.late", when=self.when(due))] if now - due > LATE_AFTER else []

    async def handle(self, job: Job, now: datetime) -> int:
        """Run one league or scratch job; 1 if it posted or changed something, 0 if stale."""
        finish = partial(complete_tx, job_id=job.id, now=now)
        if job.kind.startswith("scratch."):
            return await self._world(job, now, finish)
        round_id = round_of_ref(job.ref)
        if round_id is None:
            log.warning("ignoring league job %s with ref %s", job.id, job.ref)
            await self.store.db.write(finish)
            return 0
        async with self.locks(round_id):
            if job.kind == KIND_CLOSE:
                return await close_round(self.work, round_id, now, self.late(job, now), finish)
            if job.kind == KIND_OPEN:
                return await self._open(round_id, job, now, finish)
            if job.kind == KIND_REMIND:
                return await self._remind(round_id, job, now, finish)
        log.warning("ignoring unknown league job %s %s", job.kind, job.ref)
        await self.store.db.write(finish)
        return 0

    async def _open(self, round_id: int, job: Job, now: datetime, finish: partial) -> int:
        """The round opens; a round of a table game also seats its tables, each started in a
        thread made first (`bot/services/league/table_games.py`)."""
        lead = self.late(job, now)
        game_of_round = await self.store.db.read(lambda tx: round_tx(tx, round_id))
        table_round = game_of_round is not None and is_table_game(game_of_round.game)
        try:
            tables = await self.tables.seat_tables(round_id) if table_round else []
        except ServiceError as refused:  # no thread could be made (a missing permission, a channel gone)
            return await self._open_later(round_id, now, finish, refused)

        async def body(tx: Tx) -> int:
            await finish(tx)
            if not await set_round_status_tx(tx, round_id, ("scheduled",), "open"):
                return 0
            rnd = await round_tx(tx, round_id)
            league = await league_tx(tx, rnd.league_id) if rnd and rnd.league_id is not None else None
            if rnd is None or league is None:
                return 0
            await link_answers_tx(tx, rnd)
            if table_round:
                seats = games.get(rnd.game).rules.seats
                opened = msg("league.round_open_tables", title=round_title(rnd, league.name),
                             stages=specials_text(rnd.specials, rnd.game),
                             closes=self.when(local(rnd.closes_at, league)),
                             hash=rnd.seed_hash, min=seats.min, max=seats.max)
                post = Post(lead + [opened, *self.tables.table_lines(rnd, tables)],
                            channel_id=league.channel_id, image=preview_spec(rnd.specials[0], rnd.game))
                await league_post_tx(tx, league, post, now)  # the channel first, then each table's prompt
                await self.tables.start_tables_tx(tx, rnd, league, tables, now)
                return 1
            post = Post(lead + [msg("league.round_open", title=round_title(rnd, league.name),
                                  stages=specials_text(rnd.specials, rnd.game),
                                  closes=self.when(local(rnd.closes_at, league)),
                                  hash=rnd.seed_hash, power=msg("league.power_stage") if rnd.power_stage else "",
                                  dice=msg(f"league.dice_{rnd.dice}"))],
                        channel_id=league.channel_id, image=preview_spec(rnd.specials[0], rnd.game))
            await league_post_tx(tx, league, post, now)
            return 1

        return self._woke(await self.store.db.write(body))

    async def _open_later(self, round_id: int, now: datetime, finish: partial, refused: ServiceError) -> int:
        """A table round whose threads could not be made stays scheduled: the league channel is
        told why (the permission to give) and when the bot tries again, and the open job comes
        back then. The wait doubles with the time already lost (15 min, 30 min, 1 h … at most
        `TABLE_RETRY_MAX`), so a channel left broken gets a few notices, not one every quarter;
        past the round's close, the close job ends it with no result."""
        async def body(tx: Tx) -> int:
            await finish(tx)
            rnd = await round_tx(tx, round_id)
            league = await league_tx(tx, rnd.league_id) if rnd and rnd.league_id is not None else None
            if rnd is None or league is None or rnd.status != "scheduled":
                return 0
            lost = max(now - from_text(rnd.opens_at), timedelta(0))
            retry = now + min(max(TABLE_RETRY_MIN, lost), TABLE_RETRY_MAX)
            closes = from_text(rnd.closes_at)
            if retry < closes:
                await schedule_tx(tx, KIND_OPEN, round_ref(rnd.id, "open"), retry, guild_id=league.guild_id)
                then = msg("league.tables_retry", when=self.when(retry))
            else:
                then = msg("league.tables_gave_up", when=self.when(closes))
            told = TABLE_REFUSALS.get(refused.key)  # the table's words for a run thread's refusal
            reason = msg(told, **refused.params) if told is not None else refused.args[0]
            text = msg("league.tables_no_thread", title=round_title(rnd, league.name), reason=reason, then=then)
            await league_post_tx(tx, league, Post([text], channel_id=league.channel_id), now)
            return 1

        log.warning("round %s could not open its tables: %s", round_id, refused.key)
        return self._woke(await self.store.db.write(body))

    async def _remind(self, round_id: int, job: Job, now: datetime, finish: partial) -> int:
        lead = self.late(job, now)

        async def body(tx: Tx) -> int:
            await finish(tx)
            rnd = await round_tx(tx, round_id)
            if rnd is None or rnd.status != "open" or rnd.league_id is None or from_text(rnd.closes_at) <= now:
                return 0  # after downtime the close itself is due: no point reminding
            league = await league_tx(tx, rnd.league_id)
            await link_answers_tx(tx, rnd)
            waiting = await not_finished_members_tx(tx, rnd.league_id, rnd.id)
            if is_table_game(rnd.game):  # only who sits at a table still playing (a later member has none)
                seated = {r.user_id for r in await runs_of_round_tx(tx, rnd.id)}
                waiting = [u for u in waiting if u in seated]
            if league is None or not waiting:
                return 0
            post = Post(lead + [msg("league.reminder", title=round_title(rnd, league.name),
                                  closes=self.when(local(rnd.closes_at, league)),
                                  drivers=" ".join(f"<@{u}>" for u in waiting))],
                        ping=tuple(waiting), channel_id=league.channel_id)
            await league_post_tx(tx, league, post, now)
            await reminder_dms_tx(tx, league, waiting, [msg("notify.round_closes_dm", title=round_title(
                rnd, league.name), closes=self.when(local(rnd.closes_at, league)))], now)
            return 1

        return self._woke(await self.store.db.write(body))

    async def _world(self, job: Job, now: datetime, finish: partial) -> int:
        """A game's world week opens (announced) or closes (its top posted, the next week made
        ready): in every league channel of that game, naming the game."""
        week, game_id = week_of_ref(job.ref)
        lead = self.late(job, now)
        rnd = await self.store.db.read(lambda tx: world_round_tx(tx, week, game_id))
        if rnd is None:
            await self.store.db.write(finish)
            return 0
        if job.kind == KIND_WEEK_CLOSE:  # runs still being driven become DNF, the cards are kept
            async with self.locks(rnd.id):
                await close_round(self.work, rnd.id, now, lead, _nothing)

        async def body(tx: Tx) -> int:
            if not await finish(tx):
                return 0  # done already: its posts were made
            game = games.get(rnd.game)
            if job.kind == KIND_WEEK_OPEN:
                await set_round_status_tx(tx, rnd.id, ("scheduled",), "open")
                lines = lead + [msg("scratch.week_open", week=week, stages=specials_text(rnd.specials, rnd.game),
                                  hash=rnd.seed_hash, closes=self.when(from_text(rnd.closes_at)),
                                  game=msg(game.library.name), command=scratch_command(rnd.game))]
                lines += world_head(rnd)
            else:
                await ensure_week_tx(tx, next_week(week), now, self.seed_source, rnd.game)  # the rollover
                top = await world_top_tx(tx, week, WORLD_TOP, game.rules.result, rnd.game)
                best = top[0].score or 0 if top else 0
                lines = lead + [msg("scratch.week_closed", week=week, seed=rnd.seed, hash=rnd.seed_hash,
                                  game=msg(game.library.name))]
                lines += world_head(rnd)
                lines += [msg("scratch.top_line", rank=rank, name=r.display_name, time=score_text(game, r.score or 0),
                            gap=score_text(game, abs((r.score or 0) - best)))
                          for r, rank in zip(top, shared_ranks([r.score for r in top]))]
            for league in await all_leagues_tx(tx):  # every league channel of the game hears of its world week
                if league.game != rnd.game:
                    continue
                await league_post_tx(tx, league, Post(lines, channel_id=league.channel_id), now)
            return 1

        return self._woke(await self.store.db.write(body))

    def _woke(self, acted: int) -> int:
        if acted:
            self.work.wake()
        return acted



async def _nothing(tx: Tx) -> None:
    """The world close completes its job with its own posts, after the round is closed."""
