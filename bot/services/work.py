"""The one command path every service shares: lock, re-read, decide, commit once, tell the sender.

    async with work.locked(place) as rally:   # the channel's rally, re-read under its lock
        ...                                   # decide: raise ServiceError (nothing written) or
        await work.commit(rally, change)      # action(s) + snapshot + version + jobs + outbox, ONE tx

Everything that changes a rally (lobby and turns alike, a command or a scheduled job) runs under
that rally's lock and re-reads the rally inside it, so every pair of commands has exactly one
order and each reply describes what really happened. A `Change` is everything one command does:
the logged actions with the state after them, roster changes, the deadline jobs it ends, the
missed-turn bookkeeping, and the posts the bot now owes the channel (outbox rows). `commit`
writes all of it in one transaction or nothing; after it returns, the change is permanent and
the posts will be delivered by the outbox sender, whatever Discord does next.

Other services plug in without a second copy of this path: `end_hooks` run inside the
transaction of a change that ends a rally (a championship run records its result there),
`post_hooks` add posts a change owes beyond the channel's (a driver's turn by DM), and
`job_routes` give the scheduler their jobs by kind prefix (`league.`, `scratch.`). Posts keep
their lines as messages (`bot.engine.core.text`) with the language everybody reads them in.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bot import games
from bot.engine.core.game import Game
from bot.engine.core.text import to_json
from bot.services.errors import ServiceError
from bot.services.play.deal_keys import new_deal_key
from bot.services.play.provisional import with_provisional_mark
from bot.services.reply import Place, TurnPrompt
from bot.store import Job, Rally, Store
from bot.store.clock import utc_now
from bot.store.connection import Tx
from bot.store.drivers import add_missed_turn_tx, reset_missed_turns_tx
from bot.store.jobs import cancel_rally_tx
from bot.store.outbox import enqueue_tx
from bot.store.shards import Shards
from bot.store.versioning import advance

log = logging.getLogger(__name__)

CACHE_SIZE = 256
WARM_KINDS = 16  # a starting process warms this many of its most played (game, stage, ruleset)
KIND_REMIND = "turn.remind"
KIND_DEADLINE = "turn.deadline"
KIND_AI = "turn.ai"  # an AI seat drives its turn (bot/services/play/ai_drivers.py)
DEADLINE_KINDS = (KIND_REMIND, KIND_DEADLINE, KIND_AI)
AI_PAUSE = timedelta(seconds=4)  # on Discord an AI seat drives this long after its prompt is shown

TxStep = Callable[[Tx], Awaitable[Any]]
#: Called inside the transaction of a change that ends a rally (status finished or abandoned),
#: with the rally as it was, the change and the final status: championship runs record their result.
EndHook = Callable[[Tx, Rally, "Change", str], Awaitable[None]]
JobHandler = Callable[[Job, datetime], Awaitable[int]]
#: Called inside a change's transaction after its posts, with the time: the ids of the posts it adds.
PostHook = Callable[[Tx, Rally, "Change", datetime], Awaitable[list[int]]]


#: a game's state, opaque here: only its game (`bot.games`) reads it
State = Any


def game_of(rally: Rally) -> Game[Any, Any, Any, Any]:
    """The game the rally plays (its `game` column; the registry refuses an unknown one)."""
    return games.get(rally.game)


def snapshot_json(state: State, game_id: str | None = None) -> str:
    """The canonical JSON of a state (its game's `to_json`: compact and key-sorted, so replays
    compare byte for byte)."""
    return games.get(game_id).rules.to_json(state)


@dataclass
class Post:
    """A message the bot owes the rally's channel: becomes one outbox row at commit.

    `deadline`: "new" starts the turn's clock when this prompt is delivered, "keep" shows the
    running one. `image`: what to draw at delivery (bot.services.images: {"kind": "board"|"results",
    "game": id, "view": the picture's data from the spectators' view} or {"kind": "preview", "stage":
    name}); the text goes even when it cannot be drawn.
    `close_turn`: the rally is over, so the last turn message loses its buttons."""

    lines: list[str]
    ping: tuple[int, ...] = ()
    turn: TurnPrompt | None = None
    deadline: str | None = None
    image: dict[str, Any] | None = None
    close_turn: bool = False
    user_id: int | None = None  # a DM to this user instead of a channel post
    channel_id: int | None = None  # another channel of the server (a league's), not the rally's
    attach: dict[str, Any] | None = None  # a file read at delivery ({"kind": "cards", "round_id": N})

    def body(self) -> dict[str, Any]:
        turn = None
        if self.turn is not None:
            turn = {"rally_id": self.turn.rally_id, "version": self.turn.version,
                    "driver_id": self.turn.driver_id, "options": list(self.turn.options),
                    **({"game": self.turn.game} if self.turn.game != games.DEFAULT_GAME else {}),
                    **({"certain_loss": list(self.turn.certain_loss)} if self.turn.certain_loss else {})}
        return {"lines": [to_json(line) for line in self.lines], "ping": list(self.ping), "turn": turn,
                "deadline": self.deadline,
                "image": self.image, "close_turn": self.close_turn, **({"attach": self.attach} if self.attach else {})}


@dataclass
class Logged:
    """One versioned change: an action in the log (actor None = the bot) and what follows it."""

    action: str
    actor: int | None
    state: State | None = None  # the new snapshot (None: keep the stored one)
    status: str | None = None


@dataclass
class Change:
    """Everything one command (or job) does to one rally, committed together."""

    logged: list[Logged] = field(default_factory=list)
    posts: list[Post] = field(default_factory=list)
    steps: list[TxStep] = field(default_factory=list)  # roster changes, job completion...
    end_turn_clock: bool = False  # the turn passed or the rally ended: its deadline jobs go
    played_by: int | None = None  # this driver played: their missed-turn count starts again
    missed_by: int | None = None  # this driver missed a turn

    @property
    def final_state(self) -> State | None:
        states = [entry.state for entry in self.logged if entry.state is not None]
        return states[-1] if states else None


@dataclass(frozen=True)
class Committed:
    version: int
    outbox_ids: tuple[int, ...]
    paused: bool = False  # the rally's channel cannot be posted in: the posts wait


class RallyWork:
    """The store, the per-rally locks, the state cache, the commit, and the hooks and job routes
    of the league services: injected into every service."""

    def __init__(self, store: Store, clock: Callable[[], datetime] = utc_now) -> None:
        self.store = store
        self.clock = clock
        self._cache: OrderedDict[tuple[int, int], State] = OrderedDict()
        self.on_commit: Callable[[], None] | None = None  # wakes the outbox sender
        #: The Discord shards this process serves: it claims only their servers' posts and jobs.
        self.shards = Shards.everything()
        self.end_hooks: list[EndHook] = []
        #: Scheduled jobs of other services by kind prefix (`league.`, `scratch.`): `run_due` routes them.
        self.job_routes: dict[str, JobHandler] = {}
        #: How long after its prompt reached the channel an AI seat drives (none in the console).
        self.ai_pause = AI_PAUSE
        #: Called inside every change's transaction after its posts: the extra posts they owe
        #: (DMs of turn prompts, `bot.services.notify.turn_dms_tx`); returns their outbox ids.
        self.post_hooks: list[PostHook] = []
        #: The key of each new rally's hidden deal (bot/services/play/deal_keys.py): secure randomness
        #: on Discord, numbered keys in reproducible sessions and tests.
        self.deal_keys: Callable[[], str] = new_deal_key
        #: The spectators' web page's address (`RALLYBOT_PUBLIC_URL`, bot/web/): posts of a public
        #: league's results and standings link to it; None: no links.
        self.public_url: str | None = None

    # -- finding and locking -------------------------------------------------------------------

    def lock(self, rally_id: int) -> AbstractAsyncContextManager[None]:
        """The rally's lock, held by one command at a time in every process of the database
        (`Database.locked`): on PostgreSQL a transaction that commits when the lock is released."""
        return self.store.db.locked("rally", rally_id)

    async def rally_here(self, place: Place) -> Rally:
        if place.guild_id <= 0:
            raise ServiceError("discord.guild_only")
        rally = await self.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
        if rally is None:
            raise ServiceError("rally.none_here")
        return rally

    @asynccontextmanager
    async def locked(self, place: Place) -> AsyncIterator[tuple[Rally, Rally]]:
        """(rally as the command found it on arrival, rally re-read under its lock)."""
        seen = await self.rally_here(place)
        async with self.lock(seen.id):
            yield seen, await self.store.rallies.get(seen.id)

    @asynccontextmanager
    async def locked_id(self, rally_id: int) -> AsyncIterator[Rally | None]:
        """A rally by id (jobs, deliveries), re-read under its lock; None if it is gone."""
        async with self.lock(rally_id):
            yield await self.store.rallies.find(rally_id)

    # -- state ---------------------------------------------------------------------------------

    def state_of(self, rally: Rally) -> State:
        """The game state of a running rally, from its snapshot (its game's `from_json`, cached
        per version)."""
        key = (rally.id, rally.version)
        state = self._cache.get(key)
        if state is None:
            if rally.snapshot is None:
                raise ServiceError("rally.not_running")
            state = game_of(rally).rules.from_json(rally.snapshot)
            self.remember(rally.id, rally.version, state)
        else:
            self._cache.move_to_end(key)
        return state

    async def warm(self, most: int = WARM_KINDS) -> int:
        """Before the process serves anyone: decode one running rally of each of its shards' `most`
        most played (game, stage, ruleset) and list the legal actions of the seats it waits for.
        A process's first command on a stage otherwise pays for parsing the stage and building
        its move tables (20-50 ms, ten times a command), and after a restart every process's
        first commands come at once. Returns how many rallies were decoded; a rally that cannot
        be is left to its first command (which then says why)."""
        warmed = 0
        try:
            rallies = await self.store.rallies.one_per_kind(self.shards.where("guild_id"), most)
        except Exception as exc:  # a row that cannot be read (its JSON columns): the commands will say so
            log.warning("could not read the running rallies to warm: %s: %s", type(exc).__name__, exc)
            return 0
        for rally in rallies:
            try:
                state = self.state_of(rally)
                game = game_of(rally)
                for seat in sorted(game.rules.to_act(state)):
                    game.rules.legal_actions(state, seat)
            except Exception as exc:  # a warm-up never stops a start: the first command says what is wrong
                log.warning("could not warm rally %s (%s): %s: %s", rally.id, rally.stage, type(exc).__name__, exc)
                continue
            warmed += 1
        return warmed

    def remember(self, rally_id: int, version: int, state: State) -> None:
        self._cache[(rally_id, version)] = state
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    # -- the commit ----------------------------------------------------------------------------

    async def commit(self, rally: Rally, change: Change) -> Committed:
        """Write the whole change in one transaction; nothing at all if anything fails."""
        done = await self.store.db.write(lambda tx: self.write(tx, rally, change))
        self.committed(rally, change, done)
        return done

    def committed(self, rally: Rally, change: Change, done: Committed) -> None:
        """After a commit: cache the new state, wake the outbox sender, both once the change is
        visible to everyone (`Database.after_commit`: at the end of the rally's lock on PostgreSQL)."""
        state = change.final_state
        if state is not None:
            self.store.db.after_commit(lambda: self.remember(rally.id, done.version, state))
        if done.outbox_ids:
            self.wake()

    def wake(self) -> None:
        """Wake the outbox sender once what was just written is visible to it (`after_commit`)."""
        if self.on_commit is not None:
            self.store.db.after_commit(self.on_commit)

    async def write(self, tx: Tx, rally: Rally, change: Change) -> Committed:
        """Inside `tx` (a transaction body): write the change. Use `commit` unless the change is
        part of a larger transaction (creating the rally it belongs to, for example); then call
        `committed` once the transaction is committed."""
        version = rally.version
        game = game_of(rally)
        for entry in change.logged:
            snapshot: object = game.rules.to_json(entry.state) if entry.state is not None else _KEEP
            if snapshot is _KEEP:
                version = await advance(tx, rally.id, version, actor=entry.actor, action=entry.action,
                                        status=entry.status)
            else:
                version = await advance(tx, rally.id, version, actor=entry.actor, action=entry.action,
                                        snapshot_json=snapshot, status=entry.status)
        for step in change.steps:
            await step(tx)
        if change.end_turn_clock:
            await cancel_rally_tx(tx, rally.id, DEADLINE_KINDS)
        if change.played_by is not None:
            await reset_missed_turns_tx(tx, rally.id, change.played_by)
        if change.missed_by is not None:
            await add_missed_turn_tx(tx, rally.id, change.missed_by)
        lang = language_of_rally(rally)
        ids = [await post_tx(tx, for_rally(post, rally), rally.guild_id, rally.channel_id, self.clock(), rally.id, lang)
               for post in change.posts]
        for post_hook in self.post_hooks:
            ids += await post_hook(tx, rally, change, self.clock())
        ended = next((e.status for e in change.logged if e.status in ("finished", "abandoned")), None)
        if ended is not None:  # after the change's own posts: a run's result line follows its last roll
            for hook in self.end_hooks:
                await hook(tx, rally, change, ended)
        return Committed(version, tuple(ids), rally.paused_at is not None)

    async def post(self, rally: Rally, *posts: Post) -> Committed:
        """Owe posts without changing the rally (a board asked for, a lobby message...)."""
        return await self.commit(rally, Change(posts=list(posts)))


DEFAULT_LANG = "en"  # the catalogue's default language (bot.i18n.DEFAULT_LANG)
_KEEP = object()


async def post_tx(tx: Tx, post: Post, guild_id: int, channel_id: int, now: datetime,
                  rally_id: int | None = None, lang: str = DEFAULT_LANG) -> int:
    """Inside `tx`: owe `post` (to `post.channel_id` when it names another channel): one outbox row.
    The row keeps its lines as messages and the language everybody reads it in (the rally's or
    the league's): the sender shows it in that language."""
    target = post.channel_id if post.channel_id is not None else channel_id
    body = post.body()
    if lang != DEFAULT_LANG:
        body["lang"] = lang
    return await enqueue_tx(tx, guild_id=guild_id, channel_id=target, kind="turn" if post.turn else "post",
                            body=body, rally_id=rally_id if target == channel_id else None,
                            user_id=post.user_id, now=now)


def for_rally(post: Post, rally: Rally) -> Post:
    """`post`, about `rally`, as it is owed: saying "provisional rules" once when the rally's game
    calls its ruleset provisional (RULES B13: every DIRT message). Changed in place, so the command's
    own answer (`reply_of`, built from the same post) says it too."""
    post.lines = with_provisional_mark(post.lines, rally.game, rally.ruleset)
    return post


def language_of_rally(rally: Rally) -> str:
    """The language a rally's posts are written in (chosen at creation; English before)."""
    modules = rally.modules if isinstance(rally.modules, dict) else {}
    return str(modules.get("language") or DEFAULT_LANG)
