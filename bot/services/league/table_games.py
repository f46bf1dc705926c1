"""League rounds of a table game (a game without solo runs: Road Rally USA).

A round of such a league is not one attempt per driver but a set of table games among the
league's entrants (its members when the round opens):

- **open** (`league.open`, `bot/services/league/jobs.py`): the entrants are grouped into tables of
  the game's seat range (`bot/services/league/table_groups.py`, drawn from the round's secret seed, so the
  grouping is reproducible and checkable once the seed is revealed); each table is a rally of the
  round's game, stage (course) and ruleset (preset), its seats in the drawn order, started at once
  in a thread of its own made by `threads` (the port the bot or the console plugs in: on Discord a
  private thread with the table's drivers in it, `bot/views/threads.py`); each seat gets a `runs`
  row of the round pointing at the table's rally. The channel is told which table plays where
  (names only). Fewer entrants than the game's smallest table: the channel is told the round
  cannot be played; it closes with no result.
- **a table's end** (`on_rally_end`, inside the transaction that ends the rally): each seat's run
  is recorded (finished with its score, VP, from `Game.rules.outcome`; a retired seat, or an abandoned
  table, is a DNF) and the league channel gets one line with the table's result.
- **close** (`finish_tables_tx`, from `bot/services/league/round_close.py`): a table still running is
  played to its end with the game's own timeout action for every seat asked (RULES C10.2: what a
  seat whose deadline passes gets), so it ends with `Game.rules.outcome` like any other table; a table
  that still does not end within `PLAY_OUT_STEPS` actions is abandoned (its seats DNF). The
  classification then ranks each seat within its table (`bot/services/league/points.py`).

The table rallies are marked by their `table` module ({"round_id", "table"}), not `run`: the run
service's end hook and its `/run` commands leave them alone. Their host is the bot (id 0), so no
seat can abandon a table for the others.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from bot import games
from bot.engine.core.game import Game, is_finished
from bot.engine.core.log import Start, Status, lifecycle_text
from bot.engine.core.scores import format_score
from bot.engine.core.text import Listed, msg
from bot.i18n import render
from bot.services.league.round_kit import league_language, league_post_tx, local, round_title
from bot.services.league.table_groups import group_tables
from bot.services.play.deal_keys import deal_columns
from bot.services.play.turns import turn_post
from bot.services.play.windows import asked_together, clear_step, close
from bot.services.work import Change, Logged, Post, RallyWork, State, game_of
from bot.store import Rally
from bot.store.connection import Tx
from bot.store.drivers import join_tx
from bot.store.leagues import (
    League,
    Round,
    Run,
    finish_run_tx,
    league_tx,
    members_tx,
    round_tx,
    runs_of_rally_tx,
    start_run_tx,
)
from bot.store.rallies import create_tx, find_tx
from bot.store.window_answers import answers_tx

#: (guild id, channel id, thread name, the table's drivers' ids) → the new thread's id
ThreadMaker = Callable[[int, int, str, tuple[int, ...]], Awaitable[int]]

TABLE_HOST = 0  # a table's host is the bot: no seat may abandon the table for the others
PLAY_OUT_STEPS = 20_000  # actions a table is played out with at the close, at most
#: a table's turns have the default rally deadline: a seat that stops answering is reminded, then the
#: AI plays its turn (and a window's silence passes, C10.2), so one absent driver never holds a table
TABLE_TURN_S = 24 * 3600
MAX_SEED = 2 ** 63 - 1


def is_table_game(game_id: str | None) -> bool:
    """A league round of this game is a set of table games (the game has no solo runs)."""
    return not games.get(game_id).library.solo_runs


def is_table(rally: Rally) -> bool:
    return isinstance(rally.modules, dict) and "table" in rally.modules


def table_seed(round_seed: str, table: int) -> int:
    """A table's rally seed, from the round's secret seed (the rally never stores the round's): it
    lays the course and draws the line-up, both public once the table starts; the hidden deal
    comes from the table's own deal key (`RallyWork.deal_keys`), so the round's seed, published at
    the close, reveals no card (RULES C10.8)."""
    return int.from_bytes(hashlib.sha256(f"{round_seed}:table:{table}".encode()).digest()[:8], "big") & MAX_SEED


class TableGames:
    """Opens a table game round's tables, records a table's end, plays out a table at the close.
    `threads` must be set by whoever runs the jobs (the bot, the console) before a round opens."""

    def __init__(self, work: RallyWork, when: Callable[[datetime], str]) -> None:
        self.work = work
        self.store = work.store
        self.when = when
        self.threads: ThreadMaker | None = None
        work.end_hooks.append(self.on_rally_end)

    # -- open --------------------------------------------------------------------------------------

    async def seat_tables(self, round_id: int) -> list[tuple[int, list[tuple[int, str]]]]:
        """Before the open's transaction (caller holds the round's lock): the tables of a round
        still to open, each with the thread made for it; [] when there is none to make."""
        async def read(tx: Tx) -> tuple[Round | None, League | None, list[tuple[int, str]]]:
            rnd = await round_tx(tx, round_id)
            if rnd is None or rnd.league_id is None or rnd.status != "scheduled":
                return rnd, None, []
            return rnd, await league_tx(tx, rnd.league_id), await members_tx(tx, rnd.league_id)

        rnd, league, members = await self.store.db.read(read)
        if rnd is None or league is None:
            return []
        game = games.get(rnd.game)
        tables = group_tables(members, rnd.seed, game.rules.seats.min, game.rules.seats.max)
        if tables and self.threads is None:
            raise RuntimeError("no thread maker: set Championships.tables.threads before the rounds open")
        made = []
        for number, seats in enumerate(tables, 1):
            name = render(msg("league.table_thread_name", league=league.name, number=rnd.number, table=number),
                          league_language(league))
            assert self.threads is not None
            made.append((await self.threads(league.guild_id, league.channel_id, name,
                                            tuple(uid for uid, _ in seats)), seats))
        return made

    @staticmethod
    def table_lines(rnd: Round, tables: list[tuple[int, list[tuple[int, str]]]]) -> list[Any]:
        """What the round's open post adds: which table plays where (names only), or why the round
        cannot be played."""
        if not tables:
            return [msg("league.tables_too_few", count=games.get(rnd.game).rules.seats.min)]
        return [msg("league.table_line", table=number, thread=f"<#{thread_id}>",
                    names=Listed([name for _, name in seats], how="both"))
                for number, (thread_id, seats) in enumerate(tables, 1)]

    async def start_tables_tx(self, tx: Tx, rnd: Round, league: League, tables: list[tuple[int, list[tuple[int, str]]]],
                              now: datetime) -> None:
        """Inside the open's transaction, after its post: start every table in its thread."""
        game = games.get(rnd.game)
        for number, (thread_id, seats) in enumerate(tables, 1):
            await self._start_table_tx(tx, game, rnd, league, number, thread_id, seats, now)

    async def _start_table_tx(self, tx: Tx, game: Game[Any, Any, Any, Any], rnd: Round, league: League, number: int,
                              thread_id: int, seats: list[tuple[int, str]], now: datetime) -> None:
        modules: dict[str, Any] = {**{k: True for k, on in rnd.modules.items() if on},
                                   "table": {"round_id": rnd.id, "table": number}}
        lang = league_language(league)
        if lang != "en":
            modules["language"] = lang
        seed = table_seed(rnd.seed, number)
        secret = self.work.deal_keys()  # the deal: never from the round's seed, which the close publishes
        ids = [(str(uid), name) for uid, name in seats]
        options = {"stage": rnd.specials[0], "ruleset": rnd.ruleset, "modules": modules, "secret": secret}
        state, events = game.rules.setup(seed, ids, options)
        rally = await create_tx(tx, guild_id=league.guild_id, channel_id=thread_id, host_id=TABLE_HOST,
                                stage=rnd.specials[0], ruleset=rnd.ruleset, seed=seed, max_drivers=len(seats),
                                modules=modules, game=game.id, turn_deadline_s=TABLE_TURN_S,
                                **deal_columns(secret))
        for uid, name in seats:
            await join_tx(tx, rally_id=rally.id, user_id=uid, display_name=name)
            await start_run_tx(tx, round_id=rnd.id, user_id=uid, display_name=name, guild_id=league.guild_id,
                               guild_name="", rally_id=rally.id, thread_id=thread_id, week=None, now=now)
        change = Change(logged=[Logged(lifecycle_text(Start(tuple(s for s, _ in ids))), None, state, "running")])
        lead = [msg("league.table_started", title=round_title(rnd, league.name), table=number,
                    names=Listed([name for _, name in seats], how="both"),
                    closes=self.when(local(rnd.closes_at, league)))]
        turn_post(rally.id, 1, state, events, lead, change, game.id, rnd.ruleset)
        await self.work.write(tx, rally, change)

    # -- a table's end -----------------------------------------------------------------------------

    async def on_rally_end(self, tx: Tx, rally: Rally, change: Change, status: str) -> None:
        """Inside the transaction that ends a rally: if it is a table of a league round, record
        each seat's result once and owe the league channel one line with the table's result."""
        if not is_table(rally):
            return
        runs = await runs_of_rally_tx(tx, rally.id)
        game = game_of(rally)
        state = change.final_state
        outcome = game.rules.outcome(state) if status == "finished" and state is not None else None
        seats = {s.seat: s for s in outcome.seats} if outcome is not None else {}
        now = self.work.clock()
        recorded = False
        for run in runs:
            seat = seats.get(str(run.user_id))
            if seat is not None and seat.status == "finished" and seat.score is not None:
                recorded |= await finish_run_tx(tx, run.id, status="finished", score=seat.score,
                                                unit=game.rules.result.unit, power_s=None, reason=None, now=now)
            else:
                reason = (seat.reason or seat.status) if seat is not None else "abandoned"
                recorded |= await finish_run_tx(tx, run.id, status="dnf", score=None, unit=game.rules.result.unit,
                                                power_s=None, reason=reason, now=now)
        if not recorded or not runs:
            return
        rnd = await round_tx(tx, runs[0].round_id)
        league = await league_tx(tx, rnd.league_id) if rnd is not None and rnd.league_id is not None else None
        if rnd is None or league is None:
            return
        number = int(rally.modules["table"].get("table", 0))
        line = msg("league.table_ended", title=round_title(rnd, league.name), table=number,
                   results=Listed(table_results(game, runs, seats), how="dot"))
        await league_post_tx(tx, league, Post([line], channel_id=league.channel_id), now)

    # -- the close ---------------------------------------------------------------------------------


def table_results(game: Game[Any, Any, Any, Any], runs: list[Run], seats: dict[str, Any]) -> list[Any]:
    """A table's result in words, best first: `1. Alice 14 VP`, then the seats out."""
    by_seat = {str(r.user_id): r for r in runs}
    rows = sorted(seats.values(), key=lambda s: (s.rank is None, s.rank or 0, s.tiebreak))
    out: list[Any] = []
    for seat in rows:
        run = by_seat.get(seat.seat)
        if run is None:
            continue
        if seat.rank is not None and seat.score is not None:
            out.append(msg("league.table_seat", pos=seat.rank, name=run.display_name,
                           score=format_score(game.rules.result, seat.score)))
        else:
            out.append(msg("league.table_seat_out", name=run.display_name))
    for run in runs:  # an abandoned table: no outcome, every seat out
        if str(run.user_id) not in seats:
            out.append(msg("league.table_seat_out", name=run.display_name))
    return out


def played_out(game: Game[Any, Any, Any, Any], state: State) -> tuple[Change, bool]:
    """The actions that end a table at the round's close: the game's timeout action for the
    seats asked, again and again, until the game is over (RULES C10.2); (the change, finished).
    Only the last action carries the snapshot (the log replays the rest)."""
    change = Change(end_turn_clock=True)
    for _ in range(PLAY_OUT_STEPS):
        if is_finished(game.rules, state):
            break
        asked = game.rules.to_act(state)
        if not asked:
            break
        action = game.rules.timeout_action(state, min(asked))
        state, _ = game.rules.apply(state, None, action)
        change.logged.append(Logged(game.rules.encode(action), None, None, None))
    finished = is_finished(game.rules, state)
    if change.logged:
        last = change.logged[-1]
        change.logged[-1] = Logged(last.action, None, state, "finished" if finished else None)
    return change, finished


async def finish_tables_tx(tx: Tx, work: RallyWork, runs: list[Run]) -> None:
    """Inside the close's transaction: every table among `runs` (the round's runs still running)
    is played to its end (`played_out`), or abandoned if it would not end; the end hook records
    its seats' results in this same transaction."""
    for rally_id in dict.fromkeys(r.rally_id for r in runs if r.rally_id is not None):
        rally = await find_tx(tx, rally_id)
        if rally is None or not is_table(rally) or rally.status != "running":
            continue
        game = game_of(rally)
        state = work.state_of(rally)
        kept = await answers_tx(tx, rally.id)
        closing = close(game, state, kept) if kept and asked_together(game, state) else None
        change, finished = played_out(game, closing.state if closing is not None else state)
        if closing is not None:  # the answers kept in its open window count (RULES C10.8)
            change.logged[:0] = closing.logged
            change.steps.append(clear_step(rally.id))
        if finished:
            change.posts.append(Post([msg("league.table_played_out"),
                                      *game.narrator.classification(game.rules.view(change.final_state, None))],
                                     close_turn=True))
        else:
            change.logged.append(Logged(lifecycle_text(Status("abandoned")), None, None, "abandoned"))
            change.posts.append(Post([msg("run.closed_dnf")], close_turn=True))
        await work.write(tx, rally, change)
