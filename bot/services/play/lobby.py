"""The rally lifecycle: create, join, leave, start, status, board, abandon, kick.

Every change runs through `RallyWork` (the rally's lock, a re-read inside it, one commit with
its posts), so join, leave and kick can never race start or abandon: each pair has one order,
and each reply tells what happened in that order (a driver who leaves after the start retires).
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

from bot import games
from bot.engine.core.game import is_finished
from bot.engine.core.log import Start, Status, lifecycle_text
from bot.engine.core.text import Listed, counted, msg
from bot.services.errors import ServiceError
from bot.services.images import board_spec, preview_spec, warm
from bot.services.inputs import assistance as inputs_assistance
from bot.services.inputs import course, display_name, number, rules_plus, ruleset_name, start_order_option
from bot.services.inputs import language as inputs_language
from bot.services.league.ghost_board import ghost_of, with_ghost
from bot.services.play.ai_drivers import STYLE_WORDS, is_ai, new_seats, style_option
from bot.services.play.archive import Archive
from bot.services.play.deal_keys import deal_columns
from bot.services.play.turns import reply_of, turn_post
from bot.services.play.windows import asked_together, clear_step, close, kept_answers, still_open, with_answers
from bot.services.reply import Actor, Place, Reply
from bot.services.stage_library import size_text
from bot.services.work import Change, Committed, Logged, Post, RallyWork, TxStep, game_of
from bot.store import Rally
from bot.store.connection import Tx
from bot.store.drivers import join_tx, remove_tx
from bot.store.rallies import create_tx, set_lobby_modules_tx

MIN_DEADLINE_H, MAX_DEADLINE_H = 1, 168


def is_boss(rally: Rally, actor: Actor) -> bool:
    """Host of the rally or a member with Manage Server (DESIGN §3)."""
    return actor.user_id == rally.host_id or actor.can_manage


def require_boss(rally: Rally, actor: Actor, what: str) -> None:
    if not is_boss(rally, actor):
        raise ServiceError("rally.not_host", what=what)


def require_active(rally: Rally) -> None:
    """The rally is in the lobby or running; else say what happened to it (the truth)."""
    if rally.status in ("lobby", "running"):
        return
    raise ServiceError("rally.abandoned_meanwhile" if rally.status == "abandoned" else "rally.finished_meanwhile")


def require_lobby(rally: Rally) -> None:
    """The rally has not started; else say whether it started, was abandoned or is over."""
    require_active(rally)
    if rally.status != "lobby":
        raise ServiceError("rally.already_started")


class Lobby:
    """Lifecycle commands; `seed_source` gives each new rally its dice seed."""

    def __init__(self, work: RallyWork, seed_source, dice_script: dict | None = None,
                 archive: Archive | None = None) -> None:
        self.work = work
        self.archive = archive  # finished rallies: `status` in an empty channel points to the last
        self.seed_source = seed_source
        self.dice_script = dice_script  # console/tests only: scripted faces, never from Discord

    async def create(self, place: Place, actor: Actor, stage: object = None, drivers: object = 4,
                     deadline_hours: object = 24, ruleset: str | None = None, sisu: bool = False,
                     shakedown: bool = False, ai_on_timeout: bool = True, assistance: str = "all",
                     order: str = "joined", modules: str = "", language: object = None, game: object = None,
                     preset: object = None) -> Reply:
        """Open a rally in this channel (lobby); the creator is its host. `stage` is one stage or a
        course of up to 4 separated by commas (RULES A2), with `assistance` after `all` of them,
        `none`, or the numbered ones (`1,2`). `order` is the start order of SS1 (A3): the order
        the drivers `joined` (the host's call), or `random`. `ai_on_timeout` (a rally setting, not a rule:
        bot/services/play/deadlines.py) lets the AI drive a turn whose deadline passed. `game` is the
        game's id (None: classic); an unknown one is refused naming the games, and `drivers` is
        bounded by the game's seats. `preset` is another name of `ruleset` (Road Rally USA's word).
        Without a stage, the game's default for the ruleset (`Game.library.default_stage`: Road Rally's
        course of its preset), or a refusal naming where the stages are."""
        if place.guild_id <= 0:
            raise ServiceError("discord.guild_only")
        played = games.get(None if game is None else str(game).strip())
        if ruleset is not None and preset is not None and str(ruleset).strip() != str(preset).strip():
            raise ServiceError("rally.ruleset_and_preset")
        chosen = ruleset if ruleset is not None else preset
        rules = ruleset_name(played.library.rulesets()[0] if chosen is None else chosen,
                             played.id)  # the game's own first
        if stage is None or (isinstance(stage, str) and not stage.strip()):
            stage = played.library.default_stage(rules)
            if stage is None:
                raise ServiceError("rally.need_stage", game=played.id)
        specials = course(stage, played.id)  # names from the game's library, never paths
        flags = inputs_assistance(assistance, len(specials))
        start_random = start_order_option(order)
        plus = rules_plus(modules, played.id)
        name = specials[0]
        seats = int(number("drivers", drivers, played.rules.seats.min, played.rules.seats.max, whole=True))
        hours = number("deadline_hours", deadline_hours, MIN_DEADLINE_H, MAX_DEADLINE_H)
        settings: dict = {"sisu": bool(sisu), "shakedown": bool(shakedown), **{name: True for name in plus}}
        if not ai_on_timeout:  # stored only when off, so rallies with the default stay as before
            settings["ai_on_timeout"] = False
        if self.dice_script is not None:
            settings["dice_script"] = self.dice_script
        if len(specials) > 1:
            settings["course"] = {"specials": specials, "assistance": flags}
        lang = inputs_language(language, place.lang)
        if lang != "en":  # stored only when not English, so older rallies read as before
            settings["language"] = lang
        if start_random:
            settings["random_order"] = True
        post = Post([created_text(display_name(actor.name), specials, flags, seats, hours, played.id)])
        change = Change(posts=[post])
        seed = self.seed_source()

        async def body(tx: Tx) -> tuple[Rally, Committed]:
            rally = await create_tx(tx, guild_id=place.guild_id, channel_id=place.channel_id, host_id=actor.user_id,
                                    stage=name, ruleset=rules, seed=seed, max_drivers=seats,
                                    modules=settings, turn_deadline_s=int(hours * 3600), game=played.id,
                                    **deal_columns(self.work.deal_keys()))
            return rally, await self.work.write(tx, rally, change)

        rally, committed = await self.work.store.db.write(body)
        self.work.committed(rally, change, committed)
        for special in specials:  # draw its boards' static layers now, in the background
            warm(special, lang=lang, game=played.id)
        return reply_of(post, committed)

    async def join(self, place: Place, actor: Actor) -> Reply:
        async with self.work.locked(place) as (_, rally):
            require_lobby(rally)
            count = len(await self.work.store.drivers.list(rally.id, active_only=True)) + 1
            name = display_name(actor.name)
            post = Post([msg("rally.joined", name=name, count=count, max=rally.max_drivers)])
            step = partial(join_tx, rally_id=rally.id, user_id=actor.user_id, display_name=name)
            committed = await self.work.commit(rally, Change(steps=[step], posts=[post]))
            return reply_of(post, committed)

    async def add_ai(self, place: Place, actor: Actor, count: object = 1, style: object = None) -> Reply:
        """Seat `count` AI drivers (`bot/services/play/ai_drivers.py`) of one style in the lobby (host or
        Manage Server); refused beyond the free seats, and with nothing changed."""
        async with self.work.locked(place) as (_, rally):
            require_active(rally)
            require_boss(rally, actor, msg("rally.what_add_ai"))
            require_lobby(rally)
            chosen = style_option(style)
            typed = count if count is not None and str(count).strip() != "" else 1
            wanted = int(number("count", typed, 1, games.get(rally.game).rules.seats.max, whole=True))
            drivers = await self.work.store.drivers.list(rally.id, active_only=True)
            free = rally.max_drivers - len(drivers)
            if free <= 0:
                raise ServiceError("rally.ai_full", max=rally.max_drivers)
            if wanted > free:
                raise ServiceError("rally.ai_no_seats", count=wanted, free=free, max=rally.max_drivers)
            everyone = await self.work.store.drivers.list(rally.id)
            seats = new_seats([d.user_id for d in everyone], [d.display_name for d in everyone], wanted, rally.seed)
            modules = dict(rally.modules) if isinstance(rally.modules, dict) else {}
            modules["ai"] = {**dict(modules.get("ai") or {}), **{str(seat): chosen for seat, _ in seats}}
            steps: list[TxStep] = [partial(join_tx, rally_id=rally.id, user_id=seat, display_name=name)
                                   for seat, name in seats]
            steps.append(partial(set_lobby_modules_tx, rally_id=rally.id, modules=modules))
            post = Post([counted("rally.ai_joined", wanted, names=Listed([name for _, name in seats], "both"),
                                 style=msg(STYLE_WORDS[chosen]), count=len(drivers) + wanted, max=rally.max_drivers)])
            committed = await self.work.commit(rally, Change(steps=steps, posts=[post]))
            return reply_of(post, committed)

    async def remove_ai(self, place: Place, actor: Actor, name: object = None) -> Reply:
        """Before the start, the host takes AI drivers out again: the one named, else all of them."""
        async with self.work.locked(place) as (_, rally):
            require_active(rally)
            require_boss(rally, actor, msg("rally.what_remove_ai"))
            require_lobby(rally)
            robots = [d for d in await self.work.store.drivers.list(rally.id, active_only=True) if is_ai(d.user_id)]
            if not robots:
                raise ServiceError("rally.ai_none")
            wanted = str(name or "").strip().casefold()
            if wanted:
                robots = [d for d in robots if wanted in (d.display_name.casefold(),
                                                          d.display_name.casefold().removeprefix("🤖 "))]
                if not robots:
                    names = [d.display_name for d in await self.work.store.drivers.list(rally.id, active_only=True)
                             if is_ai(d.user_id)]
                    raise ServiceError("rally.ai_unknown", names=", ".join(names))
            modules = dict(rally.modules) if isinstance(rally.modules, dict) else {}
            styles = {k: v for k, v in dict(modules.get("ai") or {}).items()
                      if k not in {str(d.user_id) for d in robots}}
            if styles:
                modules["ai"] = styles
            else:
                modules.pop("ai", None)
            steps: list[TxStep] = [partial(remove_tx, rally_id=rally.id, user_id=d.user_id, new_status="kicked",
                                           absent="store.driver_not_in") for d in robots]
            steps.append(partial(set_lobby_modules_tx, rally_id=rally.id, modules=modules))
            gone = Listed([d.display_name for d in robots], "both")
            post = Post([counted("rally.ai_removed", len(robots), names=gone)])
            committed = await self.work.commit(rally, Change(steps=steps, posts=[post]))
            return reply_of(post, committed)

    async def leave(self, place: Place, actor: Actor) -> Reply:
        async with self.work.locked(place) as (_, rally):
            return await self._remove(rally, actor, actor.user_id, display_name(actor.name), "left")

    async def kick(self, place: Place, actor: Actor, target_id: int, target_name: str = "") -> Reply:
        async with self.work.locked(place) as (_, rally):
            require_active(rally)
            require_boss(rally, actor, msg("rally.what_kick"))
            if target_id == actor.user_id:
                raise ServiceError("rally.kick_self")
            return await self._remove(rally, actor, target_id, display_name(target_name or str(target_id)), "kicked")

    async def _remove(self, rally: Rally, actor: Actor, target_id: int, name: str, how: str) -> Reply:
        """Under the lock: free the seat in the lobby, or retire the car of a running rally."""
        require_active(rally)
        absent = "store.you_are_not_in" if how == "left" else "store.driver_not_in"
        step = partial(remove_tx, rally_id=rally.id, user_id=target_id, new_status=how, absent=absent)
        if rally.status == "lobby":
            post = Post([msg("rally.left" if how == "left" else "rally.kicked", name=name)])
            committed = await self.work.commit(rally, Change(steps=[step], posts=[post]))
            return reply_of(post, committed)
        game = game_of(rally)
        state = self.work.state_of(rally)
        driver = game.narrator.seat_name(game.rules.view(state, None), str(target_id))
        if driver is None:
            raise ServiceError("rally.not_driving")
        retire = game.rules.retire_action(str(target_id))
        new, events = game.rules.apply(state, None, retire)  # the rally retires the car, whoever asked
        change = Change(logged=[Logged(game.rules.encode(retire), actor.user_id, new,
                                       "finished" if is_finished(game.rules, new) else None)], steps=[step])
        if asked_together(game, state):  # an open window: the seats left may all have answered
            new, closed = await self._settle_window(rally, game, state, new, change)
            events = list(events) + closed
        lead = [msg("rally.left_running" if how == "left" else "rally.kicked_running", name=driver)]
        # the lead says it (a game's events name their seat `driver` (classic) or `seat` (Road Rally))
        told = [e for e in events if not (e.kind == "retired" and str(target_id) in
                                          (getattr(e, "driver", None), getattr(e, "seat", None)))]
        after = turn_post(rally.id, rally.version + len(change.logged), new, told, lead, change, rally.game,
                          rally.ruleset)
        committed = await self.work.commit(rally, change)
        return reply_of(after, committed)

    async def _settle_window(self, rally: Rally, game: Any, before: Any, after: Any,
                             change: Change) -> tuple[Any, list[Any]]:
        """A retirement in an open window (`before`, the state `after` it): when every seat still
        asked has answered, the kept answers close the window in the same change
        (`bot/services/play/windows.py`); a window no longer open forgets them. The state and events."""
        kept = await kept_answers(self.work.store, rally.id)
        events: list[Any] = []
        if kept and asked_together(game, after) and not still_open(game, after, with_answers(game, after, kept)):
            closing = close(game, after, kept)
            change.logged += closing.logged
            after, events = closing.state, closing.events
        if not still_open(game, before, after):
            change.steps.append(clear_step(rally.id))
        return after, events

    async def start(self, place: Place, actor: Actor) -> Reply:
        """Seat the drivers in join order (A3: host's choice, here the order they joined) and go."""
        async with self.work.locked(place) as (_, rally):
            require_active(rally)
            require_boss(rally, actor, msg("rally.what_start"))
            require_lobby(rally)
            drivers = await self.work.store.drivers.list(rally.id, active_only=True)
            if not drivers:
                raise ServiceError("rally.no_drivers")
            if all(is_ai(d.user_id) for d in drivers):  # a rally of robots would post on its own for hours
                raise ServiceError("rally.ai_only")
            seats = [(str(d.user_id), d.display_name) for d in sorted(drivers, key=lambda d: d.seat)]
            if rally.modules.get("random_order"):  # A3 "else random": drawn from the rally's seed, logged
                random.Random(rally.seed).shuffle(seats)
            game = game_of(rally)
            # what happens before the first prompt (the weather of SS1, A20.1) comes with it
            state, events = game.rules.setup(rally.seed, seats, setup_options(rally))
            action = lifecycle_text(Start(tuple(seat for seat, _ in seats)))
            change = Change(logged=[Logged(action, actor.user_id, state, "running")])
            shown = game.rules.view(state, None)
            first = game.narrator.start_order(shown)  # a game may draw its own (Road Rally's line-up, OPEN-R3)
            names = [game.narrator.seat_name(shown, s) or s for s in first]
            lead = [msg("rally.started", title=game.narrator.title(shown), order=", ".join(names))]
            post = turn_post(rally.id, rally.version + 1, state, events, lead, change, rally.game,
                             rally.ruleset)
            committed = await self.work.commit(rally, change)
            return reply_of(post, committed)

    async def status(self, place: Place, actor: Actor) -> Reply:
        try:
            rally = await self.work.rally_here(place)
        except ServiceError as refusal:
            if self.archive is None or refusal.key != "rally.none_here":
                raise
            raise await self.archive.latest_hint(place) from None
        if rally.status == "lobby":
            drivers = await self.work.store.drivers.list(rally.id, active_only=True)
            names = ", ".join(d.display_name for d in drivers) or msg("rally.nobody")
            planned = (rally.modules.get("course") or {}).get("specials") or [rally.stage]
            return Reply([msg("rally.lobby_status", stage=", ".join(planned), names=names, count=len(drivers),
                            max=rally.max_drivers)], ephemeral=True)
        game = game_of(rally)
        return Reply(game.narrator.status(game.rules.view(self.work.state_of(rally), str(actor.user_id))),
                     ephemeral=True)

    async def board(self, place: Place, actor: Actor) -> Reply:
        """Post the board (or, in the lobby, the stage preview) in the channel; a run racing a ghost
        shows it too, with its gap."""
        rally = await self.work.rally_here(place)
        if rally.status == "lobby":
            stage = game_of(rally).library.stages.facts(rally.stage)
            post = Post([msg("rally.lobby_board", title=stage.title, size=size_text(stage))],
                        image=preview_spec(rally.stage, rally.game))
        else:
            game = game_of(rally)
            state = self.work.state_of(rally)
            board, gap = with_ghost(game, state, board_spec(state, rally.game), ghost_of(rally))  # a run's ghost
            post = Post(game.narrator.status(game.rules.view(state, None)) + gap, image=board)
        committed = await self.work.post(rally, post)
        return reply_of(post, committed)

    async def abandon(self, place: Place, actor: Actor) -> Reply:
        """The host ends the rally, whatever was played just before (it is not bound to a version)."""
        async with self.work.locked(place) as (_, rally):
            require_active(rally)
            require_boss(rally, actor, msg("rally.what_abandon"))
            post = Post([msg("rally.abandoned", name=display_name(actor.name))], close_turn=True)
            change = Change(logged=[Logged(lifecycle_text(Status("abandoned")), actor.user_id, None,
                                           "abandoned")],
                            posts=[post], end_turn_clock=True)
            committed = await self.work.commit(rally, change)
            return reply_of(post, committed)


def setup_options(rally: Rally) -> dict:
    """What a rally gives its game's `setup`: the stage, the ruleset, the modules and the key of
    its hidden deal (the same for the start and the replay of the log,
    `bot.services.play.replay.setup_options`)."""
    return {"stage": rally.stage, "ruleset": rally.ruleset, "modules": rally.modules, "secret": rally.secret}


def created_text(host: str, specials: list[str], flags: list[bool], drivers: int, hours: float,
                 game: str | None = None) -> str:
    """The lobby post of a new rally: its stage, or its course and assistance (A2.4)."""
    stages = games.get(game).library.stages
    if len(specials) == 1:
        loaded = stages.facts(specials[0])
        if not loaded.corners:  # a course without corners (Road Rally USA's road) does not count them
            return msg("rally.created_road", host=host, title=loaded.title, size=size_text(loaded),
                       drivers=drivers, hours=f"{hours:g}")
        return msg("rally.created", host=host, title=loaded.title, size=size_text(loaded),
                   corners=loaded.corners, drivers=drivers, hours=f"{hours:g}")
    if all(flags):
        after = msg("rally.assistance_all")
    elif not any(flags):
        after = msg("rally.assistance_none")
    else:
        after = msg("rally.assistance_some", numbers=Listed([msg("special.short", n=i + 1)
                                                             for i, f in enumerate(flags) if f]))
    titles = Listed([msg("special.numbered", n=i + 1, title=stages.facts(name).title)
                     for i, name in enumerate(specials)])
    return msg("rally.course_created", host=host, count=len(specials), titles=titles, assistance=after,
             drivers=drivers, hours=f"{hours:g}")
