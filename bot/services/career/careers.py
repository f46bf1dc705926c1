"""Careers: each driver's stats per game across servers, achievements, `/driver`.

**When stats are written.** A `RallyWork.end_hook`: in the very transaction that finishes a
rally (or abandons a run: a DNF), its log is replayed once (`replay.replay_checked`) and the game's
`tally` of every action's events summed per seat, with the result from the game's `outcome`; one
`career_results` row per human driver. Why at the end rather than per action: an action's commit
is the hot path (every die), and counting there would add a write to each one and events the
`Change` does not carry; one replay per rally costs a few milliseconds of engine time once, and
gives the same numbers as the log by construction. Each special's own time comes from the game's
ghost marks (the time so far where the car stands at a special's end), so a rally of several
specials gives a personal best on each.

**Runs are placed by their round.** A run is alone in its rally: its row is written unplaced at
its end, then `place_round_tx` places it among the round's (or world week's) whole field, with
its score after penalties and its gap to the winner, in the transaction that closes the round,
and again in any that judges it after. The rows are derived data: `rebuild` writes them again
from every ended rally's log, then places every closed round's runs (identical rows: a test).

**Achievements** (bot/services/career/achievements.py) are evaluated right after, from the driver's
career totals (every game, every server) and that rally's facts; each is earned once (the store's
key) and announced in the rally's channel through the outbox, in the same transaction.

**`/driver [user] [game]`** answers privately with a career card image drawn in the render
workers (`images.draw`, spec kind `career`) in the reader's language: one's own card shows all of
one's career (a private answer to its owner), another driver's only what the asking server may see
(`bot.store.careers.VISIBLE`). AI seats (negative ids) have no career.
"""

from __future__ import annotations

import logging
import statistics
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from bot import games
from bot.engine.core.game import Game, GhostMark, Outcome
from bot.engine.core.ranking import shared_ranks
from bot.engine.core.scores import format_score
from bot.engine.core.tally import Counters, favourite_gear, is_key, merge
from bot.engine.core.text import msg, to_json
from bot.services.alt_text import described
from bot.services.career.achievements import Achievement, RallyFacts, Totals, keys_of, newly_met, shipped
from bot.services.career.ratings import display_rating
from bot.services.errors import ServiceError
from bot.services.images import Renderer, draw_async, image_name
from bot.services.inputs import display_name
from bot.services.league.round_kit import league_post_tx
from bot.services.play.replay import replay_checked
from bot.services.reply import Actor, Place, Reply
from bot.services.work import Change, Post, RallyWork, for_rally, language_of_rally, post_tx
from bot.store import Rally
from bot.store.careers import (
    CareerResult,
    clear_results_tx,
    closed_rounds_tx,
    earn_tx,
    earned_tx,
    ended_rallies_tx,
    place_result_tx,
    put_results_tx,
    rally_log_tx,
    results_tx,
    top_three_tx,
    week_rallies_tx,
)
from bot.store.clock import to_text
from bot.store.connection import Tx
from bot.store.leagues import league_tx, results_of_round_tx, round_tx, runs_of_round_tx
from bot.store.ratings import history_tx, shown_rating_tx
from bot.store.rows import Action, Driver

log = logging.getLogger(__name__)

RECENT = 5       # recent results on the card
BESTS = 5        # personal bests on the card
SHOWN_ACHIEVEMENTS = 8


async def career_rating(tx: Tx, game: str, user_id: int, viewer: int | None = None) -> tuple[int | None, list[float]]:
    """The driver's shown rating in `game` (OpenSkill, `bot/services/career/ratings.py`) and its trend for
    the card: the shown rating after each of their latest rated events, oldest first. Seen from
    another server (`viewer`: its guild id), only when `/ratings` there or the world list may name
    the driver (`shown_rating_tx`): a rating made in a private league of another server is not
    shown to a server the driver never drove in. (None, []): no rating (yet) to show."""
    current = await shown_rating_tx(tx, game, user_id, viewer)
    if current is None:
        return None, []
    trend = [float(display_rating(h.mu, h.sigma)) for h in await history_tx(tx, user_id, game)]
    return display_rating(current.mu, current.sigma), trend


# -- from a rally's log to its career rows ------------------------------------------------------------

def specials_of(rally: Rally) -> list[str]:
    """The stages a rally drives in order (a course of several, or its one stage)."""
    modules = rally.modules if isinstance(rally.modules, dict) else {}
    planned = (modules.get("course") or {}).get("specials") if isinstance(modules.get("course"), dict) else None
    return [str(s) for s in planned] if planned else [rally.stage]


def is_run(rally: Rally) -> bool:
    """A championship run (a rally of one car for a league round or the world scratch)."""
    return isinstance(rally.modules, dict) and "run" in rally.modules


def replay_tally(rally: Rally, drivers: list[dict[str, Any]], actions: list[dict[str, Any]]
                 ) -> tuple[Counters, Outcome | None, list[str], dict[str, list[int]]]:
    """(counters per seat summed over the log, the outcome at its end, the start order: every seat
    the game was set up with, first to drive first, and each seat's time on each special it
    crossed the line of, in order), replayed.

    A rally whose log no longer gives its stored snapshot (`replay.Drift`) still has its drivers'
    results: the outcome is the stored state's, what they saw; the counters and the specials'
    times are the replay's up to the entry it refused (a warning names the rally, `db check`
    lists it)."""
    game = games.get(rally.game)
    row = {**rally.as_dict(), "drivers": drivers}
    counters: Counters = {}
    state: Any = None
    order: list[str] = []
    ends: dict[str, dict[int, int]] = {}  # seat → special number → its time so far over the rally there
    replayed = replay_checked(row, actions, rally.snapshot, with_setup=True)
    for state, events in replayed:
        if state is not None and not order:
            order = [str(s) for s in game.narrator.start_order(game.rules.view(state, None))]
        if events and game.career is not None:
            merge(counters, game.career.tally(events))
        if state is not None and game.ghosts is not None:
            special_ends(game.ghosts.ghost_marks(game.rules.view(state, None)), ends)
    if replayed.drift is not None and rally.snapshot is not None:
        log.warning("rally %s diverged from its log at action %s: its career results are its stored state's (%s)",
                    rally.id, replayed.drift.seq, replayed.drift.detail)
        state = game.rules.from_json(rally.snapshot)
    outcome = game.rules.outcome(state) if state is not None else None
    return counters, outcome, order, {seat: special_times(done) for seat, done in ends.items()}


def special_ends(marks: Mapping[str, GhostMark], ends: dict[str, dict[int, int]]) -> None:
    """Note, for each seat standing exactly at the end of a special (its finish line, or the start
    of the next: a whole `distance`), its time so far: the last state seen there holds the time
    the game's classification gives that special (the board's, as the ghost marks say)."""
    for seat, mark in marks.items():
        if mark.distance is not None and mark.distance >= 1 and float(mark.distance).is_integer():
            ends.setdefault(seat, {})[int(mark.distance)] = mark.time


def special_times(ends: Mapping[int, int]) -> list[int]:
    """Each special's own time from the times so far at the ends of specials 1, 2, … (stopping at
    the first one the seat did not finish)."""
    times, before, number = [], 0, 1
    while number in ends:
        times.append(ends[number] - before)
        before, number = ends[number], number + 1
    return times


def career_rows(rally: Rally, drivers: list[dict[str, Any]], actions: list[dict[str, Any]]) -> list[CareerResult]:
    """One row per human driver of an ended rally (none for a rally that never started). A run is
    alone in its rally: its row waits for its round's close to be placed (`place_round_tx`)."""
    game = games.get(rally.game)
    if not actions:
        return []
    counters, outcome, order, times = replay_tally(rally, drivers, actions)
    results = {r.seat: r for r in outcome.seats} if outcome is not None else {}
    winner = next((r.score for r in outcome.seats if r.rank == 1 and r.score is not None), None) if outcome else None
    specials = specials_of(rally)
    seats = len(order)  # who drove: a driver who left the lobby before the start is no seat
    run = is_run(rally)
    ended_at = str(actions[-1]["created_at"])
    places = [r.rank if r.status == "finished" and r.score is not None else None
              for r in (results.get(seat) for seat in order) if r is not None]
    places += [None] * (seats - len(places))  # a seat the outcome does not rank: behind every placed car
    rows = []
    for seat in order:
        if not seat.lstrip("-").isdigit() or int(seat) <= 0:  # an AI seat: no career
            continue
        user_id = int(seat)
        result = results.get(seat)
        classified = result is not None and result.status == "finished" and result.score is not None
        score = result.score if classified and result is not None else None
        gap = abs(score - winner) if score is not None and winner is not None and seats > 1 else None
        crossed = times.get(seat) or ([score] if score is not None and len(specials) == 1 else [])
        rows.append(CareerResult(
            rally_id=rally.id, user_id=user_id, game=game.id, guild_id=rally.guild_id,
            stage=specials[0] if len(specials) == 1 else None, seats=seats,
            status="finished" if classified else "dnf",
            place=result.rank if classified and result and not run else None,
            score=score, unit=game.rules.result.unit, gap=gap,
            started_last=seats > 1 and bool(order) and order[-1] == seat,
            counters={k: n for k, n in sorted(counters.get(seat, {}).items()) if is_key(k)}, ended_at=ended_at,
            specials=tuple(zip(specials, crossed)),
            behind=behind_of(result.rank, places) if classified and result and not run else None))
    return rows


# -- a round's or a week's places --------------------------------------------------------------------

async def place_round_tx(tx: Tx, round_id: int, now: datetime | None = None) -> int:
    """Recompute the careers a round touched: each run driven in it placed as the round now
    classifies it (status, place among the whole field, score after penalties, gap to the winner).

    Call it inside any transaction that writes a closed round's results: its close (done here,
    `round_close.close_round`), a judgement (a penalty, a disqualification, and their withdrawal),
    and the world week's close. A league round reads its stored results (`round_results`); a
    world week ranks every official run of its game and week, on any server. An official run of
    the week is placed in its world week only (a league round on the week's stage places nothing:
    one performance counts once, as for ratings). A run of a round not closed (yet, or cancelled)
    keeps its unplaced row. With `now`, the achievements the new places earn (a win, a podium) are
    recorded then and announced: a league round's in its channel, a week's in each run's thread;
    without it (the rebuild) achievements are left as they are. Idempotent. Returns how many rows
    it placed."""
    rnd = await round_tx(tx, round_id)
    if rnd is None or rnd.status != "closed" or (rnd.league_id is not None and rnd.week is not None):
        return 0
    kind = games.get(rnd.game).rules.result
    placed: list[tuple[int, int, str]] = []  # (rally, driver, name) of each row placed
    if rnd.league_id is None:
        if rnd.week is None:
            return 0
        field = await week_rallies_tx(tx, rnd.game, rnd.week)
        timed = sorted(((uid, score) for _, uid, status, score, _ in field
                        if status == "finished" and score is not None), key=lambda f: kind.key(f[1]))
        ranks = dict(zip((uid for uid, _ in timed), shared_ranks([kind.key(score) for _, score in timed])))
        best = timed[0][1] if timed else None
        places = [ranks.get(uid) for _, uid, _, _, _ in field]  # not finished: no rank
        for rally, uid, status, score, name in field:
            done = status == "finished" and score is not None
            gap = abs(score - best) if done and score is not None and best is not None and len(field) > 1 else None
            place = ranks.get(uid) if done else None
            if await place_result_tx(tx, rally, uid, len(field), "finished" if done else "dnf",
                                     place, score if done else None, gap, behind_of(place, places)):
                placed.append((rally, uid, name))
    else:
        results = {r.user_id: r for r in await results_of_round_tx(tx, round_id)}
        runs = [r for r in await runs_of_round_tx(tx, round_id) if r.rally_id is not None]
        tables = not games.get(rnd.game).library.solo_runs  # a table game: each table (its rally) is its own field
        for run in runs:
            assert run.rally_id is not None
            mine = results.get(run.user_id)
            if mine is None:
                continue
            mates = [r for r in runs if r.rally_id == run.rally_id]
            entrants = [results[r.user_id] for r in mates if r.user_id in results] if tables \
                else list(results.values())
            scores = [r.score for r in entrants if r.status == "classified" and r.score is not None]
            best = min(scores, key=kind.key, default=None)
            ranked = mine.status == "classified" and mine.score is not None
            gap = abs(mine.score - best) if ranked and mine.score is not None and best is not None \
                and len(entrants) > 1 else None
            status = "finished" if ranked else ("dsq" if mine.status == "dsq" else "dnf")
            places = [r.position if r.status == "classified" and r.score is not None else None for r in entrants]
            place = mine.position if ranked else None
            if await place_result_tx(tx, run.rally_id, run.user_id, max(len(entrants), 1), status,
                                     place, mine.score if ranked else None, gap, behind_of(place, places)):
                placed.append((run.rally_id, run.user_id, run.display_name))
    if now is not None and placed:
        await _announce_placed_tx(tx, rnd.league_id, placed, now)
    return len(placed)


async def _announce_placed_tx(tx: Tx, league_id: int | None, placed: Sequence[tuple[int, int, str]],
                              now: datetime) -> None:
    """The achievements the placed rows earn, recorded and announced (see `place_round_tx`). A
    place adds only wins and podiums to a career (the rest was counted at the run's end): the
    top three's rows alone are read again (a win or a podium: first places tied with nobody
    behind are wins, not podiums), so a week of thousands of runs costs a few reads."""
    names = {uid: name for _, uid, name in placed}
    ours = {(rally, uid) for rally, uid, _ in placed}
    rows = [r for r in await top_three_tx(tx, sorted({rally for rally, _ in ours}))
            if (r.rally_id, r.user_id) in ours and (won(r) or podium(r))]
    league = await league_tx(tx, league_id) if league_id is not None else None
    if league is not None:
        lines = await earned_lines_tx(tx, rows, names, shipped(), now)
        if lines:
            await league_post_tx(tx, league, Post(lines), now)
        return
    for row in rows:  # a world week: in each run's own thread, where its finish was told
        lines = await earned_lines_tx(tx, [row], names, shipped(), now)
        found = await rally_log_tx(tx, row.rally_id) if lines else None
        if found is not None:
            rally = found[0]
            await post_tx(tx, for_rally(Post(lines), rally), rally.guild_id, rally.channel_id, now, rally.id,
                          language_of_rally(rally))


def finished(row: CareerResult) -> bool:
    """A finish: a classified result over the finish line (a game that also ranks cars that did
    not cross it says which did: its `crossed` counter)."""
    return row.status == "finished" and row.counters.get("crossed", 1) > 0


def won(row: CareerResult) -> bool:
    """A win: first of a rally of several cars (a run is alone in its rally: its round ranks it)."""
    return row.status == "finished" and row.place == 1 and row.seats > 1


def behind_of(place: int | None, places: Sequence[int | None]) -> int | None:
    """How many of a field's `places` (None: not finished, disqualified) are behind `place`: a
    worse place or none (None when `place` is None: not placed). Tied places are not behind."""
    if place is None:
        return None
    return sum(1 for other in places if other is None or other > place)


def podium(row: CareerResult) -> bool:
    """A podium: a top-three place ahead of at least one car (second of two is last, not a podium;
    two tied first of two are ahead of nobody). A row written before careers kept `behind` is
    read by its place alone, as it was then."""
    if row.status != "finished" or row.place is None or row.place > 3:
        return False
    ahead = row.behind if row.behind is not None else row.seats - row.place
    return ahead > 0


def totals_of(rows: Sequence[CareerResult]) -> Totals:
    return Totals(rallies=len(rows), finishes=sum(finished(r) for r in rows),
                  stages=sum(r.counters.get("stages", 0) for r in rows), wins=sum(won(r) for r in rows),
                  podiums=sum(podium(r) for r in rows), games=len({r.game for r in rows}),
                  won_games=frozenset(r.game for r in rows if won(r)))


def better(unit: str, score: int, than: int | None) -> bool:
    """Whether `score` beats `than` (None: nothing to beat), the way of the unit (seconds: fewer)."""
    return than is None or (score < than if unit == "s" else score > than)


def bests_of(rows: Sequence[CareerResult]) -> dict[str, int]:
    """The best time (or score) on each stage over `rows`: every special crossed, of any rally
    (one of several specials too, and one of a rally not finished), its own time on that special."""
    bests: dict[str, int] = {}
    for r in rows:
        for stage, time in r.specials:
            if better(r.unit, time, bests.get(stage)):
                bests[stage] = time
    return bests


def stats_of(rows: Sequence[CareerResult]) -> dict[str, Any]:
    """A driver's stats in one game from their results: rallies, stages, wins, podiums, DNFs,
    losses of control per 100 turns (None: the game counts none), favourite gear (None: no gears),
    best score per stage, the average gap to the winner (None: never raced against anyone)."""
    summed: dict[str, int] = {}
    for r in rows:
        for key, n in r.counters.items():
            summed[key] = summed.get(key, 0) + n
    turns = summed.get("turns", 0)
    per_100 = round(100 * summed["losses"] / turns, 1) if "losses" in summed and turns else None
    gaps = [r.gap for r in rows if r.gap is not None]
    bests = bests_of(rows)
    return {"rallies": len(rows), "stages": summed.get("stages", 0), "wins": sum(won(r) for r in rows),
            "podiums": sum(podium(r) for r in rows), "dnfs": sum(r.status == "dnf" for r in rows),
            "dsqs": sum(r.status == "dsq" for r in rows), "finishes": sum(finished(r) for r in rows),
            "turns": turns, "losses_per_100": per_100, "favourite_gear": favourite_gear(summed),
            "has_losses": "losses" in summed, "has_gears": "top" in summed,  # what the game counts at all
            "bests": bests, "average_gap": round(statistics.fmean(gaps), 1) if gaps else None}


async def met_tx(tx: Tx, row: CareerResult, achievements: Sequence[Achievement]) -> list[Achievement]:
    """The achievements whose condition holds for the driver of `row` after it (their career
    totals, every game and server, and that rally's facts)."""
    everything = await results_tx(tx, row.user_id)
    before = bests_of([r for r in everything if r.game == row.game and r.rally_id != row.rally_id])
    beat = any(stage in before and better(row.unit, time, before[stage]) for stage, time in row.specials)
    facts = RallyFacts(game=row.game, finished=finished(row), won=won(row),
                       started_last=row.started_last, counters=row.counters, beat_best=beat)
    return newly_met(achievements, totals_of(everything), facts)


async def earned_lines_tx(tx: Tx, rows: Sequence[CareerResult], names: Mapping[int, str],
                          achievements: Sequence[Achievement], now: datetime) -> list[str]:
    """Record what the drivers of `rows` earned (each achievement once: the store's key), where
    (the row's server and rally) and when; the announcement's lines of those earned now."""
    lines = []
    for row in rows:
        for achievement in await met_tx(tx, row, achievements):
            if await earn_tx(tx, row.user_id, achievement.id, row.game, row.guild_id, row.rally_id, to_text(now)):
                name_key, about_key = keys_of(achievement.id)
                lines.append(msg("career.earned", name=names.get(row.user_id, "?"), achievement=msg(name_key),
                                 about=msg(about_key)))
    return lines


# -- the service ----------------------------------------------------------------------------------------

class CareerService:
    """The end hook that keeps careers, `driver` (the `/driver` card) and `rebuild`."""

    def __init__(self, work: RallyWork, achievements: Sequence[Achievement] | None = None) -> None:
        self.work = work
        self.store = work.store
        self.achievements = tuple(achievements) if achievements is not None else shipped()
        work.end_hooks.append(self.on_rally_end)

    async def on_rally_end(self, tx: Tx, rally: Rally, change: Change, ended: str) -> None:
        """Inside the transaction that ends the rally: its drivers' career rows, the achievements
        they earned, and their announcements. An abandoned rally counts only if it is a run (its
        driver's DNF); a live rally a host abandoned counts for nobody."""
        if ended == "abandoned" and not is_run(rally):
            return
        found = await rally_log_tx(tx, rally.id)
        if found is None:
            return
        current, drivers, _ = found
        rows = self._rows(found)
        if not rows:
            return
        await put_results_tx(tx, rows)
        names = {d.user_id: d.display_name for d in drivers}
        now = self.work.clock()
        lines = await earned_lines_tx(tx, rows, names, self.achievements, now)
        if lines:  # one post after the results: every driver's new achievements, each once
            await post_tx(tx, for_rally(Post(lines), current), current.guild_id, current.channel_id, now, current.id,
                          language_of_rally(current))

    @staticmethod
    def _rows(found: tuple[Rally, list[Driver], list[Action]]) -> list[CareerResult]:
        rally, drivers, actions = found
        try:
            return career_rows(rally, [d.as_dict() for d in drivers], [a.as_dict() for a in actions])
        except Exception:  # a career never keeps a rally from ending: `db check` reports a bad log
            log.exception("career stats of rally %s could not be replayed", rally.id)
            return []

    async def rebuild(self) -> int:
        """Write every career row again from the ended rallies' logs, then place the runs of every
        closed round (achievements are kept: they are history); returns the number of rows.
        `python -m bot db careers --rebuild`."""
        async def body(tx: Tx) -> int:
            await clear_results_tx(tx)
            count = 0
            for rally_id in await ended_rallies_tx(tx):
                found = await rally_log_tx(tx, rally_id)
                if found is None or (found[0].status == "abandoned" and not is_run(found[0])):
                    continue
                rows = self._rows(found)
                await put_results_tx(tx, rows)
                count += len(rows)
            for round_id in await closed_rounds_tx(tx):  # the runs placed as their rounds classified them
                await place_round_tx(tx, round_id)
            return count

        return await self.store.db.write(body)

    # -- /driver -----------------------------------------------------------------------------------------

    async def driver(self, place: Place, actor: Actor, target_id: int | None, target_name: str | None,
                     game: str | None, lang: str, renderer: Renderer | None) -> Reply:
        """`/driver [user] [game]`: the driver's career card (the asker's own by default), privately:
        one's own card shows everything, another driver's what this server may see. No history: a
        clear private answer, nothing changed."""
        user_id = actor.user_id if target_id is None else target_id
        name = display_name(actor.name if target_id is None else (target_name or str(target_id)))
        chosen = games.get(game).id if game is not None and str(game).strip() else None  # unknown: refused
        if user_id <= 0:
            raise ServiceError("career.no_history", name=name)

        # the driver's own card (a private answer to them alone) shows all of it; another's, what this
        # server may see
        viewer = None if user_id == actor.user_id else place.guild_id

        async def read(tx: Tx) -> tuple[list[CareerResult], list[Any], str, int | None, list[float]]:
            rows = await results_tx(tx, user_id, None, viewer)
            if not rows:
                raise ServiceError("career.no_history", name=name)
            played = chosen or rows[-1].game  # the game of their latest visible rally
            mine = [r for r in rows if r.game == played]
            if not mine:
                raise ServiceError("career.no_history_game", name=name, game=msg(games.get(played).library.name))
            rating, trend = await career_rating(tx, played, user_id, viewer)
            return mine, await earned_tx(tx, user_id, viewer), played, rating, trend

        rows, earned, played, rating, trend = await self.store.db.read(read)
        spec = {"kind": "career", "card": card_data(name, games.get(played), rows, earned, self.achievements,
                                                    rating, trend)}
        stats = stats_of(rows)
        lines = [msg("career.reply", name=name, game=msg(games.get(played).library.name), rallies=stats["rallies"],
                     wins=stats["wins"])]
        files: tuple[tuple[str, bytes], ...] = ()
        if renderer is not None:
            files = ((image_name(spec), await draw_async(renderer, spec, lang)),)
        return Reply(lines, ephemeral=True, files=files, alt=described(files, spec, lang))


# -- the card's data ----------------------------------------------------------------------------------

def _title(game: Game[Any, Any, Any, Any], stage: str | None) -> str:
    if stage is None:
        return msg("career.course")
    try:
        return game.library.stages.facts(stage).title
    except Exception:  # a stage no longer shipped: its name
        return stage


def _score(game: Game[Any, Any, Any, Any], score: int | None, status: str = "dnf") -> str:
    if score is None:
        return msg("career.dsq" if status == "dsq" else "career.dnf")
    text = format_score(game.rules.result, score)
    return text if game.rules.result.unit == "s" else msg("career.points", points=text)


def _decimal(value: float) -> int | float:
    """A figure of the card with one decimal at most: a whole number as an integer ("50"), else a
    float the reader's language writes its way ("16,7": `bot.i18n`)."""
    return int(value) if float(value).is_integer() else float(value)


def card_data(name: str, game: Game[Any, Any, Any, Any], rows: Sequence[CareerResult], earned: Sequence[Any],
              achievements: Sequence[Achievement], rating: int | None, trend: Sequence[float]) -> dict[str, Any]:
    """What the career card shows, as JSON with its texts as message keys (drawn in the reader's
    language, numbers written its way): name, game, rating and its trend, the statistics the game
    has (no gears nor losses of control for a game without them), personal bests, the last
    results, the achievements earned and how many remain."""
    s = stats_of(rows)
    dash = "–"
    gap = s["average_gap"]
    if gap is None:
        gap_text: object = dash
    else:
        gap_text = msg("career.gap_seconds", value=_decimal(gap)) if game.rules.result.unit == "s" else \
            msg("career.points", points=msg("career.decimal", value=_decimal(gap)))
    stats: list[tuple[object, object]] = [
        (msg("career.stat_rallies"), str(s["rallies"])),
        (msg("career.stat_stages"), str(s["stages"])),
        (msg("career.stat_wins"), str(s["wins"])),
        (msg("career.stat_podiums"), str(s["podiums"])),
        (msg("career.stat_dnfs"), str(s["dnfs"])),
    ]
    if s["dsqs"]:
        stats.append((msg("career.stat_dsqs"), str(s["dsqs"])))
    if s["has_losses"]:
        per_100 = s["losses_per_100"]
        losses: object = dash if per_100 is None else msg("career.decimal", value=_decimal(per_100))
        stats.append((msg("career.stat_losses"), losses))
    if s["has_gears"]:
        stats.append((msg("career.stat_gear"), dash if s["favourite_gear"] is None else str(s["favourite_gear"])))
    stats.append((msg("career.stat_gap"), gap_text))
    better = (lambda kv: kv[1]) if game.rules.result.unit == "s" else (lambda kv: -kv[1])
    bests = sorted(s["bests"].items(), key=lambda kv: (better(kv), kv[0]))[:BESTS]
    recent = []
    for r in list(rows)[-RECENT:][::-1]:
        if r.status == "finished":
            where: object = msg("career.not_placed") if r.place is None else \
                msg("career.place", place=r.place, seats=r.seats)
        else:
            where = msg("career.dsq" if r.status == "dsq" else "career.dnf")
        recent.append([to_json(_title(game, r.stage)), to_json(where), to_json(_score(game, r.score, r.status))])
    order = {a.id: i for i, a in enumerate(achievements)}  # earned first first; at once: the data's order
    shown = [e.achievement for e in sorted(earned, key=lambda e: (e.earned_at, order.get(e.achievement, 0)))
             if e.achievement in order]
    known = set(order)
    return {
        "name": name,
        "game": to_json(msg(game.library.name)),
        "rating": rating,
        "trend": [float(v) for v in trend],
        "labels": {key: to_json(msg(f"career.head_{key}")) for key in CARD_HEADS},
        "stats": [[to_json(label), to_json(value)] for label, value in stats],
        "bests": [[to_json(_title(game, stage)), to_json(_score(game, score))] for stage, score in bests],
        "recent": recent,
        "achievements": [to_json(msg(keys_of(a)[0])) for a in shown[:SHOWN_ACHIEVEMENTS]],
        "more_earned": to_json(msg("career.more_earned", count=len(shown) - SHOWN_ACHIEVEMENTS))
        if len(shown) > SHOWN_ACHIEVEMENTS else "",
        "to_earn": to_json(msg("career.to_earn", count=len(known) - len(shown))),
    }


#: the card's headings: `career.head_<key>` (a test checks each in EN, FR and DE)
CARD_HEADS = ("rating", "no_rating", "stats", "bests", "recent", "achievements", "none_yet")
