"""Stewarding a league: penalties (seconds added to a driver's time) and disqualifications.

Each is given under the round's lock (`RoundLocks`), re-read inside it, and written to the league
log with who, when and why in the same transaction as its effect; on a closed round the results
and the standings are recomputed and posted again (`bot/services/league/round_close.py`), and they show
the penalties and disqualifications of that log.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.services.errors import ServiceError
from bot.services.inputs import display_name, number, shown
from bot.services.league.corrections import correct
from bot.services.league.leagues import LeagueService, steward_reason
from bot.services.league.round_close import judge
from bot.services.league.round_kit import RoundLocks
from bot.services.league.rounds import RoundService
from bot.services.league.work import LeagueWork
from bot.services.reply import Actor, Place, Reply
from bot.services.work import RallyWork
from bot.store.leagues import League, Round, rounds_of_league_tx

MAX_PENALTY_S = 3600
#: `/steward action:` → the log's correction
STEWARD_ACTIONS = {"withdraw": "penalty_withdraw", "change": "penalty_change", "lift-dsq": "dsq_lift"}


class StewardingService(LeagueWork):
    """`/league penalty` and `/league disqualify`: the league found and its organiser checked by
    `leagues`, the round by `rounds`."""

    def __init__(self, work: RallyWork, locks: RoundLocks, clock: Callable[[], datetime], leagues: LeagueService,
                 rounds: RoundService) -> None:
        super().__init__(work, locks, clock)
        self.leagues = leagues
        self.rounds = rounds

    async def penalty(self, place: Place, actor: Actor, driver_id: int, driver_name: str, seconds: object,
                      reason: object, round_number: object = None, league: object = None) -> Reply:
        """Add seconds to a driver's time in a round (default: the open round, else the last
        closed one); a closed round's results and the standings are recomputed at once."""
        found = await self.leagues.league_here(place, league)
        self.leagues.require_organiser(found, actor)
        amount = int(number("seconds", seconds, 1, MAX_PENALTY_S, whole=True))
        why = steward_reason(reason)
        rnd = await self._penalty_round(found, round_number)
        return await self._judge(found, rnd, actor, "penalty", driver_id, driver_name, why, amount)

    async def disqualify(self, place: Place, actor: Actor, driver_id: int, driver_name: str, round_number: object,
                         reason: object, league: object = None) -> Reply:
        found = await self.leagues.league_here(place, league)
        self.leagues.require_organiser(found, actor)
        why = steward_reason(reason)
        rnd = await self.rounds.find_round(found, round_number)
        return await self._judge(found, rnd, actor, "disqualify", driver_id, driver_name, why, None)

    async def steward(self, place: Place, actor: Actor, action: object, driver_id: int, driver_name: str,
                      round_number: object, reason: object, seconds: object = None, league: object = None) -> Reply:
        """`/steward`: withdraw or change a driver's latest penalty in a round, or lift their
        disqualification; organisers only, with a reason, shown under the round's results."""
        found = await self.leagues.league_here(place, league)
        self.leagues.require_organiser(found, actor)
        kind = STEWARD_ACTIONS.get(str(action).strip().lower() if action is not None else "")
        if kind is None:
            raise ServiceError("league.bad_steward_action", value=shown(action, 20), actions=", ".join(STEWARD_ACTIONS))
        amount = None
        if kind == "penalty_change":
            amount = int(number("seconds", seconds, 1, MAX_PENALTY_S, whole=True))
        elif seconds is not None and str(seconds).strip():
            raise ServiceError("league.seconds_only_change")
        why = steward_reason(reason)
        rnd = await self.rounds.find_round(found, round_number)
        async with self.locks(rnd.id):
            return await correct(self, found, rnd.id, actor, kind, driver_id, display_name(driver_name), why, amount)

    async def _penalty_round(self, league: League, round_number: object) -> Round:
        if round_number is not None and str(round_number).strip():
            return await self.rounds.find_round(league, round_number)
        rounds = await self.store.db.read(lambda tx: rounds_of_league_tx(tx, league.id))
        for status in ("open", "closed"):
            chosen = [r for r in rounds if r.status == status]
            if chosen:
                return max(chosen, key=lambda r: r.closes_at)
        raise ServiceError("league.no_round_to_judge", name=league.name)

    async def _judge(self, league: League, rnd: Round, actor: Actor, action: str, driver_id: int, driver_name: str,
                     reason: str, seconds: int | None) -> Reply:
        async with self.locks(rnd.id):
            return await judge(self, league, rnd.id, actor, action, driver_id, display_name(driver_name), reason,
                               seconds)
