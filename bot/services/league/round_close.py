"""Closing a round, cancelling one, and judging (penalties, disqualifications): everything that
writes a round's results, in one transaction each, under the round's lock (callers hold it).

At the close: the runs still in progress become DNF (their rallies are ended with a logged
`status abandoned` by the bot), the classification is computed with penalties, disqualifications,
points and the power-stage bonus (`bot/services/league/points.py`), stored in `round_results`, the
result cards of the finished runs are stored (`bot/services/world/cards.py`), and the league channel is
owed two posts: the results (text, image, cards file, the seed revealed) and the season standings.
A penalty or a disqualification on a closed round recomputes its results the same way, so the
standings (a sum over `round_results`) follow at once. The close applies the round's ranking to
the drivers' ratings in its transaction, and a judgement replays them from that round on
(`bot/services/career/ratings.py`).

The runs of a round are those driven in it and those answering it (a driver's official run of
the week driven in the world round or another league: `bot/services/league/official_runs.py`). The
close ends only the rallies driven in the round; an answering run still being driven counts as
not finished, and its card (when finished) is the card of the round that drove it, naming this
round in `counts_for`; the round's SHA-256 in the results post binds that round's header too
(`bot.services.world.cards.binding_tx`).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Protocol

from bot import games
from bot.engine.core.log import Status, lifecycle_text
from bot.engine.core.scores import format_score, format_time
from bot.engine.core.text import Listed, msg
from bot.render.table import MAX_COLUMNS, Column, TableRow, TableView, plain
from bot.services.career.careers import place_round_tx
from bot.services.career.ratings import rate_closed_round_tx, rerate_round_tx
from bot.services.errors import ServiceError
from bot.services.images import table_spec
from bot.services.league.points import (
    Classified,
    Entry,
    RoundScore,
    Standing,
    classify_round,
    classify_tables,
    standings,
)
from bot.services.league.round_kit import (
    league_post_tx,
    plural,
    renumber_tx,
    renumbered_line,
    round_title,
    specials_text,
)
from bot.services.league.table_games import finish_tables_tx, is_table_game
from bot.services.play.provisional import any_provisional, provisional_lines
from bot.services.reply import Actor, Reply
from bot.services.web_links import link_lines_tx
from bot.services.work import Change, Logged, Post, RallyWork, TxStep
from bot.services.world.cards import binding_tx, cards_file
from bot.store.connection import Tx
from bot.store.jobs import cancel_round_jobs_tx
from bot.store.leagues import (
    League,
    LogEntry,
    Result,
    Round,
    Run,
    clear_results_tx,
    counted_runs_tx,
    finish_run_tx,
    league_tx,
    link_answers_tx,
    log_of_round_tx,
    log_tx,
    logs_of_round_tx,
    put_cards_tx,
    results_of_league_tx,
    results_of_round_tx,
    round_tx,
    rounds_of_league_tx,
    runs_of_round_tx,
    set_round_status_tx,
    write_results_tx,
)
from bot.store.rallies import find_tx

TABLE_ROWS = 50  # rows drawn in a results or standings image (the cards file has every run)
TEXT_ROWS = 10  # rows written in the results post


@dataclass(frozen=True)
class Judged:
    """A round's penalties (seconds per driver) and disqualifications (reason per driver)."""

    penalties: dict[int, int]
    disqualified: dict[int, str]
    log: list[LogEntry]


#: The log's judging actions: a penalty, a disqualification, and the corrections of either (each
#: naming the entry it corrects: `LogEntry.corrects`).
JUDGING = ("penalty", "disqualify", "penalty_change", "penalty_withdraw", "dsq_lift")


def judged(log: list[LogEntry]) -> Judged:
    """A round's judging as its log says it: a penalty or a change counts unless a later entry
    corrects it (a change replaces the entry it corrects, a withdrawal removes it); a
    disqualification counts unless lifted."""
    corrected = {e.corrects for e in log if e.corrects is not None and e.action in JUDGING}
    penalties: dict[int, int] = {}
    dsq: dict[int, str] = {}
    for entry in log:
        if entry.target_id is None or entry.id in corrected:
            continue
        if entry.action in ("penalty", "penalty_change"):
            penalties[entry.target_id] = penalties.get(entry.target_id, 0) + (entry.seconds or 0)
        elif entry.action == "disqualify":
            dsq[entry.target_id] = entry.reason
    return Judged(penalties, dsq, [e for e in log if e.action in JUDGING])


def entries_of(runs: list[Run], tables: bool = False) -> list[Entry]:
    """The runs as the classification reads them; `tables`: a table game's round, each run's
    table numbered by its rally in the order the tables were made (1, 2, …)."""
    numbers = {rally: n for n, rally in enumerate(sorted({r.rally_id for r in runs if r.rally_id is not None}), 1)}
    return [Entry(r.user_id, r.display_name, r.status, r.score, r.power_s, r.reason,
                  numbers.get(r.rally_id) if tables and r.rally_id is not None else None) for r in runs]


def result_rows(rnd: Round, league: League, classified: list[Classified]) -> list[Result]:
    unit = games.get(rnd.game).rules.result.unit
    return [Result(rnd.id, league.id, c.user_id, c.name, c.position, c.score, c.penalty_s, c.status, c.reason,
                   c.points, c.bonus, unit) for c in classified]


#: Why a driver of a round has no time, in the league's words: a run not finished at the close, abandoned,
#: or an older result's reason; the engine's reasons (a run's `damage_ko` …) read as `out_reason_word`.
LEAGUE_REASON_WORDS = {"knocked_out": "league.reason_knocked_out", "retired": "league.reason_retired",
                       "not_finished": "league.reason_not_finished", "abandoned": "league.reason_abandoned",
                       "cancelled": "league.reason_cancelled"}


def reason_text(reason: str | None) -> str:
    """A DNF's reason in words; anything else (a steward's reason for a DSQ) as written."""
    if reason in LEAGUE_REASON_WORDS:
        return msg(LEAGUE_REASON_WORDS[reason])
    game = games.get(None)  # every league so far drives classic (a round's `game` comes with the store's)
    if reason in game.library.out_reasons:
        return game.narrator.out_reason(reason)
    return reason or ""


def results_table(title: str, stage: str, classified: list[Classified], judged_: Judged,
                  seed: str | None, provisional: list[str] | None = None, game: str | None = None) -> TableView:
    """The round card: its title, the stage (or course) and the drivers under it, one row per
    driver; a DNF or DSQ row gives its reason in full under the name (wrapped, never cut). A
    table game's round (`game`) shows each driver's table and score (VP) instead of times."""
    if is_table_game(game):
        kind = games.get(game).rules.result

        def table_cells(c: Classified, out: str | None) -> tuple[str, str, str, str]:
            table = str(c.table) if c.table is not None else ""
            if out is not None:
                return (table, out, "", "0")
            return (table, format_score(kind, c.score or 0), f"-{c.penalty_s}" if c.penalty_s else "", str(c.points))

        return _round_card(title, stage, classified, seed, provisional, table_cells,
                           (Column(label=msg("league.col_table"), align="c", weight=1.5),
                            Column(label=msg("league.col_vp"), align="r", weight=2)))
    return _round_card(title, stage, classified, seed, provisional, _time_cells,
                       (Column(label=msg("league.col_time"), align="r", weight=2),
                        Column(label=msg("league.col_gap"), align="r", weight=2)))


def _time_cells(c: Classified, out: str | None) -> tuple[str, str, str, str]:
    """A game of times' cells after the driver: time, gap, penalty, points (with the power-stage
    bonus); an out driver's `out` word stands in the time."""
    if out is not None:
        return (out, "", "", "0")
    points = str(c.points) + (f" +{c.bonus}" if c.bonus else "")
    return (format_time(c.time_s or 0), f"+{format_time(c.gap_s or 0)}",
            f"+{c.penalty_s} s" if c.penalty_s else "", points)


def _round_card(title: str, stage: str, classified: list[Classified], seed: str | None,
                provisional: list[str] | None, cells: Callable[[Classified, str | None], tuple[str, str, str, str]],
                middle: tuple[Column, Column]) -> TableView:
    """What every round card shares: position and driver first, the game's two `middle` columns,
    penalty and points last; a DNF or DSQ row muted with its reason under the name (`cells` get
    its word); the seed note and the count under the title."""
    columns = (Column(label=msg("league.col_pos"), align="c", weight=1),
               Column(label=msg("league.col_driver"), weight=5),
               *middle,
               Column(label=msg("league.col_penalty"), align="r", weight=2),
               Column(label=msg("league.col_points"), align="r", weight=2))
    rows = []
    for c in classified[:TABLE_ROWS]:
        if c.status == "classified":
            rows.append(TableRow(cells=(str(c.position), plain(c.name), *cells(c, None))))
        else:
            label = msg("league.dsq") if c.status == "dsq" else msg("league.dnf")
            rows.append(TableRow(cells=("—", plain(c.name), *cells(c, label)),
                                 detail=plain(reason_text(c.reason)), muted=True))
    note = msg("league.seed_note", seed=seed[:16]) if seed else ""
    count = len(classified)
    sub = Listed([stage, msg("league.results_sub." + plural(count), n=count), *(provisional or [])], how="dot")
    return TableView(title=title, subtitle=sub, columns=columns, rows=tuple(rows), note=note)


#: round columns of the standings card at most (the latest rounds): the table has MAX_COLUMNS (a
#: table game's card one round fewer: it has one more column, the VP)
STANDINGS_ROUNDS = MAX_COLUMNS - 4


def league_standings(league: League, scores: list[RoundScore]) -> list[Standing]:
    """The season's standings of `league`, the one ranking its card, its export and its web page
    show: the game's own direction of scores, a table game's points tie broken by its score (VP)
    first."""
    return standings(scores, league.best_rounds, games.get(league.game).rules.result,
                     score_first=is_table_game(league.game))


def standings_table(league: League, scores: list[RoundScore], numbers: dict[int, int],
                    provisional: list[str] | None = None) -> TableView:
    """The season card: one column per closed round (`numbers`: round id → its number; the latest
    STANDINGS_ROUNDS when there are more) with each driver's points there, a dropped round struck
    through, the total and the wins; the footer says which rounds count and how ties are broken."""
    tables = is_table_game(league.game)  # a table game's points tie broken by the score (VP) first
    table = league_standings(league, scores)
    played = sorted({s.round_id for s in scores}, key=lambda r: (numbers.get(r, 0), r))
    shown_rounds = played[-(STANDINGS_ROUNDS - 1 if tables else STANDINGS_ROUNDS):]
    columns = (Column(label=msg("league.col_pos"), align="c", weight=1),
               Column(label=msg("league.col_driver"), weight=4),
               *(Column(label=msg("league.col_round", number=numbers.get(r, "?")), align="r", weight=1.2)
                 for r in shown_rounds),
               Column(label=msg("league.col_points"), align="r", weight=1.6),
               *((Column(label=msg("league.col_vp"), align="r", weight=1.2),) if tables else ()),
               Column(label=msg("league.col_wins"), align="r", weight=1.2))
    rows = []
    for s in table[:TABLE_ROWS]:
        per_round = tuple(str(s.scores[r]) if r in s.scores else "—" for r in shown_rounds)
        struck = tuple(2 + i for i, r in enumerate(shown_rounds) if r in s.dropped_rounds)
        vp = (str(s.score),) if tables else ()  # a table game: the total VP the ties are broken by
        rows.append(TableRow(cells=(str(s.position), plain(s.name), *per_round, str(s.points), *vp, str(s.wins)),
                             struck=struck))
    rule = standings_rule(league)
    count = len(played)
    subtitle = msg("league.standings_sub." + plural(count), n=count)
    return TableView(title=msg("league.standings_title", league=league.name),
                     subtitle=Listed([subtitle, *provisional], how="dot") if provisional else subtitle, columns=columns,
                     rows=tuple(rows),
                     note=Listed([rule, msg("league.rule_ties_vp" if tables else "league.rule_ties")], how="space"))


def standings_rule(league: League) -> str:
    """Which rounds count in the league's standings (its best N, or all): under the standings card
    and on the web page's league."""
    return (msg("league.rule_best." + plural(league.best_rounds), n=league.best_rounds) if league.best_rounds
            else msg("league.rule_all"))


def scores_of(results: list[Result]) -> list[RoundScore]:
    return [RoundScore(r.round_id, r.user_id, r.display_name, r.position, r.score, r.points, r.bonus)
            for r in results]


#: How each judging entry of the log reads under a round's results (the trail of its corrections).
LOG_LINES = {"penalty": "league.log_penalty", "disqualify": "league.log_dsq",
             "penalty_change": "league.log_penalty_change", "penalty_withdraw": "league.log_penalty_withdraw",
             "dsq_lift": "league.log_dsq_lift"}


def results_lines(title: str, classified: list[Classified], judged_: Judged, rnd: Round, names: dict[int, str],
                  late: list[str], digest: str | None = None) -> list[str]:
    """The results post's text; `digest`: the round's SHA-256 its cards carry (`cards.binding_tx`)."""
    lines = list(late) + [msg("league.closed_head", title=title)] + provisional_lines(rnd.game, rnd.ruleset)
    tables = is_table_game(rnd.game)
    if tables and not classified:
        lines.append(msg("league.closed_no_tables"))
    for c in classified[:TEXT_ROWS]:
        if c.status == "classified" and tables:
            lines.append(msg("league.table_result_line", pos=c.position, name=c.name, table=c.table or "—",
                             score=format_score(games.get(rnd.game).rules.result, c.score or 0), points=c.points))
        elif c.status == "classified":
            lines.append(msg("league.result_line", pos=c.position, name=c.name, time=format_time(c.time_s or 0),
                           gap=format_time(c.gap_s or 0), points=c.points,
                           bonus=msg("league.bonus", n=c.bonus) if c.bonus else ""))
    if len(classified) > TEXT_ROWS:
        lines.append(msg("league.more_rows", n=len(classified) - TEXT_ROWS))
    for entry in judged_.log:
        who = names.get(entry.target_id or 0, str(entry.target_id))
        lines.append(msg(LOG_LINES[entry.action], name=who, seconds=entry.seconds, reason=entry.reason,
                         by=f"<@{entry.actor_id}>"))
    lines.append(msg("league.seed_reveal_tables" if tables else "league.seed_reveal", seed=rnd.seed,
                     hash=rnd.seed_hash))
    if digest is not None:
        lines.append(msg("league.round_digest", digest=digest))
    return lines


def stored_classification(rnd: Round, stored: list[Result], runs: list[Run] | None = None) -> list[Classified]:
    """A closed round's classification as stored at its close (`round_results`), each score's gap
    to the best the game's way: what `/league results` posts and the web page's round shows. A
    table game's rows say their table (from the round's `runs`)."""
    kind = games.get(rnd.game).rules.result
    best = min((r.score for r in stored if r.score is not None), key=kind.key, default=0)
    table_of = {e.user_id: e.table for e in entries_of(runs, tables=True)} \
        if runs is not None and is_table_game(rnd.game) else {}
    return [Classified(r.user_id, r.display_name, r.status, r.position, r.score, r.penalty_s, r.points, r.bonus,
                       r.reason, abs(r.score - best) if r.score is not None else None, table_of.get(r.user_id))
            for r in stored]


async def _classify_tx(tx: Tx, rnd: Round, league: League) -> tuple[list[Classified], Judged, list[Run]]:
    runs = await counted_runs_tx(tx, rnd.id)
    judged_ = judged(await log_of_round_tx(tx, rnd.id))
    kind = games.get(rnd.game).rules.result
    if is_table_game(rnd.game):  # points by the finishing position in each table
        classified = classify_tables(entries_of(runs, tables=True), judged_.penalties, judged_.disqualified,
                                     league.points, kind)
    else:
        classified = classify_round(entries_of(runs), judged_.penalties, judged_.disqualified, league.points,
                                    rnd.power_stage, kind)
    return classified, judged_, runs


async def _standings_post_tx(tx: Tx, league: League, public_url: str | None = None) -> Post:
    scores = scores_of(await results_of_league_tx(tx, league.id))
    rounds = await rounds_of_league_tx(tx, league.id)
    numbers = {r.id: r.number for r in rounds}
    # its points come from rounds of a provisional ruleset: the standings say so too
    provisional = any_provisional((r.game, r.ruleset) for r in rounds if r.status == "closed")
    link = await link_lines_tx(tx, public_url, league.id)  # the league's web page, when public
    return Post([msg("league.standings_head", league=league.name), *provisional, *link], channel_id=league.channel_id,
                image=table_spec(standings_table(league, scores, numbers, provisional), "standings.png"))


async def close_round(work: RallyWork, round_id: int, now: datetime, late: list[str], finish: TxStep) -> int:
    """Close the round (caller holds its lock): 1 if it closed now, 0 if it was closed already."""
    store = work.store
    rnd = await store.db.read(lambda tx: round_tx(tx, round_id))
    if rnd is None or rnd.status not in ("open", "scheduled"):
        await store.db.write(finish)
        return 0
    runs = await store.db.read(lambda tx: runs_of_round_tx(tx, round_id))
    running = [r for r in runs if r.status == "running" and r.rally_id is not None]
    async with AsyncExitStack() as stack:
        # the rallies still being driven: their drivers' commands wait (a table game's rally once)
        for rally_id in dict.fromkeys(run.rally_id for run in running):
            assert rally_id is not None
            await stack.enter_async_context(work.lock(rally_id))

        async def body(tx: Tx) -> list[int]:
            if not await set_round_status_tx(tx, round_id, ("open", "scheduled"), "closed"):
                await finish(tx)
                return []
            current = await round_tx(tx, round_id)
            assert current is not None
            await link_answers_tx(tx, current)  # the week's official runs driven elsewhere count here
            await finish_tables_tx(tx, work, running)  # a table game still running: played to its end
            for run in running:
                await finish_run_tx(tx, run.id, status="dnf", score=None, unit=run.score_unit, power_s=None,
                                    reason="not_finished", now=now)
                rally = await find_tx(tx, run.rally_id or 0)
                if rally is not None and rally.status in ("lobby", "running"):
                    end = Change(logged=[Logged(lifecycle_text(Status("abandoned")), None, None, "abandoned")],
                                 posts=[Post([msg("run.closed_dnf")], close_turn=True)], end_turn_clock=True)
                    await work.write(tx, rally, end)
            ids = await _results_posts_tx(tx, work, current, late, now)
            await rate_closed_round_tx(tx, current, now)  # careers: in the same transaction
            await place_round_tx(tx, current.id, now)  # its runs in their drivers' careers, placed
            await finish(tx)
            return ids

        ids = await store.db.write(body)
    if ids:
        work.wake()
    return 1 if ids else 0


async def _results_posts_tx(tx: Tx, work: RallyWork, rnd: Round, late: list[str], now: datetime) -> list[int]:
    """Inside `tx`: results, cards and standings of a round that just closed; the posts' ids."""
    league = await league_tx(tx, rnd.league_id) if rnd.league_id is not None else None
    runs = await counted_runs_tx(tx, rnd.id)
    logs = await logs_of_round_tx(tx, rnd.id)
    league_name = league.name if league else None
    tables = is_table_game(rnd.game)
    # A table game's seats share one game: no result card replays one seat alone yet, so a table
    # round publishes no cards (and says no "check any run") rather than cards that do not verify.
    binding = None if tables else await binding_tx(tx, rnd, league_name, runs)
    if binding is not None:
        await put_cards_tx(tx, rnd.id, cards_file(rnd, league_name, runs, logs, binding))
    if league is None:
        return [-1]  # a world round: its ranking is a query on runs; the scratch jobs post it
    classified, judged_, runs = await _classify_tx(tx, rnd, league)
    await write_results_tx(tx, result_rows(rnd, league, classified))
    title = round_title(rnd, league.name)
    names = {r.user_id: r.display_name for r in runs}
    link = await link_lines_tx(tx, work.public_url, league.id, rnd.id)  # the round's web page, when public
    results = Post(results_lines(title, classified, judged_, rnd, names, late,
                                 binding.digest if binding is not None else None) + link,
                   channel_id=league.channel_id,
                   image=table_spec(results_table(title, specials_text(rnd.specials, rnd.game), classified, judged_,
                                                  rnd.seed, provisional_lines(rnd.game, rnd.ruleset), rnd.game),
                                    "results.png"),
                   attach=None if tables else cards_attachment(rnd))
    standing = await _standings_post_tx(tx, league, work.public_url)
    return [await league_post_tx(tx, league, results, now),
            await league_post_tx(tx, league, standing, now)]


def cards_attachment(rnd: Round) -> dict[str, object]:
    """The results post's cards file, read from the round's stored cards when it is sent."""
    return {"kind": "cards", "round_id": rnd.id, "name": f"round-{rnd.number}-cards.json"}


async def cancel_round(svc: LeagueLike, league: League, round_id: int, actor: Actor, reason: str) -> Reply:
    """Cancel a scheduled or open round (caller holds its lock): jobs go, runs in progress end."""
    work, now = svc.work, svc.clock()
    rnd = await work.store.db.read(lambda tx: round_tx(tx, round_id))
    if rnd is None or rnd.status not in ("scheduled", "open"):
        raise ServiceError("league.cannot_cancel", number=rnd.number if rnd else "?",
                           status=msg(f"league.status_{rnd.status}") if rnd else "—")
    runs = await work.store.db.read(lambda tx: runs_of_round_tx(tx, round_id))
    running = [r for r in runs if r.status == "running" and r.rally_id is not None]
    post = Post([msg("league.round_cancelled", title=round_title(rnd, league.name), reason=reason,
                   by=f"<@{actor.user_id}>")], channel_id=league.channel_id)
    async with AsyncExitStack() as stack:
        for rally_id in dict.fromkeys(run.rally_id or 0 for run in running):  # a table game's rally once
            await stack.enter_async_context(work.lock(rally_id))

        async def body(tx: Tx) -> int:
            if not await set_round_status_tx(tx, round_id, ("scheduled", "open"), "cancelled"):
                raise ServiceError("league.cannot_cancel", number=rnd.number, status="—")
            await cancel_round_jobs_tx(tx, round_id)
            for run in running:  # every seat of a table game's rally first: its end hook then records nothing
                await finish_run_tx(tx, run.id, status="dnf", score=None, unit=run.score_unit, power_s=None,
                                    reason="cancelled", now=now)
            for rally_id in dict.fromkeys(run.rally_id or 0 for run in running):
                rally = await find_tx(tx, rally_id)
                if rally is not None and rally.status in ("lobby", "running"):
                    await work.write(tx, rally, Change(
                        logged=[Logged(lifecycle_text(Status("abandoned")), actor.user_id, None, "abandoned")],
                        posts=[Post([msg("run.cancelled")], close_turn=True)], end_turn_clock=True))
            await log_tx(tx, league_id=league.id, round_id=round_id, actor_id=actor.user_id, action="cancel",
                         reason=reason, now=now)
            lines[1:] = renumbered_line((await renumber_tx(tx, league.id))[1])  # no gap where it was
            return await league_post_tx(tx, league, replace(post, lines=list(lines)), now)

        lines = list(post.lines)
        row = await work.store.db.write(body)
    work.wake()
    return Reply(lines, outbox=(row,))


async def judge(svc: LeagueLike, league: League, round_id: int, actor: Actor, action: str, driver_id: int,
                driver_name: str, reason: str, seconds: int | None) -> Reply:
    """A penalty or a disqualification (caller holds the round's lock), logged with who and why; on
    a closed round the results are recomputed and posted again with the standings."""
    work, now = svc.work, svc.clock()
    rnd = await work.store.db.read(lambda tx: round_tx(tx, round_id))
    if rnd is None or rnd.status == "cancelled":
        raise ServiceError("league.round_cancelled_already")
    runs = await work.store.db.read(lambda tx: counted_runs_tx(tx, round_id))
    run = next((r for r in runs if r.user_id == driver_id), None)
    if run is None:
        raise ServiceError("league.no_run_of", name=driver_name, number=rnd.number)
    title = round_title(rnd, league.name)
    if action == "penalty":
        line = msg("league.penalty_given", name=run.display_name, seconds=seconds, title=title, reason=reason,
                 by=f"<@{actor.user_id}>")
    else:
        line = msg("league.dsq_given", name=run.display_name, title=title, reason=reason, by=f"<@{actor.user_id}>")
    post = Post([line], channel_id=league.channel_id)

    async def body(tx: Tx) -> list[int]:
        current = await round_tx(tx, round_id)
        assert current is not None
        if action == "disqualify" and driver_id in judged(await log_of_round_tx(tx, round_id)).disqualified:
            raise ServiceError("league.already_dsq", name=run.display_name)
        await log_tx(tx, league_id=league.id, round_id=round_id, actor_id=actor.user_id, action=action,
                     target_id=driver_id, seconds=seconds, reason=reason, now=now)
        ids = [await league_post_tx(tx, league, post, now)]
        if current.status == "closed":  # recompute the stored results and post them again
            ids += await rejudged_tx(tx, work, league, current, now)
        return ids

    ids = await work.store.db.write(body)
    work.wake()
    return Reply([line], outbox=tuple(ids))


async def rejudged_tx(tx: Tx, work: RallyWork, league: League, rnd: Round, now: datetime) -> list[int]:
    """Inside a judgement or a correction of a closed round (under its lock): its results computed
    again from its runs and its log, the ratings replayed from it on, its cards file written
    again (the same runs, so every card still verifies against the digest posted), and the
    updated results (text, image, cards) and the standings owed to the league's channel."""
    title = round_title(rnd, league.name)
    await clear_results_tx(tx, rnd.id)
    classified, judged_, runs_now = await _classify_tx(tx, rnd, league)
    await write_results_tx(tx, result_rows(rnd, league, classified))
    await rerate_round_tx(tx, rnd)  # the ratings follow the judged results
    await place_round_tx(tx, rnd.id, now)  # and the careers
    tables = is_table_game(rnd.game)  # no cards for a table round (see `_results_posts_tx`)
    binding = None if tables else await binding_tx(tx, rnd, league.name, runs_now)
    if binding is not None:
        await put_cards_tx(tx, rnd.id, cards_file(rnd, league.name, runs_now, await logs_of_round_tx(tx, rnd.id),
                                                  binding))
    names = {r.user_id: r.display_name for r in runs_now}
    updated = Post([msg("league.results_updated", title=title)] +
                   results_lines(title, classified, judged_, rnd, names, [],
                                 binding.digest if binding is not None else None)[1:],
                   channel_id=league.channel_id,
                   image=table_spec(results_table(title, specials_text(rnd.specials, rnd.game), classified, judged_,
                                                  rnd.seed, provisional_lines(rnd.game, rnd.ruleset), rnd.game),
                                    "results.png"),
                   attach=None if tables else cards_attachment(rnd))
    return [await league_post_tx(tx, league, updated, now),
            await league_post_tx(tx, league, await _standings_post_tx(tx, league, work.public_url), now)]


async def standings_post(work: RallyWork, league: League, now: datetime) -> Reply:
    """Post the league's standings now (`/league standings`)."""
    async def body(tx: Tx) -> tuple[Post, int]:
        post = await _standings_post_tx(tx, league, work.public_url)
        return post, await league_post_tx(tx, league, post, now)

    post, row = await work.store.db.write(body)
    work.wake()
    return Reply(list(post.lines), outbox=(row,))


async def results_post(work: RallyWork, league: League, rnd: Round, now: datetime) -> Reply:
    """Post a closed round's stored results again (`/league results`): text, image, cards file."""
    if rnd.status != "closed":
        raise ServiceError("league.no_results_yet", number=rnd.number, status=msg(f"league.status_{rnd.status}"))
    title = round_title(rnd, league.name)

    async def body(tx: Tx) -> tuple[Post, int]:
        stored = await results_of_round_tx(tx, rnd.id)
        counted = await counted_runs_tx(tx, rnd.id)
        classified = stored_classification(rnd, stored, counted)
        judged_ = judged(await log_of_round_tx(tx, rnd.id))
        names = {r.user_id: r.display_name for r in stored}
        tables = is_table_game(rnd.game)  # no cards for a table round (see `_results_posts_tx`)
        digest = None if tables else (await binding_tx(tx, rnd, league.name, counted)).digest
        link = await link_lines_tx(tx, work.public_url, league.id, rnd.id)
        post = Post(results_lines(title, classified, judged_, rnd, names, [], digest) + link,
                    channel_id=league.channel_id,
                    image=table_spec(results_table(title, specials_text(rnd.specials, rnd.game), classified, judged_,
                                                   rnd.seed, provisional_lines(rnd.game, rnd.ruleset), rnd.game),
                                     "results.png"),
                    attach=None if tables else cards_attachment(rnd))
        return post, await league_post_tx(tx, league, post, now)

    post, row = await work.store.db.write(body)
    work.wake()
    return Reply(list(post.lines), outbox=(row,))


class LeagueLike(Protocol):
    """What `cancel_round` and `judge` need of the league service (its unit of work and clock)."""

    work: RallyWork

    def clock(self) -> datetime: ...
