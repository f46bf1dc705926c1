"""Leagues and their members: create a league, set its organisers, the server's world-ranking
setting, join; and how a command finds its league and checks its organiser (`league_here`,
`require_organiser`, which the round and stewarding services use too).

A league belongs to one server (several per server, by name). Organisers are members with Manage
Server, or with the role set by `/league organisers role:`, or those the league names (its creator
first; an organiser names another with `add:` and hands the league on with `add:` and `remove:`
together; never none, never a bot). Every organiser action is written to the
league log with who, when and why in the same transaction as its effect. Rounds are added, listed
and cancelled by `bot/services/league/rounds.py`; penalties and disqualifications are given by
`bot/services/league/stewarding.py`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot import games
from bot.engine.core.dice import DICE_MODES
from bot.engine.core.text import msg
from bot.services.errors import RolesNeeded, ServiceError
from bot.services.inputs import MAX_NAME, display_name, number, rules_plus, ruleset_name, snowflake, text_option
from bot.services.inputs import language as inputs_language
from bot.services.league.official_runs import link_rounds_tx, rounds_locked
from bot.services.league.points import DEFAULT_POINTS
from bot.services.league.round_kit import league_post_tx
from bot.services.league.timing import zone
from bot.services.league.work import LeagueWork
from bot.services.reply import Actor, Place, Reply
from bot.services.work import Post, post_tx
from bot.store.connection import Tx
from bot.store.league_names import name_key
from bot.store.leagues import (
    League,
    create_league_tx,
    join_league_tx,
    league_tx,
    leagues_of_guild_tx,
    leave_league_tx,
    log_tx,
    official_rounds_of_league_tx,
    set_organiser_role_tx,
    set_organisers_tx,
)
from bot.store.web import set_league_web_tx

MAX_LEAGUE_NAME = 40
MAX_REASON = 200
MAX_POINTS_PLACES = 30


MAX_GAME_ID = 40  # a game's id as typed (ids are short words)
WEB_CHOICES = ("public", "private")  # `/league web`


_MARKDOWN = re.compile(r"([\\*_`~|\[\]])")


def steward_reason(value: object) -> str:
    """A steward's reason as posts show it: `text_option`'s checks (length, hidden characters,
    mentions made harmless) and Discord's markdown characters escaped, so it reads as typed."""
    return _MARKDOWN.sub(r"\\\1", text_option("reason", value, MAX_REASON))


@dataclass(frozen=True)
class Member:
    """A server member a command names (a `user:` option): their id, their name, and whether
    Discord says the account is a bot's."""

    user_id: int
    name: str
    bot: bool = False


class LeagueService(LeagueWork):
    """The commands on a league itself and its members."""

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
        """Manage Server, named by the league, or holding its organiser role. Raises `RolesNeeded`
        when only that role can decide and the actor's roles are not known (`Actor.roles` None)."""
        if actor.can_manage or actor.user_id in league.organisers:
            return True
        if league.organiser_role is None:
            return False
        if actor.roles is None:
            raise RolesNeeded()
        return league.organiser_role in actor.roles

    def require_organiser(self, league: League, actor: Actor) -> None:
        if not self.is_organiser(league, actor):
            raise ServiceError("league.not_organiser", name=league.name)

    # -- organiser commands ------------------------------------------------------------------------

    async def create(self, place: Place, actor: Actor, name: object, timezone: object, channel_id: int | None = None,
                     points: object = None, drop: object = None, ruleset: object = None,
                     modules: object = "", dice: object = "personal", language: object = None,
                     game: object = None) -> Reply:
        """A new league of this server; its posts go to `channel_id` (default: this channel). It
        plays one `game` (its id; None: classic), whose rulesets, modules and stages it takes."""
        if place.guild_id <= 0:
            raise ServiceError("discord.guild_only")
        if not actor.can_manage:
            raise ServiceError("league.create_needs_manage")
        title = text_option("name", name, MAX_LEAGUE_NAME)
        tz = zone(timezone)
        table = points_table(points)
        best = None if drop is None or str(drop).strip() == "" else int(number("drop", drop, 1, 52, whole=True))
        played = games.get(None if game is None else text_option("game", game, MAX_GAME_ID))
        rules = ruleset_name(played.library.rulesets()[0] if ruleset is None else ruleset,
                             played.id)  # the game's own first
        plus = rules_plus(modules, played.id)
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
                                            created_by=actor.user_id, now=now, game=played.id)
            await log_tx(tx, league_id=league.id, actor_id=actor.user_id, action="create", now=now)
            return await post_tx(tx, post, place.guild_id, channel, now, lang=lang)

        row = await self.store.db.write(body)
        return self._posted(post, row)

    async def organisers(self, place: Place, actor: Actor, role: object, league: object = None,
                         add: Member | None = None, remove: Member | None = None) -> Reply:
        """Set (or clear, with None) the role whose members organise the league: Manage Server only.
        `role`: the role's id, a real Discord snowflake. With `add` or `remove` (or both: a
        handover), the members the league names as organisers change instead (`_name`)."""
        if add is not None or remove is not None:
            if role is not None:
                raise ServiceError("league.organisers_one_change")
            return await self._name(await self.league_here(place, league), actor, add, remove)
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

    async def _name(self, found: League, actor: Actor, add: Member | None, remove: Member | None) -> Reply:
        """An organiser names another member an organiser (`add`), takes one off the list
        (`remove`), or both at once: the league handed on in one step. Refused, with nothing
        changed: a non-organiser, a bot, the same member twice, naming one already named or
        removing one not named, and leaving the league with nobody named. Checked on the league as
        it is in the writing transaction (two organisers removing each other cannot both win);
        logged, and told in the league's channel."""
        self.require_organiser(found, actor)
        if add is not None and (add.bot or add.user_id <= 0):
            raise ServiceError("league.organiser_bot", name=display_name(add.name))
        if add is not None and remove is not None and add.user_id == remove.user_id:
            raise ServiceError("league.organiser_same", name=display_name(add.name))
        now = self.clock()
        by = f"<@{actor.user_id}>"
        lines = []
        if add is not None:
            lines.append(msg("league.organiser_added", name=display_name(add.name), league=found.name, by=by))
        if remove is not None:
            lines.append(msg("league.organiser_removed", name=display_name(remove.name), league=found.name, by=by))
        post = Post(lines, channel_id=found.channel_id)

        async def body(tx: Tx) -> int:
            league = await league_tx(tx, found.id)
            assert league is not None  # a league is never deleted
            named = list(league.organisers)
            if add is not None:
                if add.user_id in named:
                    raise ServiceError("league.already_organiser", name=display_name(add.name), league=league.name)
                named.append(add.user_id)
            if remove is not None:
                if remove.user_id not in named:
                    raise ServiceError("league.not_named_organiser", name=display_name(remove.name),
                                       league=league.name)
                named.remove(remove.user_id)
            if not named:
                raise ServiceError("league.last_organiser", name=display_name(remove.name if remove else "?"),
                                   league=league.name)
            await set_organisers_tx(tx, league.id, named)
            for who, action in ((add, "organiser_add"), (remove, "organiser_remove")):
                if who is not None:
                    await log_tx(tx, league_id=league.id, actor_id=actor.user_id, action=action,
                                 target_id=who.user_id, now=now)
            return await league_post_tx(tx, league, post, now)

        return self._posted(post, await self.store.db.write(body))

    async def world_name(self, place: Place, actor: Actor, show: object) -> Reply:
        """Whether this server's name is shown in the world scratch ranking (a server setting)."""
        if place.guild_id <= 0:
            raise ServiceError("discord.guild_only")
        leagues = await self.store.db.read(lambda tx: leagues_of_guild_tx(tx, place.guild_id))
        named = actor.can_manage or any(actor.user_id in lg.organisers for lg in leagues)  # no roles needed
        if not named and not any(self.is_organiser(lg, actor) for lg in leagues):
            raise ServiceError("league.not_organiser_here")
        text = str(show).strip().lower() if show is not None else ""
        if text not in ("on", "off"):
            raise ServiceError("league.bad_on_off", option="world_name", value=text[:20])
        await self.store.guilds.update(place.guild_id, world_name=text == "on")
        return Reply([msg("league.world_name_" + text)], ephemeral=True)

    async def web(self, place: Place, actor: Actor, choice: object, league: object = None) -> Reply:
        """`/league web public|private`: show the league, its rounds and its rallies on the
        spectators' web page (bot/web/), or hide them again (every league starts private).
        Organisers only; logged with who and when, and said in the league's channel."""
        text = str(choice).strip().lower()[:20] if choice is not None else ""
        if text not in WEB_CHOICES:
            raise ServiceError("league.bad_web", value=text)
        found = await self.league_here(place, league)
        self.require_organiser(found, actor)
        now = self.clock()
        public = text == "public"
        post = Post([msg("league.web_public" if public else "league.web_private", name=found.name)],
                    channel_id=found.channel_id)

        async def body(tx: Tx) -> int:
            await set_league_web_tx(tx, found.id, public)
            await log_tx(tx, league_id=found.id, actor_id=actor.user_id, action="web_" + text, now=now)
            return await league_post_tx(tx, found, post, now)

        return self._posted(post, await self.store.db.write(body))

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

    async def leave(self, place: Place, actor: Actor, league: object = None) -> Reply:
        """`/league leave`: out of the league's members (no more rounds, reminders or standings to
        come); the results of the rounds driven stay, in the standings too."""
        found = await self.league_here(place, league)
        name = display_name(actor.name)
        post = Post([msg("league.left", name=name, league=found.name)], channel_id=found.channel_id)
        return await self._remove(found, actor, actor.user_id, name, "leave", "", post)

    async def kick(self, place: Place, actor: Actor, driver_id: int, driver_name: str, reason: object,
                   league: object = None) -> Reply:
        """`/steward kick`: an organiser takes a driver out of the league, with a reason; their past
        results stay. They may join again (a server's ban is Discord's business)."""
        found = await self.league_here(place, league)
        self.require_organiser(found, actor)
        why = steward_reason(reason)
        name = display_name(driver_name)
        post = Post([msg("league.kicked", name=name, league=found.name, by=f"<@{actor.user_id}>", reason=why)],
                    channel_id=found.channel_id)
        return await self._remove(found, actor, driver_id, name, "kick", why, post)

    async def _remove(self, league: League, actor: Actor, user_id: int, name: str, action: str, reason: str,
                      post: Post) -> Reply:
        now = self.clock()

        async def body(tx: Tx) -> int:
            if not await leave_league_tx(tx, league.id, user_id):
                raise ServiceError("league.not_member_of", name=name, league=league.name)
            await log_tx(tx, league_id=league.id, actor_id=actor.user_id, action=action, target_id=user_id,
                         reason=reason, now=now)
            return await league_post_tx(tx, league, post, now)

        return self._posted(post, await self.store.db.write(body))

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

