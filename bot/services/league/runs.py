"""Championship runs: one driver's single attempt at a round, in a private thread of their own.

A run is a rally of one car (`rallies` row in the thread, with its own action log), started
running at once: the driver plays it with the usual turn commands, and nobody waits for anybody.
Its dice are named streams from the round's secret seed (`bot.engine.core.dice.StreamDice`): with
`personal` dice the keys mix in the driver's id, with `shared` dice every driver gets the same
k-th face of each die. The rally stores only the derived keys, never the round's seed.

**One attempt.** The `runs` table allows one run per driver and round (and one official run per
driver and ISO week, across all servers), so a second `/run start` is refused whatever happened to
the first; abandoning, leaving or the round's close is a DNF, never a restart; and because the
dice are a function of (seed, driver, actions), nothing a driver does can re-roll a die. The
week's official run counts wherever the official stage does (`bot/services/league/official_runs.py`): a
second start on it says which run stands, and a new one answers the driver's other league rounds
on that stage at once.

When a run's rally ends (finished, or abandoned), `on_rally_end` runs inside that same
transaction: the run's result is recorded and the channel of each league round it counts in is
owed one line (time and provisional position, no dice).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot import games
from bot.engine.core.dice import stream_keys
from bot.engine.core.game import Game, is_finished
from bot.engine.core.log import Start, lifecycle_text
from bot.engine.core.scores import format_time
from bot.engine.core.text import msg
from bot.services.errors import ServiceError
from bot.services.images import board_spec
from bot.services.inputs import display_name, number
from bot.services.league.ghost_board import ghost_of, racing_line, with_ghost
from bot.services.league.ghosts import choose_ghost, ghost_choice, ghost_run, has_ghosts
from bot.services.league.official_runs import NOT_CLOSED, link_rounds_tx, rounds_locked, stands_refusal_tx
from bot.services.league.round_kit import (
    RoundLocks,
    discord_time,
    league_language,
    league_post_tx,
    local,
    round_title,
)
from bot.services.league.run_outcome import run_result
from bot.services.league.work import LeagueWork
from bot.services.play.replay import replay_states
from bot.services.play.turns import turn_post
from bot.services.reply import Actor, Place, Reply
from bot.services.work import Change, Logged, Post, RallyWork, State, game_of, post_tx
from bot.services.world.cards import run_modules
from bot.store import Rally
from bot.store.clock import from_text
from bot.store.connection import Tx
from bot.store.drivers import join_tx
from bot.store.leagues import (
    League,
    Round,
    faster_runs_tx,
    finish_run_tx,
    finished_count_tx,
    league_tx,
    member_tx,
    official_rounds_of_driver_tx,
    official_run_tx,
    round_tx,
    rounds_answered_tx,
    run_of_rally_tx,
    run_of_tx,
    start_run_tx,
)
from bot.store.rallies import create_tx

MAX_GUILD_NAME = 100


def runnable(rnd: Round, now: datetime) -> bool:
    """A run may start while the round is open (or due to open: its job may be a tick late)."""
    if rnd.status not in ("open", "scheduled"):
        return False
    return from_text(rnd.opens_at) <= now < from_text(rnd.closes_at)


class RunService(LeagueWork):
    """`check` (before the cog creates the thread), `start` (in it), the end hook, `replay`."""

    def __init__(self, work: RallyWork, locks: RoundLocks, clock: Callable[[], datetime],
                 when: Callable[[datetime], str] = discord_time) -> None:
        super().__init__(work, locks, clock)
        self.when = when
        work.end_hooks.append(self.on_rally_end)

    async def check(self, rnd: Round, league: League | None, actor: Actor, ghost: object = None,
                    guild_id: int = 0) -> None:
        """Refuse now, before a thread is made, what `start` would refuse (it checks again): the
        run, then the `ghost` asked for (`bot.services.league.ghosts`)."""
        await self.store.db.read(lambda tx: self._refusal_tx(tx, rnd, league, actor))
        kind = ghost_choice(ghost)
        if kind is not None:
            await ghost_run(self.store, rnd, actor.user_id, guild_id, kind)

    async def _refusal_tx(self, tx: Tx, rnd: Round, league: League | None, actor: Actor) -> None:
        """Refuse a run the round (re-read) does not allow now: not open, not a member, the week's
        official run driven already (which run stands is said), a run of this round already."""
        current = await round_tx(tx, rnd.id)
        if current is not None and not games.get(current.game).library.solo_runs:  # its rounds are table games
            raise ServiceError("run.table_game", game=msg(games.get(current.game).library.name))
        if current is None or not runnable(current, self.clock()):
            raise ServiceError("run.round_not_open")
        if league is not None and await member_tx(tx, league.id, actor.user_id) is None:
            raise ServiceError("run.not_member", league=league.name)
        official = await official_run_tx(tx, current.week, actor.user_id, current.game) if current.week else None
        if official is not None and (official.round_id != current.id or current.league_id is None):
            raise await stands_refusal_tx(tx, official, current)  # one attempt, wherever it counts
        if await run_of_tx(tx, current.id, actor.user_id) is not None:
            raise ServiceError("run.already_ran")

    async def start(self, place: Place, actor: Actor, rnd: Round, league: League | None, thread_id: int,
                    guild_name: str = "", ghost: object = None) -> Reply:
        """Start the actor's run of `rnd` in the thread `thread_id`: a rally of one car, running,
        its first prompt owed to the thread; the round's lock keeps it from racing the close. A
        `ghost` asked for (`best`, `leader`) is chosen first and kept in the rally's modules (a
        refusal starts nothing)."""
        if not games.get(rnd.game).library.solo_runs:  # before a one-seat game is even set up
            raise ServiceError("run.table_game", game=msg(games.get(rnd.game).library.name))
        chosen = await choose_ghost(self.store, rnd, actor.user_id, place.guild_id, ghost)
        name = display_name(actor.name)
        driver = str(actor.user_id)
        key, common = stream_keys(rnd.seed, driver, rnd.dice)
        modules = {**run_modules(rnd), "streams": {"key": key, "common": common}, "run": {"round_id": rnd.id}}
        lang = league_language(league) if league is not None else place.lang
        if lang != "en":  # the thread's posts in the league's language (a world run: the server's)
            modules["language"] = lang
        game = games.get(rnd.game)
        state, events = game.rules.setup(0, [(driver, name)], {"stage": rnd.specials[0], "ruleset": rnd.ruleset,
                                                         "modules": modules})
        if chosen is not None:
            if not has_ghosts(game, state):
                raise ServiceError("ghost.not_in_game", game=msg(game.library.name))
            modules["ghost"] = chosen
        others: list[Round] = []  # the week's other official rounds this run will answer
        if rnd.week:
            others = await self.store.db.read(lambda tx: official_rounds_of_driver_tx(tx, rnd.week or "",
                                                                                      actor.user_id, rnd.game))
        async with rounds_locked(self.locks, [rnd.id, *(r.id for r in others)]):
            now = self.clock()

            async def body(tx: Tx) -> tuple[Rally, Change, object]:
                await self._refusal_tx(tx, rnd, league, actor)
                rally = await create_tx(tx, guild_id=place.guild_id, channel_id=thread_id, host_id=actor.user_id,
                                        stage=rnd.specials[0], ruleset=rnd.ruleset, seed=0, max_drivers=1,
                                        modules=modules, game=game.id)
                await join_tx(tx, rally_id=rally.id, user_id=actor.user_id, display_name=name)
                server = display_name(guild_name, MAX_GUILD_NAME, empty="")  # shown in the world ranking
                await start_run_tx(tx, round_id=rnd.id, user_id=actor.user_id, display_name=name,
                                   guild_id=place.guild_id, guild_name=server,
                                   rally_id=rally.id, thread_id=thread_id, week=rnd.week, now=now)
                await link_rounds_tx(tx, [r.id for r in others if r.id != rnd.id])
                change = Change(logged=[Logged(lifecycle_text(Start((driver,))), actor.user_id, state, "running")])
                title = round_title(rnd, league.name if league else None)
                closes = local(rnd.closes_at, league) if league else from_text(rnd.closes_at)
                lead = [msg("run.started", name=name, title=title, closes=self.when(closes))]
                lead += racing_line(game, chosen)
                turn_post(rally.id, 1, state, events, lead, change, game.id, rnd.ruleset, chosen)
                return rally, change, await self.work.write(tx, rally, change)

            rally, change, committed = await self.store.db.write(body)
        self.work.committed(rally, change, committed)  # type: ignore[arg-type]
        first = change.posts[-1]
        return Reply([msg("run.thread_ready", thread=f"<#{thread_id}>")] + list(first.lines), ping=first.ping,
                     turn=first.turn, outbox=committed.outbox_ids)  # type: ignore[attr-defined]

    async def on_rally_end(self, tx: Tx, rally: Rally, change: Change, status: str) -> None:
        """Inside the transaction that ends a rally: if it is a run, record its result once and owe
        the channel of each league round it counts in (its own, and the not closed rounds it
        answers) one line (time and provisional position, no dice)."""
        if not isinstance(rally.modules, dict) or "run" not in rally.modules:
            return
        run = await run_of_rally_tx(tx, rally.id)
        if run is None:
            return
        state = change.final_state
        now = self.clock()
        outcome = run_result(game_of(rally), state) if status == "finished" and state is not None else None
        result = games.get(run.game).rules.result
        if outcome is not None and outcome.finished:
            if not await finish_run_tx(tx, run.id, status="finished", score=outcome.time_s, unit=result.unit,
                                       power_s=outcome.power_s, reason=None, now=now):
                return
        else:
            reason = outcome.reason if outcome is not None else "abandoned"
            if not await finish_run_tx(tx, run.id, status="dnf", score=None, unit=result.unit, power_s=None,
                                       reason=reason, now=now):
                return
        own = await round_tx(tx, run.round_id)
        answered = [r for r in await rounds_answered_tx(tx, run.id) if r.status in NOT_CLOSED]
        for rnd in ([own] if own is not None else []) + answered:
            if rnd.league_id is None:
                continue  # a world run: the ranking shows it; no league channel to tell
            league = await league_tx(tx, rnd.league_id)
            if league is None:
                continue
            title = round_title(rnd, league.name)
            if outcome is not None and outcome.finished and outcome.time_s is not None:
                position = await faster_runs_tx(tx, rnd.id, outcome.time_s, result) + 1
                line = msg("run.finished_line", name=run.display_name, title=title,
                         time=format_time(outcome.time_s), position=position,
                         count=await finished_count_tx(tx, rnd.id))
            else:
                line = msg("run.dnf_line", name=run.display_name, title=title)
            await league_post_tx(tx, league, Post([line], channel_id=league.channel_id), now)

    async def replay(self, place: Place, actor: Actor, rnd: Round, league: League | None, driver_id: int,
                     turn: object = None) -> Reply:
        """Post a driver's board after one of their turns (default: the last). Another driver's
        run is shown only once the round is closed (shared dice: a run in view reveals the dice)."""
        if rnd.status != "closed" and driver_id != actor.user_id:
            raise ServiceError("run.replay_after_close")
        run = await self.store.db.read(lambda tx: run_of_tx(tx, rnd.id, driver_id))
        if run is None or run.rally_id is None:
            raise ServiceError("run.no_run")
        rally = await self.store.rallies.get(run.rally_id)
        log = await self.store.actions.list(run.rally_id)
        # the seats' names come from the rally's drivers, as the store's own replay check gives them
        row = {**rally.as_dict(), "drivers": [d.as_dict() for d in await self.store.drivers.list(run.rally_id)]}
        states = replay_states(row, [a.as_dict() for a in log])
        game = game_of(rally)
        boards = turn_boards(game, states)
        if not boards and len(states) > 1:  # ended (abandoned) before a first turn was over
            boards = [states[-1]]
        if not boards:
            raise ServiceError("run.no_turns")
        wanted = len(boards) if turn is None or str(turn).strip() == "" else \
            int(number("turn", turn, 1, len(boards), whole=True))
        state = boards[wanted - 1]
        title = round_title(rnd, league.name if league else None)
        board, _ = with_ghost(game, state, board_spec(state, game.id), ghost_of(rally))
        post = Post([msg("run.replay_head", name=run.display_name, title=title, turn=wanted, turns=len(boards))],
                    image=board)
        committed = await self._post_here(place, post, league_language(league) if league else place.lang)
        return Reply(list(post.lines), outbox=committed)

    async def _post_here(self, place: Place, post: Post, lang: str) -> tuple[int, ...]:
        now = self.clock()
        row = await self.store.db.write(lambda tx: post_tx(tx, post, place.guild_id, place.channel_id, now,
                                                           lang=lang))
        self.work.wake()
        return (row,)


def turn_boards(game: Game[Any, Any, Any, Any], states: list[State]) -> list[State]:
    """The board after each turn of a one-car rally: the states after which play moved on (the
    game's `progress`: classic's round or special) or the rally ended. `states` is the state after
    each logged action."""
    boards = []
    for before, after in zip(states, states[1:]):
        rules = game.rules
        if is_finished(rules, after) or \
                rules.progress(rules.view(after, None)) != rules.progress(rules.view(before, None)):
            boards.append(after)
    return boards
