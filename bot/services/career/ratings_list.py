"""`/ratings [game] [scope]`: a game's top drivers by rating, in this server or in the world
, posted in the channel like `/scratch ranking`: a few lines and a table image.

**One driver across servers, nothing leaked.** A rating is one per Discord user and game,
whatever server they drove on. The server's list names only drivers who drove that game on this
server (a rally, a run or a league table whose rally is here: `bot.store.ratings.top_tx`), so a
driver seen only in another server's private league is never named here. The world list names
only drivers the game's world scratch ranking already shows (a finished official run), with
their rating and nothing else (never where they drove): a driver known only on private servers
is in no world list. Names are shown as stored (cleaned when they were taken), in table cells as
plain text.

The game: the option, else the game of this channel's rally (running, or the latest finished)
or league, else classic.
Refused privately, nothing written: an unknown game or scope, a game (or a server) with no
ratings yet.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot import games
from bot.engine.core.text import Listed, msg
from bot.render.table import Column, TableRow, TableView, plain
from bot.services.career.ratings import SCALE, RatingHooks, display_rating
from bot.services.errors import ServiceError
from bot.services.images import table_spec
from bot.services.league.round_kit import plural
from bot.services.reply import Actor, Place, Reply
from bot.services.work import Post, RallyWork, post_tx
from bot.store.connection import Tx
from bot.store.leagues import leagues_of_guild_tx
from bot.store.ratings import Rating, rated_count_tx, top_tx

TOP = 10
SCOPES = ("server", "world")
UP, DOWN, SAME = "▲", "▼", "="


def trend(change: float) -> str:
    """The arrow of a rating's latest move (as the displayed rating moved: whole points)."""
    points = round(change * SCALE)
    return UP if points > 0 else DOWN if points < 0 else SAME


def scope_of(value: object) -> str:
    """`server` (default) or `world`; anything else is refused naming it."""
    text = str(value).strip().lower()[:20] if value is not None else ""
    if not text:
        return "server"
    if text not in SCOPES:
        raise ServiceError("ratings.bad_scope", value=text)
    return text


class RatingsService:
    """`/ratings`; also rates finished live rallies (`RatingHooks`, registered on the work)."""

    def __init__(self, work: RallyWork, clock: Callable[[], datetime]) -> None:
        self.work = work
        self.store = work.store
        self.clock = clock
        self.hooks = RatingHooks(work, clock)

    async def game_here(self, place: Place, game: object) -> str:
        """The game asked for (refused when unknown), else this channel's (its rally's, running or
        the latest finished, else its league's), else classic."""
        text = str(game).strip().lower()[:40] if game is not None else ""
        if text:
            if text not in games.ids():
                raise ServiceError("ratings.unknown_game", game=text, games=", ".join(games.ids()))
            return text
        rally = await self.store.rallies.get_active_in_channel(place.guild_id, place.channel_id)
        if rally is None:  # the rally just finished here
            rally = next(iter(await self.store.rallies.finished_in_channel(place.guild_id, place.channel_id, 1)), None)
        if rally is not None:
            return rally.game
        leagues = await self.store.db.read(lambda tx: leagues_of_guild_tx(tx, place.guild_id))
        here = next((league for league in leagues if league.channel_id == place.channel_id), None)
        return here.game if here is not None else games.DEFAULT_GAME

    async def ratings(self, place: Place, actor: Actor, game: object = None, scope: object = None) -> Reply:
        """Post the top drivers of `game` in this server (default) or the world."""
        if place.guild_id <= 0:
            raise ServiceError("discord.guild_only")
        where = scope_of(scope)
        played = await self.game_here(place, game)
        guild = place.guild_id if where == "server" else None
        now = self.clock()

        async def body(tx: Tx) -> tuple[Post, int]:
            top = await top_tx(tx, played, TOP, guild)
            if not top:
                name = msg(games.get(played).library.name)
                raise ServiceError("ratings.none_here" if guild is not None else "ratings.none", game=name)
            count = await rated_count_tx(tx, played, guild)
            post = ratings_post(played, where, top, count, actor.user_id)
            return post, await post_tx(tx, post, place.guild_id, place.channel_id, now, lang=place.lang)

        post, row = await self.store.db.write(body)
        self.work.wake()
        return Reply(list(post.lines), outbox=(row,))


def ratings_post(game_id: str, scope: str, top: list[Rating], count: int, asker: int) -> Post:
    """The public post: a head line, the top five as lines, and the table (rank, driver, rating,
    rated events, trend) as an image; the asker's row highlighted when they are in it."""
    game = msg(games.get(game_id).library.name)
    ranks: list[int] = []
    for i, r in enumerate(top):  # equal displayed ratings share a rank
        shown = display_rating(r.mu, r.sigma)
        ranks.append(ranks[-1] if i and shown == display_rating(top[i - 1].mu, top[i - 1].sigma) else i + 1)
    columns = (Column(label=msg("league.col_pos"), align="c", weight=1),
               Column(label=msg("league.col_driver"), weight=5),
               Column(label=msg("ratings.col_rating"), align="r", weight=2),
               Column(label=msg("ratings.col_events"), align="r", weight=2),
               Column(label=msg("ratings.col_trend"), align="c", weight=1))
    rows = tuple(TableRow(cells=(str(rank), plain(r.display_name), str(display_rating(r.mu, r.sigma)), str(r.events),
                                 trend(r.change)), highlight=r.user_id == asker) for r, rank in zip(top, ranks))
    head = msg(f"ratings.head_{scope}.{plural(count)}", game=game, n=count)
    view = TableView(title=msg(f"ratings.title_{scope}", game=game),
                     subtitle=Listed([msg(f"ratings.subtitle.{plural(count)}", n=count)], "dot"),
                     columns=columns, rows=rows, note=msg("ratings.note"))
    lines = [head] + [msg("ratings.line", rank=rank, name=r.display_name, rating=display_rating(r.mu, r.sigma),
                          events=msg("ratings.events", n=r.events), trend=trend(r.change))
                      for r, rank in zip(top[:5], ranks)]
    return Post(lines, image=table_spec(view, "ratings.png"))
