"""League commands for organisers and drivers: create, organisers, join, rounds, penalties.

A league belongs to one server (several per server, by name). Organisers are members with Manage
Server, or with the role set by `/league organisers`. Every organiser action is written to the
league log with who, when and why in the same transaction as its effect, and a closed round's
results show the penalties and disqualifications of that log. Rounds are scheduled as jobs (open,
reminders 24 h and 1 h before the close, close: `bot/services/league_jobs.py`) in the transaction
that adds them. Each round gets a fresh secret seed of 256 bits; only its SHA-256 is shown until
the close.

Rounds, runs and results change under one lock per round (`RoundLocks`): adding a penalty, a run
starting and the close never interleave, and each re-reads the round inside its lock.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from bot.engine.dice import DICE_MODES
from bot.engine.official import official_stage, week_of
from bot.engine.text import msg
from bot.services.errors import ServiceError
from bot.services.images import preview_spec, warm
from bot.services.inputs import MAX_NAME, display_name, number, rules_plus, ruleset_name, snowflake, text_option
from bot.services.inputs import assistance as inputs_assistance
from bot.services.inputs import course as inputs_course
from bot.services.inputs import language as inputs_language
from bot.services.league_points import DEFAULT_POINTS
from bot.services.league_rounds import (
    RoundLocks,
    discord_time,
    league_language,
    league_post_tx,
    new_seed,
    schedule_round_tx,
    seed_hash,
    specials_text,
)
from bot.services.league_time import hour_of, moment, stored_zone, weekday, weekly, window, zone
from bot.services.official_runs import link_rounds_tx, rounds_locked
from bot.services.reply import Actor, Place, Reply
from bot.services.round_close import cancel_round, judge
from bot.services.work import Post, RallyWork, post_tx
from bot.services.world_round import ensure_week_tx
from bot.store.clock import from_text
from bot.store.connection import Tx
from bot.store.league_names import name_key
from bot.store.leagues import (
    League,
    Round,
    add_round_tx,
    create_league_tx,
    join_league_tx,
    leagues_of_guild_tx,
    link_answers_tx,
    log_tx,
    official_rounds_of_league_tx,
    rounds_of_league_tx,
    set_organiser_role_tx,
)

MAX_LEAGUE_NAME = 40
MAX_REASON = 200
MAX_PENALTY_S = 3600
MAX_POINTS_PLACES = 30


class LeagueService:
    """The league commands. `clock` is the bot's time (the console moves it with `/clock`)."""

    def __init__(self, work: RallyWork, locks: RoundLocks, clock: Callable[[], datetime],
                 seed_source: Callable[[], str] = new_seed,
                 when: Callable[[datetime], str] = discord_time) -> None:
        self.when = when
        self.work = work
        self.store = work.store
        self.locks = locks
        self.clock = clock
        self.seed_source = seed_source

    # -- finding leagues and organisers ----------------------------------------------------------

    async def league_here(self, place: Place, name: object = None) -> League:
        """The league named (whatever the case or Unicode form it is typed in: `name_key`), else the
        one posting in this channel, else the server's only one."""
        if place.guild_id <= 0:
            raise ServiceError("discord.guild_only")
        leagues = await self.store.db.read(lambda tx: leagues_of_guild_tx(tx, place.guild_id))
        if name is not None and str(name).strip():
            wanted = text_option("league", name, MAX_LEAGUE_NAME)
            for league in leagues:
                if name_key(league.name) == name_key(wanted):
                    return league
            raise ServiceError("league.unknown", name=wanted, names=", ".join(lg.name for lg in leagues) or "—")
        if not leagues:
            raise ServiceError("league.none")
        here = [lg for lg in leagues if lg.channel_id == place.channel_id]
        if len(here) == 1:
            return here[0]
        if len(leagues) == 1:
            return leagues[0]
        raise ServiceError("league.which", names=", ".join(lg.name for lg in leagues))

    @staticmethod
    def is_organiser(league: League, actor: Actor) -> bool:
        return actor.can_manage or (league.organiser_role is not None and league.organiser_role in actor.roles)

    def require_organiser(self, league: League, actor: Actor) -> None:
        if not self.is_organiser(league, actor):
            raise ServiceError("league.not_organiser", name=league.name)

    # -- organiser commands ------------------------------------------------------------------------

    async def create(self, place: Place, actor: Actor, name: object, timezone: object, channel_id: int | None = None,
                     points: object = None, drop: object = None, ruleset: object = "classic",
                     modules: object = "", dice: object = "personal", language: object = None) -> Reply:
        """A new league of this server; its posts go to `channel_id` (default: this channel)."""
        if place.guild_id <= 0:
            raise ServiceError("discord.guild_only")
        if not actor.can_manage:
            raise ServiceError("league.create_needs_manage")
        title = text_option("name", name, MAX_LEAGUE_NAME)
        tz = zone(timezone)
        table = points_table(points)
        best = None if drop is None or str(drop).strip() == "" else int(number("drop", drop, 1, 52, whole=True))
        rules = ruleset_name(ruleset)
        plus = rules_plus(modules)
        mode = text_option("dice", dice, 20).lower()
        if mode not in DICE_MODES:
            raise ServiceError("league.bad_dice", value=mode[:20])
        lang = inputs_language(language, place.lang)
        channel = channel_id or place.channel_id
        now = self.clock()
        post = Post([msg("league.created", name=title, host=display_name(actor.name), tz=tz.key,
                       points="-".join(str(p) for p in table),
                       drop=msg("league.drop_best", n=best) if best else msg("league.drop_none"),
                       dice=msg(f"league.dice_{mode}"))],
                    channel_id=channel)

        async def body(tx: Tx) -> int:
            league = await create_league_tx(tx, guild_id=place.guild_id, name=title, channel_id=channel,
                                            timezone=tz.key, points=table, best_rounds=best, ruleset=rules,
                                            modules={name: True for name in plus}, dice=mode, language=lang,
                                            created_by=actor.user_id, now=now)
            await log_tx(tx, league_id=league.id, actor_id=actor.user_id, action="create", now=now)
            return await post_tx(tx, post, place.guild_id, channel, now, lang=lang)

        row = await self.store.db.write(body)
        return self._posted(post, row)

    async def organisers(self, place: Place, actor: Actor, role: object, league: object = None) -> Reply:
        """Set (or clear, with None) the role whose members organise the league: Manage Server only.
        `role`: the role's id, a real Discord snowflake."""
        role_id = None if role is None else snowflake("role", role)
        found = await self.league_here(place, league)
        if not actor.can_manage:
            raise ServiceError("league.create_needs_manage")
        now = self.clock()
        post = Post([msg("league.organisers_set" if role_id else "league.organisers_cleared", name=found.name,
                       role=f"<@&{role_id}>" if role_id else "")], channel_id=found.channel_id)

        async def body(tx: Tx) -> int:
            await set_organiser_role_tx(tx, found.id, role_id)
            await log_tx(tx, league_id=found.id, actor_id=actor.user_id, action="organisers", target_id=role_id,
                         now=now)
            return await league_post_tx(tx, found, post, now)

        return self._posted(post, await self.store.db.write(body))

    async def world_name(self, place: Place, actor: Actor, show: object) -> Reply:
        """Whether this server's name is shown in the world scratch ranking (a server setting)."""
        if place.guild_id <= 0:
            raise ServiceError("discord.guild_only")
        leagues = await self.store.db.read(lambda tx: leagues_of_guild_tx(tx, place.guild_id))
        if not actor.can_manage and not any(self.is_organiser(lg, actor) for lg in leagues):
            raise ServiceError("league.not_organiser_here")
        text = str(show).strip().lower() if show is not None else ""
        if text not in ("on", "off"):
            raise ServiceError("league.bad_on_off", option="world_name", value=text[:20])
        await self.store.guilds.update(place.guild_id, world_name=text == "on")
        return Reply([msg("league.world_name_" + text)], ephemeral=True)

    async def round_add(self, place: Place, actor: Actor, stage: object, opens: object = None, closes: object = None,
                        day: object = None, hour: object = None, rounds: object = 1, power_stage: bool = False,
                        assistance: object = "all", league: object = None) -> Reply:
        """Schedule a round (`opens`/`closes`), or `rounds` weekly ones (`day`, `hour` local).
        `stage`: a stage, a course of specials (commas), or `official` (the week's official stage,
        which also counts in the world scratch ranking)."""
        found = await self.league_here(place, league)
        self.require_organiser(found, actor)
        official = isinstance(stage, str) and stage.strip().lower() == "official"
        specials = [] if official else inputs_course(stage)
        flags = inputs_assistance(assistance, max(1, len(specials)))
        if power_stage and not official and len(specials) < 2:
            pass  # a one-special round: its only special is the power stage (bonus on top of the points)
        tz = stored_zone(found.timezone)
        now = self.clock()
        if day is not None or hour is not None:
            if day is None or hour is None or opens is not None or closes is not None:
                raise ServiceError("league.weekly_or_dates")
            count = int(number("rounds", rounds, 1, 26, whole=True))
            windows = weekly(weekday(day), hour_of(hour), tz, now, count)
        else:
            if opens is None or closes is None:
                raise ServiceError("league.weekly_or_dates")
            start, end = moment("opens", opens, tz, now), moment("closes", closes, tz, now)
            window(start, end, now)
            windows = [(start, end)]
        added: list[Round] = []

        async def body(tx: Tx) -> int:
            for start, end in windows:
                week = week_of(start) if official else None
                if official and week_of(end - timedelta(seconds=1)) != week:
                    raise ServiceError("league.official_one_week", week=week)
                chosen = [official_stage(week)] if week else specials
                world = await self._world_round_tx(tx, week, now) if week else None
                seed = world.seed if world else self.seed_source()
                rnd = await add_round_tx(
                    tx, league_id=found.id, specials=chosen, assistance=flags if len(chosen) > 1 else [True],
                    power_stage=bool(power_stage), week=week, opens_at=start, closes_at=end, seed=seed,
                    seed_hash=seed_hash(seed), dice="personal" if week else found.dice,
                    ruleset=world.ruleset if world else found.ruleset,
                    modules=world.modules if world else found.modules, created_by=actor.user_id, now=now)
                await link_answers_tx(tx, rnd)  # members who drove the week's official stage already
                await schedule_round_tx(tx, rnd, found.guild_id)
                await log_tx(tx, league_id=found.id, round_id=rnd.id, actor_id=actor.user_id, action="round_add",
                             now=now)
                added.append(rnd)
            lines = [msg("league.round_added", league=found.name, number=r.number, stages=specials_text(r.specials),
                       opens=self.when(from_text(r.opens_at)), closes=self.when(from_text(r.closes_at)),
                       power=msg("league.power_stage") if r.power_stage else "") for r in added]
            post = Post(lines, channel_id=found.channel_id,
                        image=preview_spec(added[0].specials[0]) if len(added) == 1 else None)
            return await league_post_tx(tx, found, post, now)

        row = await self.store.db.write(body)
        for special in dict.fromkeys(s for r in added for s in r.specials):  # static layers, in the background
            warm(special, lang=league_language(found))
        lines = [msg("league.round_added", league=found.name, number=r.number, stages=specials_text(r.specials),
                   opens=self.when(from_text(r.opens_at)), closes=self.when(from_text(r.closes_at)),
                   power=msg("league.power_stage") if r.power_stage else "") for r in added]
        return Reply(lines, outbox=(row,))

    async def _world_round_tx(self, tx: Tx, week: str, now: datetime) -> Round:
        """The week's world round (created if needed): an official league round drives with its
        seed, dice (personal), ruleset and modules, as `/scratch run` does, so the driver's one
        attempt at the week's official stage is the same attempt wherever it counts
        (`bot/services/official_runs.py`)."""
        return await ensure_week_tx(tx, week, now, self.seed_source)

    async def round_list(self, place: Place, actor: Actor, league: object = None) -> Reply:
        found = await self.league_here(place, league)
        rounds = await self.store.db.read(lambda tx: rounds_of_league_tx(tx, found.id))
        if not rounds:
            return Reply([msg("league.no_rounds", name=found.name)], ephemeral=True)
        lines = [msg("league.rounds_head", name=found.name)]
        for r in rounds:
            lines.append(msg("league.round_line", number=r.number, status=msg(f"league.status_{r.status}"),
                           stages=specials_text(r.specials), opens=self.when(from_text(r.opens_at)),
                           closes=self.when(from_text(r.closes_at)), hash=r.seed_hash[:16],
                           power=msg("league.power_stage") if r.power_stage else ""))
        return Reply(lines, ephemeral=True)

    async def find_round(self, league: League, number_: object) -> Round:
        wanted = int(number("round", number_, 1, 10_000, whole=True))
        rounds = await self.store.db.read(lambda tx: rounds_of_league_tx(tx, league.id))
        for r in rounds:
            if r.number == wanted:
                return r
        raise ServiceError("league.no_such_round", number=wanted, name=league.name)

    async def round_cancel(self, place: Place, actor: Actor, round_number: object, reason: object,
                           league: object = None) -> Reply:
        """Cancel a scheduled or open round: its jobs go, runs in progress end (no result)."""
        found = await self.league_here(place, league)
        self.require_organiser(found, actor)
        why = text_option("reason", reason, MAX_REASON)
        rnd = await self.find_round(found, round_number)
        async with self.locks(rnd.id):
            return await cancel_round(self, found, rnd.id, actor, why)

    async def penalty(self, place: Place, actor: Actor, driver_id: int, driver_name: str, seconds: object,
                      reason: object, round_number: object = None, league: object = None) -> Reply:
        """Add seconds to a driver's time in a round (default: the open round, else the last
        closed one); a closed round's results and the standings are recomputed at once."""
        found = await self.league_here(place, league)
        self.require_organiser(found, actor)
        amount = int(number("seconds", seconds, 1, MAX_PENALTY_S, whole=True))
        why = text_option("reason", reason, MAX_REASON)
        rnd = await self._penalty_round(found, round_number)
        return await self._judge(found, rnd, actor, "penalty", driver_id, driver_name, why, amount)

    async def disqualify(self, place: Place, actor: Actor, driver_id: int, driver_name: str, round_number: object,
                         reason: object, league: object = None) -> Reply:
        found = await self.league_here(place, league)
        self.require_organiser(found, actor)
        why = text_option("reason", reason, MAX_REASON)
        rnd = await self.find_round(found, round_number)
        return await self._judge(found, rnd, actor, "disqualify", driver_id, driver_name, why, None)

    async def _penalty_round(self, league: League, round_number: object) -> Round:
        if round_number is not None and str(round_number).strip():
            return await self.find_round(league, round_number)
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

    # -- driver commands -------------------------------------------------------------------------

    async def join(self, place: Place, actor: Actor, league: object = None) -> Reply:
        found = await self.league_here(place, league)
        now = self.clock()
        name = display_name(actor.name)
        post = Post([msg("league.joined", name=name, league=found.name)], channel_id=found.channel_id)

        async def body(tx: Tx) -> int:
            await join_league_tx(tx, found.id, actor.user_id, name, now)
            await link_rounds_tx(tx, [r.id for r in official])  # a run of the week's official stage counts
            return await league_post_tx(tx, found, post, now)

        official = await self.store.db.read(lambda tx: official_rounds_of_league_tx(tx, found.id))
        async with rounds_locked(self.locks, [r.id for r in official]):
            row = await self.store.db.write(body)
        return self._posted(post, row)

    def _posted(self, post: Post, row: int) -> Reply:
        self.work.wake()
        return Reply(list(post.lines), outbox=(row,))


def points_table(value: object) -> list[int]:
    """`25-18-15-…` (dashes or commas): points for 1st, 2nd, …; default F1's 25-18-15-12-10-8-6-4-2-1."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return list(DEFAULT_POINTS)
    text = text_option("points", value, MAX_NAME * 2)
    parts = [p.strip() for p in text.replace(",", "-").split("-")]
    if not 1 <= len(parts) <= MAX_POINTS_PLACES:
        raise ServiceError("league.bad_points", value=text[:MAX_NAME])
    table = []
    for part in parts:
        if not (part.isascii() and part.isdigit()) or len(part) > 4:  # `²` is a digit, not a number
            raise ServiceError("league.bad_points", value=text[:MAX_NAME])
        table.append(int(part))
    if any(b > a for a, b in zip(table, table[1:])) or table[0] == 0:
        raise ServiceError("league.points_order", value=text[:MAX_NAME])
    return table

