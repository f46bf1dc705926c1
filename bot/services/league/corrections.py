"""Stewarding corrections: a penalty withdrawn or changed, a disqualification lifted.

A correction is a row of the league log like the judgement it corrects (who, when, why), naming
that entry (`corrects`): the round's results read the log in order (`round_close.judged`), so the
judgement and its correction both show under the results, as a trail. It is made under the round's
lock, the log re-read inside the transaction: done twice, the second finds nothing left to correct
and is refused. On a closed round the results, the ratings, the cards file and the standings are
recomputed in the same transaction (`round_close.rejudged_tx`); the league's channel is told in
one line either way.
"""

from __future__ import annotations

from bot.engine.core.text import msg
from bot.services.errors import ServiceError
from bot.services.league.round_close import LeagueLike, rejudged_tx
from bot.services.league.round_kit import league_post_tx, round_title
from bot.services.reply import Actor, Reply
from bot.services.work import Post
from bot.store.connection import Tx
from bot.store.leagues import League, LogEntry, log_of_round_tx, log_tx, round_tx

#: What each correction corrects: the driver's latest judgement of these actions still in force.
CORRECTED = {"penalty_withdraw": ("penalty", "penalty_change"), "penalty_change": ("penalty", "penalty_change"),
             "dsq_lift": ("disqualify",)}
#: What each correction says in the league's channel.
DONE_LINES = {"penalty_withdraw": "league.penalty_withdrawn", "penalty_change": "league.penalty_changed",
              "dsq_lift": "league.dsq_lifted"}
#: The refusal when there is nothing in force to correct.
NOTHING_LINES = {"penalty_withdraw": "league.no_penalty_of", "penalty_change": "league.no_penalty_of",
                 "dsq_lift": "league.not_dsq"}


def in_force(log: list[LogEntry], action: str, driver_id: int) -> LogEntry | None:
    """The driver's latest entry a correction `action` would correct, unless already corrected."""
    corrected = {e.corrects for e in log if e.corrects is not None}
    wanted = CORRECTED[action]
    found = [e for e in log if e.action in wanted and e.target_id == driver_id and e.id not in corrected]
    return found[-1] if found else None


async def correct(svc: LeagueLike, league: League, round_id: int, actor: Actor, action: str, driver_id: int,
                  driver_name: str, reason: str, seconds: int | None = None) -> Reply:
    """One correction (caller holds the round's lock): refused, changing nothing, when the round
    is cancelled or the driver has nothing in force to correct (or a change to the same seconds)."""
    work, now = svc.work, svc.clock()
    by = f"<@{actor.user_id}>"

    async def body(tx: Tx) -> tuple[str, list[int]]:
        rnd = await round_tx(tx, round_id)
        if rnd is None or rnd.status == "cancelled":
            raise ServiceError("league.round_cancelled_already")
        log = await log_of_round_tx(tx, round_id)
        target = in_force(log, action, driver_id)
        if target is None:
            raise ServiceError(NOTHING_LINES[action], name=driver_name, number=rnd.number)
        if action == "penalty_change" and target.seconds == seconds:
            raise ServiceError("league.penalty_same", name=driver_name, seconds=seconds)
        await log_tx(tx, league_id=league.id, round_id=round_id, actor_id=actor.user_id, action=action,
                     target_id=driver_id, seconds=seconds, reason=reason, now=now, corrects=target.id)
        line = msg(DONE_LINES[action], name=driver_name, title=round_title(rnd, league.name), seconds=seconds,
                   old=target.seconds, reason=reason, by=by)
        ids = [await league_post_tx(tx, league, Post([line], channel_id=league.channel_id), now)]
        if rnd.status == "closed":
            ids += await rejudged_tx(tx, work, league, rnd, now)
        return line, ids

    line, ids = await work.store.db.write(body)
    work.wake()
    return Reply([line], outbox=tuple(ids))
