"""The world round of an ISO week: the official stage, driven once by anyone on any server.

One row per week in `rounds` (league NULL, unique by week), created by the first caller who
needs it (the week's rollover job, a `/scratch run`, a league adding an official round), in that
caller's transaction: the unique index makes concurrent callers agree on one seed. Its dice are
always personal (the seed and the driver's id), so scouting with a second account reveals nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.engine.core.official import official_stage, week_bounds
from bot.services.league_rounds import seed_hash
from bot.store.connection import Tx
from bot.store.jobs import schedule_tx
from bot.store.leagues import Round, add_round_tx, world_round_tx

KIND_WEEK_OPEN, KIND_WEEK_CLOSE = "scratch.open", "scratch.close"
SCRATCH_KINDS = (KIND_WEEK_OPEN, KIND_WEEK_CLOSE)


def week_ref(week: str) -> str:
    return f"week:{week}"


async def ensure_week_tx(tx: Tx, week: str, now: datetime, seed_source: Callable[[], str]) -> Round:
    """Inside `tx`: the week's world round, created (open if the week has begun) with its jobs."""
    found = await world_round_tx(tx, week)
    if found is not None:
        return found
    opens, closes = week_bounds(week)
    seed = seed_source()
    _, number = week.split("-W")
    rnd = await add_round_tx(tx, league_id=None, specials=[official_stage(week)], assistance=[True],
                             power_stage=False, week=week, opens_at=opens, closes_at=closes, seed=seed,
                             seed_hash=seed_hash(seed), dice="personal", ruleset="classic", modules={},
                             created_by=None, now=now, number=int(number))
    # made after the week began (its first `/scratch run`): announced now, not as a late job
    await schedule_tx(tx, KIND_WEEK_OPEN, week_ref(week), max(opens, now))
    await schedule_tx(tx, KIND_WEEK_CLOSE, week_ref(week), closes)
    return rnd
