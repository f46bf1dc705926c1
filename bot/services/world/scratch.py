"""The world scratch rankings: every server's drivers on the week's official stage of a game,
ranked by score, one ranking per game with solo runs (the game option; none: classic).

`/scratch run [game]` starts the driver's one official run of the ISO week in that game (personal
dice, in a private thread, see `bot/services/league/runs.py`); a league round on the `official` stage of
a league of that game is the same run, and the one run counts in each
(`bot/services/league/official_runs.py`). A driver has one attempt a week per game: a run in one game
never locks them out of another's. The ranking is a query on the
indexed `runs` table (week, status, time): the top, and the asker's neighbourhood found by keyset
from their own row, never a replay and never a scan of the week.
A server can hide its name (`/league settings world_name:off`); its drivers still rank.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot import games
from bot.engine.core.official import parse_week, week_of
from bot.engine.core.ranking import shared_ranks
from bot.engine.core.text import Listed, msg
from bot.render.table import Column, TableRow, TableView, plain
from bot.services.errors import ServiceError
from bot.services.images import table_spec
from bot.services.league.round_kit import new_seed, plural, round_title
from bot.services.league.runs import RunService
from bot.services.reply import Actor, Place, Reply
from bot.services.work import Post, RallyWork, post_tx
from bot.services.world.rounds import ensure_week_tx, score_text, scratch_command, world_game, world_head
from bot.store.connection import Tx
from bot.store.guild_settings import hidden_world_names_tx
from bot.store.leagues import (
    Round,
    Run,
    official_history_tx,
    official_run_tx,
    tied_before_tx,
    world_around_tx,
    world_count_tx,
    world_rank_tx,
    world_round_tx,
    world_top_tx,
)

TOP = 10
AROUND = 3


class ScratchService:
    """`/scratch run`, `/scratch [week]`, `/scratch me`."""

    def __init__(self, work: RallyWork, runs: RunService, clock: Callable[[], datetime],
                 seed_source: Callable[[], str] = new_seed) -> None:
        self.work = work
        self.store = work.store
        self.runs = runs
        self.clock = clock
        self.seed_source = seed_source

    async def this_week(self, game: object = None) -> Round:
        """The current week's world round of `game` (None: classic), made ready if no job has yet."""
        played = world_game(game).id
        now = self.clock()
        return await self.store.db.write(lambda tx: ensure_week_tx(tx, week_of(now), now, self.seed_source,
                                                                   played))

    async def check_run(self, place: Place, actor: Actor, game: object = None, ghost: object = None) -> Round:
        if place.guild_id <= 0:
            raise ServiceError("discord.guild_only")
        rnd = await self.this_week(game)
        await self.runs.check(rnd, None, actor, ghost, place.guild_id)
        return rnd

    async def start_run(self, place: Place, actor: Actor, thread_id: int, guild_name: str = "",
                        game: object = None, ghost: object = None) -> Reply:
        """The week's official run, racing a `ghost` if asked (`best`, `leader`: a closed week's)."""
        rnd = await self.this_week(game)
        return await self.runs.start(place, actor, rnd, None, thread_id, guild_name, ghost)

    def _week(self, week: object) -> str:
        if week is None or not str(week).strip():
            return week_of(self.clock())
        text = str(week).strip()[:20]
        try:
            parse_week(text)
        except ValueError:
            raise ServiceError("scratch.bad_week", value=text) from None
        return text

    async def ranking(self, place: Place, actor: Actor, week: object = None, game: object = None) -> Reply:
        """Post the week's ranking of `game` (None: classic): the top, then the asker's
        neighbourhood (highlighted)."""
        played = world_game(game).id
        wanted = self._week(week)
        now = self.clock()

        async def body(tx: Tx) -> tuple[Post, int]:
            rnd = await world_round_tx(tx, wanted, played)
            if rnd is None:
                raise ServiceError("scratch.no_week", week=wanted, game=msg(games.get(played).library.name))
            kind = games.get(rnd.game).rules.result
            top, ranks, count = await world_top_ranked_tx(tx, wanted, played, TOP)
            mine = await official_run_tx(tx, wanted, actor.user_id, played)
            around: list[Run] = []
            my_rank = None
            if mine is not None and mine.status == "finished" and mine.score is not None:
                my_rank = await world_rank_tx(tx, wanted, mine.score, kind, played)
                if my_rank > TOP:
                    around = await world_around_tx(tx, wanted, mine, AROUND, kind)
            shown = top + around
            hidden = await hidden_world_names_tx(tx, {r.guild_id for r in shown})
            if around and mine is not None and my_rank is not None:
                # the window is consecutive in (time, id) order: its first row's place follows from
                # the asker's own (two small counts of tied times), then ranks are shared on ties
                mine_at = [r.id for r in around].index(mine.id)
                start = my_rank + await tied_before_tx(tx, wanted, mine.score or 0, mine.id, played) - mine_at
                first = around[0]
                ranks.update(run_ranks(around, start, start - await tied_before_tx(
                    tx, wanted, first.score or 0, first.id, played)))
            post = _ranking_post(rnd, top, around, ranks, hidden, count, actor.user_id,
                                 None if mine is None or my_rank is None else (mine.display_name, my_rank))
            return post, await post_tx(tx, post, place.guild_id, place.channel_id, now, lang=place.lang)

        if place.guild_id <= 0:
            raise ServiceError("discord.guild_only")
        post, row = await self.store.db.write(body)
        self.work.wake()
        return Reply(list(post.lines), outbox=(row,))

    async def me(self, place: Place, actor: Actor, game: object = None) -> Reply:
        """The asker's own line this week and their official history in `game` (None: classic),
        privately."""
        played = world_game(game)
        week = week_of(self.clock())

        async def read(tx: Tx) -> list[str]:
            history = await official_history_tx(tx, actor.user_id, game=played.id)
            lines = [msg("scratch.me_head", week=week, game=msg(played.library.name))]
            if not history:
                return lines + [msg("scratch.me_none", command=scratch_command(played.id))]
            for run in history:
                if run.status == "finished" and run.score is not None and run.week:
                    rank = await world_rank_tx(tx, run.week, run.score, played.rules.result, played.id)
                    lines.append(msg("scratch.me_line", week=run.week, time=score_text(played, run.score),
                                   rank=rank, count=await world_count_tx(tx, run.week, played.id)))
                else:
                    lines.append(msg("scratch.me_dnf" if run.status == "dnf" else "scratch.me_running",
                                   week=run.week or "?"))
            return lines

        return Reply(await self.store.db.read(read), ephemeral=True)


async def world_top_ranked_tx(tx: Tx, week: str, game: str, limit: int) -> tuple[list[Run], dict[int, int], int]:
    """The best `limit` finished runs of `game`'s world ranking of the week, their ranks (run id →
    rank, ties shared) and how many finished in all: `/scratch` and the web page's home show these."""
    top = await world_top_tx(tx, week, limit, games.get(game).rules.result, game)
    return top, run_ranks(top, 1), await world_count_tx(tx, week, game)


def run_ranks(rows: list[Run], first_place: int, first_rank: int | None = None) -> dict[int, int]:
    """Ranks of consecutive runs (by time, then id) starting at place `first_place`, by run id:
    the house rule (`ranking.shared_ranks`, OPEN-5) on their times."""
    return dict(zip((r.id for r in rows), shared_ranks([r.score for r in rows], first_place, first_rank)))


def _ranking_post(rnd: Round, top: list[Run], around: list[Run], ranks: dict[int, int], hidden: set[int],
                  count: int, asker: int, asker_rank: tuple[str, int] | None) -> Post:
    """The public ranking post: a table image and a few lines; the asker's own place is told in
    the third person (everyone in the channel reads it), by the name the ranking shows. It names
    its game, and says "provisional rules" under a provisional ruleset."""
    game = games.get(rnd.game)
    best = top[0].score or 0 if top else 0

    def gap(run: Run) -> str:  # behind the best, whichever way the game ranks
        return score_text(game, abs((run.score or 0) - best))

    columns = (Column(label=msg("league.col_pos"), align="c", weight=1),
               Column(label=msg("league.col_driver"), weight=4),
               Column(label=msg("scratch.col_server"), weight=4),
               Column(label=msg("league.col_time" if game.rules.result.unit == "s" else "league.col_points"), align="r",
                      weight=2),
               Column(label=msg("league.col_gap"), align="r", weight=2))
    rows = []
    for i, run in enumerate(top + around):
        server = msg("scratch.hidden_server") if run.guild_id in hidden else (run.guild_name or "—")
        rows.append(TableRow(cells=(str(ranks[run.id]), plain(run.display_name), plain(server),
                                    score_text(game, run.score or 0), "+" + gap(run)),
                             highlight=run.user_id == asker, gap_before=bool(around) and i == len(top)))
    title = round_title(rnd, None)
    provisional = world_head(rnd)
    subtitle = msg("scratch.subtitle." + plural(count), n=count)
    view = TableView(title=title, subtitle=Listed([subtitle, *provisional], "dot"), columns=columns,
                     rows=tuple(rows), note=msg("scratch.note_hash", hash=rnd.seed_hash[:16]))
    lines = [msg("scratch.ranking_head." + plural(count), week=rnd.week or "?", n=count, game=msg(game.library.name))]
    lines += provisional
    lines += [msg("scratch.top_line", rank=ranks[r.id], name=r.display_name, time=score_text(game, r.score or 0),
                gap=gap(r)) for r in top[:5]]
    if asker_rank is not None:
        lines.append(msg("scratch.driver_rank", name=asker_rank[0], rank=asker_rank[1], n=count))
    return Post(lines, image=table_spec(view, "scratch.png"))
