"""The week's official stage of a game is one attempt per driver wherever it counts (one
world scratch per game).

A driver's official run of an ISO week in a game is their one row of `runs` with that game and
week (unique index `runs_official`), whichever command started it: `/scratch run [game]` (that
game's world round) or `/run start` in a league round on the `official` stage of a league of that
game. Two games share nothing here (the lesson of two features sharing a resource: they must agree
on its key): a driver's run in game G never answers, blocks or counts in game H's world round or
league rounds, and a league round of G is G's official run only. That run is their entry in the
game's world ranking (a query on `runs` by game and week) and it also *answers* every league round
on that week's official stage of a league of that game they are in, as long as the round had not
closed when the run started: a `run_answers` row (round, driver, run) says so, and every reader of
a round's runs (results, points, reminders, provisional positions, penalties, replays, result
cards) reads the runs driven in the round and those answering it
(`bot.store.leagues.counted_runs_tx`). The dice are those of the round the run was started in; an
official league round shares the world round's seed, dice mode (personal), ruleset and modules
(`RoundService.round_add`), so the same attempt is the same wherever it counts (DESIGN §6:
personal dice streams, unchanged).

What a driver sees, in each order of events:

(a) `/scratch run` first, the league's official round open: `/run start` in the league refuses,
    saying which result stands ("your run of World scratch 2026-W48 (2:41.0) counts for this
    round") and changes nothing; the reminders do not ping him (unless that run is still being
    driven, as for a run started in the round); the close lists his time with its points (or his
    DNF); the cards file carries his card, driven in the world round, with `counts_for` naming
    the league round: it verifies with the seed that drove it.
(b) `/run start` in the league round first, then `/scratch run`: refused, saying that his league
    run is his world scratch entry (it ranks in the world from the start).
(c) the league adds (or opens) a round on the official stage after his run, the same week: the
    run answers it at once; he is not pinged; the results include him.
(d) he joins the league after his run, the same week: the same as (c) for the league's rounds on
    that week's official stage that are not closed.
(e) a run of another week, or a round not on the official stage, or a round that had closed (or
    whose close time had passed) when the run started: not linked.
    Two leagues with the week's official round open at once: the one run answers both.

A run still being driven when a round it answers closes is not ended by that close (it belongs
to its own round): that round counts it as not finished (DNF), as it would its own unfinished run.

Links are written under the locks of the rounds they change (taken in id order, so two holders
of several never wait for each other): when a run starts (the driver's other not-closed official
league rounds of the week), when an official round is added (in its own transaction), when a
driver joins a league, and again when a round opens, reminds and closes (a net for a run and a
round committed at the same moment on PostgreSQL).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import AsyncExitStack, asynccontextmanager

from bot.engine.core.scores import format_time
from bot.engine.core.text import msg
from bot.services.errors import ServiceError
from bot.services.league.round_kit import RoundLocks, round_title
from bot.store.connection import Tx
from bot.store.leagues import Round, Run, league_tx, link_answers_tx, round_tx

NOT_CLOSED = ("scheduled", "open")


@asynccontextmanager
async def rounds_locked(locks: RoundLocks, round_ids: Iterable[int]) -> AsyncIterator[None]:
    """Hold the locks of several rounds, taken in id order."""
    async with AsyncExitStack() as stack:
        for round_id in sorted(set(round_ids)):
            await stack.enter_async_context(locks(round_id))
        yield


async def link_rounds_tx(tx: Tx, round_ids: Iterable[int]) -> None:
    """Inside `tx`, holding the rounds' locks: each round re-read, its answers linked if it is
    still not closed."""
    for round_id in round_ids:
        current = await round_tx(tx, round_id)
        if current is not None and current.status in NOT_CLOSED:
            await link_answers_tx(tx, current)


def result_text(run: Run) -> str:
    """A run's result in a sentence: its time, DNF, or still being driven."""
    if run.status == "finished" and run.time_s is not None:
        return format_time(run.time_s)
    return msg("league.dnf") if run.status == "dnf" else msg("run.still_running")


async def stands_refusal_tx(tx: Tx, official: Run, rnd: Round) -> ServiceError:
    """The refusal of a second attempt at the week's official stage in `rnd`: which run stands
    (where it was driven, its result) and that it counts in `rnd` too."""
    driven = await round_tx(tx, official.round_id)
    league = await league_tx(tx, driven.league_id) if driven is not None and driven.league_id is not None else None
    title = round_title(driven, league.name if league else None) if driven is not None else "?"
    key = "run.official_is_world_entry" if rnd.league_id is None else "run.official_counts_here"
    return ServiceError(key, title=title, result=result_text(official), week=official.week or rnd.week or "?")
