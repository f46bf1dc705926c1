"""A league's rounds: add (dated or weekly, a stage, a course or the week's official stage), list,
find by number and cancel.

Rounds are scheduled as jobs (open, reminders 24 h and 1 h before the close, close:
`bot/services/league/jobs.py`) in the transaction that adds them, each written to the league log.
Each round gets a fresh secret seed of 256 bits; only its SHA-256 is shown until the close. A round
is cancelled under its lock (`RoundLocks`), so a run starting or the close never interleaves.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

from bot import games
from bot.engine.core.official import week_of
from bot.engine.core.text import Listed, msg
from bot.services.errors import ServiceError
from bot.services.images import preview_spec, warm
from bot.services.inputs import assistance as inputs_assistance
from bot.services.inputs import course as inputs_course
from bot.services.inputs import number, text_option
from bot.services.league.leagues import MAX_REASON, LeagueService, steward_reason
from bot.services.league.round_close import cancel_round
from bot.services.league.round_kit import (
    RoundLocks,
    discord_time,
    league_language,
    league_post_tx,
    local,
    new_seed,
    renumber_tx,
    renumbered_line,
    round_title,
    schedule_round_tx,
    seed_hash,
    specials_text,
)
from bot.services.league.timing import Shift, hour_of, is_relative, moment, shifts, stored_zone, weekday, weekly, window
from bot.services.league.work import LeagueWork
from bot.services.reply import Actor, Place, Reply
from bot.services.work import Post, RallyWork
from bot.services.world.rounds import ensure_week_tx
from bot.store.clock import from_text, to_text
from bot.store.connection import Tx
from bot.store.jobs import cancel_round_jobs_tx
from bot.store.leagues import (
    League,
    Round,
    add_round_tx,
    link_answers_tx,
    log_tx,
    members_tx,
    move_round_tx,
    round_tx,
    rounds_of_league_tx,
)


def overlap_lines(rounds: list[Round], added: list[Round]) -> list[str]:
    """A warning for each round added whose window overlaps another scheduled or open round's
    (allowed: a league may run two at once; said, so it is never by mistake)."""
    lines = []
    for new in added:
        others = [r.number for r in rounds if r.id != new.id and r.status in ("scheduled", "open")
                  and r.opens_at < new.closes_at and new.opens_at < r.closes_at]
        if others:
            lines.append(msg("league.round_overlaps", number=new.number,
                             others=Listed([str(n) for n in sorted(others)], "comma")))
    return lines


class RoundService(LeagueWork):
    """The round commands of a league's organisers (the league found and its organiser checked by
    `leagues`). `seed_source` makes each round's secret seed (tests fix it)."""

    def __init__(self, work: RallyWork, locks: RoundLocks, clock: Callable[[], datetime], leagues: LeagueService,
                 seed_source: Callable[[], str] = new_seed,
                 when: Callable[[datetime], str] = discord_time) -> None:
        super().__init__(work, locks, clock)
        self.when = when
        self.leagues = leagues
        self.seed_source = seed_source

    async def round_add(self, place: Place, actor: Actor, stage: object, opens: object = None, closes: object = None,
                        day: object = None, hour: object = None, rounds: object = 1, power_stage: bool = False,
                        assistance: object = "all", league: object = None) -> Reply:
        """Schedule a round (`opens`/`closes`), or `rounds` weekly ones (`day`, `hour` local).
        `stage`: a stage, a course of specials (commas), or `official` (the week's official stage,
        which also counts in the world scratch ranking)."""
        found = await self.leagues.league_here(place, league)
        self.leagues.require_organiser(found, actor)
        official = isinstance(stage, str) and stage.strip().lower() == "official"
        if official and not games.get(found.game).library.solo_runs:  # a world week is a game's with solo runs
            raise ServiceError("league.no_official_for_game", game=msg(games.get(found.game).library.name))
        specials = [] if official else inputs_course(stage, found.game)
        flags = inputs_assistance(assistance, max(1, len(specials)))
        if power_stage and not official and len(specials) < 2:
            pass  # a one-special round: its only special is the power stage (bonus on top of the points)
        tz = stored_zone(found.timezone)
        now = self.clock()
        shifted: list[Shift] = []  # weekly times daylight saving moves: told, never silently
        if day is not None or hour is not None:
            if day is None or hour is None or opens is not None or closes is not None:
                raise ServiceError("league.weekly_or_dates")
            count = int(number("rounds", rounds, 1, 26, whole=True))
            windows = weekly(weekday(day), hour_of(hour), tz, now, count)
            shifted = shifts(windows, hour_of(hour), tz)
        else:
            if opens is None or closes is None:
                raise ServiceError("league.weekly_or_dates")
            start, end = moment("opens", opens, tz, now), moment("closes", closes, tz, now)
            window(start, end, now, relative_close=is_relative(closes))
            windows = [(start, end)]
        added: list[Round] = []
        posted: list[str] = []

        async def body(tx: Tx) -> int:
            for start, end in windows:
                week = week_of(start) if official else None
                if official and week_of(end - timedelta(seconds=1)) != week:
                    raise ServiceError("league.official_one_week", week=week)
                world = await self._world_round_tx(tx, week, now, found.game) if week else None
                chosen = world.specials if world else specials  # the league's game's official stage
                seed = world.seed if world else self.seed_source()
                rnd = await add_round_tx(
                    tx, league_id=found.id, specials=chosen, assistance=flags if len(chosen) > 1 else [True],
                    power_stage=bool(power_stage), week=week, opens_at=start, closes_at=end, seed=seed,
                    seed_hash=seed_hash(seed), dice="personal" if week else found.dice,
                    ruleset=world.ruleset if world else found.ruleset,
                    modules=world.modules if world else found.modules, created_by=actor.user_id, now=now,
                    game=found.game)  # a league's rounds are driven in its game
                await link_answers_tx(tx, rnd)  # members who drove the week's official stage already
                await schedule_round_tx(tx, rnd, found.guild_id)
                await log_tx(tx, league_id=found.id, round_id=rnd.id, actor_id=actor.user_id, action="round_add",
                             now=now)
                added.append(rnd)
            numbers, changes = await renumber_tx(tx, found.id)
            added[:] = [replace(r, number=numbers[r.id]) for r in added]
            moved = [shift.line(added[shift.window].number, tz) for shift in shifted]
            lines = [*self._added_lines(found, added), *moved,
                     *overlap_lines(await rounds_of_league_tx(tx, found.id), added), *renumbered_line(changes)]
            post = Post(lines, channel_id=found.channel_id,
                        image=preview_spec(added[0].specials[0], found.game) if len(added) == 1 else None)
            posted[:] = lines
            return await league_post_tx(tx, found, post, now)

        row = await self.store.db.write(body)
        for special in dict.fromkeys(s for r in added for s in r.specials):  # static layers, in the background
            warm(special, lang=league_language(found), game=found.game)
        return Reply(posted, outbox=(row,))

    def _added_lines(self, league: League, added: list[Round]) -> list[str]:
        return [msg("league.round_added", league=league.name, number=r.number, stages=specials_text(r.specials, r.game),
                    opens=self.when(local(r.opens_at, league)), closes=self.when(local(r.closes_at, league)),
                    power=msg("league.power_stage") if r.power_stage else "") for r in added]

    async def _world_round_tx(self, tx: Tx, week: str, now: datetime, game: str) -> Round:
        """The week's world round of the league's game (created if needed): an official league
        round drives with its stage, seed, dice (personal), ruleset and modules, as `/scratch run`
        in that game does, so the driver's one attempt at the game's official stage of the week is
        the same attempt wherever it counts (`bot/services/league/official_runs.py`); it never counts in
        another game's world scratch."""
        return await ensure_week_tx(tx, week, now, self.seed_source, game)

    async def round_list(self, place: Place, actor: Actor, league: object = None) -> Reply:
        found = await self.leagues.league_here(place, league)
        rounds = await self.store.db.read(lambda tx: rounds_of_league_tx(tx, found.id))
        if not rounds:
            return Reply([msg("league.no_rounds", name=found.name)], ephemeral=True)
        lines = [msg("league.rounds_head", name=found.name)]
        for r in rounds:
            lines.append(msg("league.round_line", number=r.number, status=msg(f"league.status_{r.status}"),
                           stages=specials_text(r.specials, r.game), opens=self.when(local(r.opens_at, found)),
                           closes=self.when(local(r.closes_at, found)), hash=r.seed_hash[:16],
                           power=msg("league.power_stage") if r.power_stage else ""))
        return Reply(lines, ephemeral=True)

    async def find_round(self, league: League, number_: object) -> Round:
        wanted = int(number("round", number_, 1, 10_000, whole=True))
        rounds = await self.store.db.read(lambda tx: rounds_of_league_tx(tx, league.id))
        for r in rounds:
            if r.number == wanted:
                return r
        raise ServiceError("league.no_such_round", number=wanted, name=league.name)

    async def round_move(self, place: Place, actor: Actor, round_number: object, reason: object,
                         opens: object = None, closes: object = None, league: object = None) -> Reply:
        """Move a scheduled round (its open and close) or an open one (its close): its jobs follow,
        the rounds are numbered by date again, the league's drivers are told in its channel (pinged)."""
        found = await self.leagues.league_here(place, league)
        self.leagues.require_organiser(found, actor)
        why = steward_reason(reason)
        if (opens is None or not str(opens).strip()) and (closes is None or not str(closes).strip()):
            raise ServiceError("league.move_needs_time")
        rnd = await self.find_round(found, round_number)
        async with self.locks(rnd.id):
            return await self._move(found, rnd.id, actor, why, opens, closes)

    async def _move(self, league: League, round_id: int, actor: Actor, reason: str, opens: object,
                    closes: object) -> Reply:
        tz, now = stored_zone(league.timezone), self.clock()

        async def body(tx: Tx) -> list[str]:
            rnd = await round_tx(tx, round_id)
            if rnd is None or rnd.status not in ("scheduled", "open"):
                raise ServiceError("league.cannot_move", number=rnd.number if rnd else "?",
                                   status=msg(f"league.status_{rnd.status}") if rnd else "—")
            given_opens = opens is not None and str(opens).strip() != ""
            if rnd.status == "open" and given_opens:
                raise ServiceError("league.move_open_round", number=rnd.number)
            start = moment("opens", opens, tz, now) if given_opens else from_text(rnd.opens_at)
            end = moment("closes", closes, tz, now) if closes is not None and str(closes).strip() \
                else from_text(rnd.closes_at)
            window(start, end, now, relative_close=is_relative(closes))
            if (start, end) == (from_text(rnd.opens_at), from_text(rnd.closes_at)):
                raise ServiceError("league.move_same", number=rnd.number)
            if not await move_round_tx(tx, round_id, start, end):
                raise ServiceError("league.cannot_move", number=rnd.number, status="—")
            await cancel_round_jobs_tx(tx, round_id)
            moved = replace(rnd, opens_at=to_text(start), closes_at=to_text(end))
            await schedule_round_tx(tx, moved, league.guild_id)
            await log_tx(tx, league_id=league.id, round_id=round_id, actor_id=actor.user_id, action="round_move",
                         reason=reason, now=now,
                         moved=(f"{rnd.opens_at}/{rnd.closes_at}", f"{moved.opens_at}/{moved.closes_at}"))
            numbers, changes = await renumber_tx(tx, league.id)
            lines = [msg("league.round_moved", title=round_title(replace(rnd, number=numbers[rnd.id]), league.name),
                         opens=self.when(local(start, league)), closes=self.when(local(end, league)),
                         old_opens=self.when(local(rnd.opens_at, league)),
                         old_closes=self.when(local(rnd.closes_at, league)), by=f"<@{actor.user_id}>", reason=reason),
                     *renumbered_line(changes)]
            members = tuple(user for user, _ in await members_tx(tx, league.id))
            rows.append(await league_post_tx(tx, league, Post(lines, ping=members, channel_id=league.channel_id),
                                             now))
            return lines

        rows: list[int] = []
        lines = await self.store.db.write(body)
        self.work.wake()
        return Reply(lines, outbox=(rows[-1],))

    async def round_cancel(self, place: Place, actor: Actor, round_number: object, reason: object,
                           league: object = None) -> Reply:
        """Cancel a scheduled or open round: its jobs go, runs in progress end (no result)."""
        found = await self.leagues.league_here(place, league)
        self.leagues.require_organiser(found, actor)
        why = text_option("reason", reason, MAX_REASON)
        rnd = await self.find_round(found, round_number)
        async with self.locks(rnd.id):
            return await cancel_round(self, found, rnd.id, actor, why)
