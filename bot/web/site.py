"""The site's handlers: each page is a version query, then the cached bytes of that version (or
304), else the page built from the services' read helpers and its template. Version queries (and
a rally's public row) go through `SharedReads` (bot/web/versions.py): concurrent requests of one
page share one query, and the web page's process reuses an answer for `WebOptions.version_ttl`.

Ids in addresses are digits (the routes' patterns, at most 18 of them: anything else is no
route, 404); a filter that names nothing (`?game=` of no game with a world scratch) is 404, one
that cannot be read (`?week=2026-48`) is 400; an unknown `?lang=` is ignored.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
from collections.abc import Awaitable, Callable
from datetime import date, timedelta
from typing import Any
from urllib.parse import urlencode

from aiohttp import web

from bot import games
from bot.engine.core.errors import RallyError
from bot.engine.core.official import parse_week, week_of
from bot.i18n import render, t
from bot.services.images import Renderer, draw_async, preview_spec
from bot.services.league.export import calendar_ics, file_stem, standings_csv
from bot.services.web_links import league_path, rally_path, round_path
from bot.store import Rally, Store
from bot.store.connection import Tx
from bot.store.web import league_version_tx, round_version_tx, world_version_tx
from bot.web.cache import Lru, body_bytes, etag_of, matches
from bot.web.draw_link import DrawUnavailable, LinkedDrawer
from bot.web.guard import client_of
from bot.web.home import home, solo_games
from bot.web.language import pick_language, spoken
from bot.web.league_page import league_files_tx, league_page, local_now, standings_picture_tx
from bot.web.live import Hub, rally_key, stream, token
from bot.web.options import WebOptions
from bot.web.rally_page import Published, board_of, public_rally, rally_page
from bot.web.replay_page import ENDED, ReplayTurn, load_turns, load_winner, read_turn, replay_page
from bot.web.round_page import cards_file_of, one_card, public_round_tx, round_page
from bot.web.stage_page import shown, stage_of
from bot.web.static import static_files
from bot.web.templates import page
from bot.web.versions import SharedReads

log = logging.getLogger(__name__)

HTML = "text/html; charset=utf-8"
PNG = "image/png"
JSON = "application/json; charset=utf-8"
#: what each error page says
ERRORS = {400: "web.error_400", 404: "web.error_404", 405: "web.error_405", 413: "web.error_413",
          414: "web.error_414", 429: "web.error_429", 500: "web.error_500", 503: "web.error_503"}
#: a path a link may repeat: `/`, or segments of the routes' characters each starting with one
#: (never `//`, a backslash, `%` or a scheme: a link built from it cannot leave the site)
SITE_PATH = re.compile(r"/(?:[a-z0-9][a-z0-9._:-]*(?:/[a-z0-9][a-z0-9._:-]*)*)?")
KEPT_PARAMS = ("game", "week", "turn", "play")  # the filters (and a replay's turn) a language link keeps
RETRY_PICTURE = 5  # seconds a reader whose picture the bot could not draw now is asked to wait
RETRY_LIVE = 30  # seconds a reader over the live streams' limits is asked to wait
STAGE_VERSION = "stage-1"  # a stage's page changes only with the site (its files ship with it)
MB = 1024 * 1024
REPLAYS = 8  # ended rallies whose replayed turns are kept (their pages and boards are built from them),
# and at most `WebOptions.replays_mb` MB of them (`replay_bytes`)


def replay_bytes(value: tuple[int, list[ReplayTurn]]) -> int:
    """About the memory a rally's replayed turns hold: 4 × their JSON (Python's dicts and strings
    take several times their text), so a long rally counts for more than a short one."""
    return 4 * sum(len(json.dumps([turn.lines, turn.board], default=str)) for turn in value[1])


class Site:
    """The handlers, on one store (read only), with the page and image caches."""

    def __init__(self, store: Store, options: WebOptions, renderer: Renderer,
                 drawer: LinkedDrawer | None = None) -> None:
        self.store = store
        self.options = options
        self.renderer = renderer
        self.drawer = drawer  # the bot's render workers, lent to its page's process (bot/web/draw_link.py)
        self.pages: Lru[tuple[Any, ...], tuple[str, bytes]] = Lru(options.pages, options.pages_mb * MB, body_bytes)
        self.images: Lru[tuple[Any, ...], tuple[str, bytes]] = Lru(options.images, options.images_mb * MB, body_bytes)
        self.replays: Lru[int, tuple[int, list[ReplayTurn]]] = Lru(REPLAYS, options.replays_mb * MB, replay_bytes)
        self.versions = SharedReads(options.version_ttl, options.pages)
        self.live = Hub(store, options, self.versions)

    # -- helpers ---------------------------------------------------------------------------------

    @staticmethod
    def language(request: web.Request) -> str:
        return pick_language(request.query.get("lang"), request.headers.get("Accept-Language"))

    @staticmethod
    def language_links(request: web.Request) -> list[tuple[str, str]]:
        """The page in each language: its own path with `?lang=` when the path is one of the site's
        shapes (`SITE_PATH`), else (an error page of any address a reader typed: `//evil.example`,
        `/\\evil.example`) the query alone, a link that stays on the page's own address."""
        kept = {k: request.query[k] for k in KEPT_PARAMS if k in request.query}
        path = request.path if SITE_PATH.fullmatch(request.path) else ""
        return [(code, path + "?" + urlencode({**kept, "lang": code})) for code in spoken()]

    async def cached(self, request: web.Request, key: tuple[Any, ...], version: object, kind: str,
                     build: Callable[[], Awaitable[bytes]]) -> web.Response:
        """The answer for `key` at `version`: 304 when the browser has it, else the cached bytes,
        else `build()` (then kept)."""
        cache = self.images if kind == PNG else self.pages
        etag = etag_of(key, version)
        headers = {"ETag": etag, "Cache-Control": "no-cache", "Vary": "Accept-Language"}
        if matches(request.headers.get("If-None-Match"), etag):
            return web.Response(status=304, headers=headers)
        found = cache.get(key)
        if found is not None and found[0] == etag:
            body = found[1]
        else:
            body = await build()
            cache.put(key, (etag, body))
        if kind == PNG:
            headers["Accept-Ranges"] = "none"
        return web.Response(body=body, content_type=kind.split(";")[0], charset="utf-8" if kind != PNG else None,
                            headers=headers)

    async def picture(self, spec: dict[str, Any], lang: str) -> bytes:
        """A picture of the site: drawn by the bot's render workers when the bot lent them
        (`drawer`), else by `renderer` here. 503 when the bot cannot draw it now."""
        if self.drawer is None:
            return await draw_async(self.renderer, spec, lang)
        try:
            return await self.drawer.draw(spec, lang)
        except DrawUnavailable as exc:
            log.warning("a picture of the page was not drawn: %s", exc)
            raise web.HTTPServiceUnavailable(headers={"Retry-After": str(RETRY_PICTURE)}) from None

    def html(self, request: web.Request, lang: str, template: str, **context: Any) -> bytes:
        return page(template, lang, languages=self.language_links(request), paths=PATHS, absolute=self.absolute,
                    game_name=game_name, stage_name=stage_name, **context).encode()

    def absolute(self, path: str) -> str:
        """A path of the site as a link's preview names it: absolute when the site knows its public
        address (`WebOptions.public_url`), else the path itself."""
        base = self.options.public_url
        return base.rstrip("/") + path if base else path

    def error_page(self, request: web.Request, status: int) -> web.Response:
        """A short page saying what went wrong, in the reader's language (never raises)."""
        shown = status if status in ERRORS else 500
        try:
            lang = self.language(request)
            body = page("error.html", lang, languages=self.language_links(request), paths=PATHS, status=shown,
                        text=render(t(ERRORS[shown], lang), lang))
        except Exception:  # an error page that cannot be drawn is plain text
            log.exception("the error page %s could not be drawn", shown)
            body = str(shown)
        return web.Response(status=status, text=body, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def public_rally(self, rally_id: int) -> Published | None:
        """The rally and who publishes it (a league, or its channel) when its page is public (a shared
        read: `versions`)."""
        return await self.versions.get(rally_key(rally_id), lambda: public_rally(self.store, rally_id))

    # -- pages -----------------------------------------------------------------------------------

    async def home(self, request: web.Request) -> web.Response:
        lang = self.language(request)
        game_id = request.query.get("game") or None
        shown = solo_games(game_id)
        if not shown:
            raise web.HTTPNotFound()
        week = request.query.get("week", "").strip() or week_of(self.options.clock())
        try:
            parse_week(week)
        except ValueError:
            raise web.HTTPBadRequest() from None
        version = await self.versions.get(("world", week), lambda: self.store.db.read(
            lambda tx: world_version_tx(tx, week)))

        async def build() -> bytes:
            data = await home(self.store, week, shown, self.options.rows)
            return self.html(request, lang, "home.html", home=data, game_filter=game_id,
                             games=solo_games(None), weeks=nearby_weeks(week))

        return await self.cached(request, ("home", game_id, week, lang), version, HTML, build)

    async def league(self, request: web.Request) -> web.Response:
        return await self._numbered_page(request, "league", self._league_version, league_page, "league.html",
                                         lambda data: {"now": local_now(self.options.clock(), data.zone)})

    async def _numbered_page(self, request: web.Request, kind: str,
                             version_of: Callable[[int], Awaitable[tuple[object, ...]]],
                             page_of: Callable[[Store, int], Awaitable[Any]], template: str,
                             extra: Callable[[Any], dict[str, Any]] = lambda data: {}) -> web.Response:
        """The page of the league or round numbered in the path: 404 when it is not public
        (`version_of` refuses it) or gone when read (`page_of` finds none), cached by its version."""
        lang = self.language(request)
        number = int(request.match_info["id"])
        version = await version_of(number)

        async def build() -> bytes:
            data = await page_of(self.store, number)
            if data is None:
                raise web.HTTPNotFound()
            return self.html(request, lang, template, page=data, **extra(data))

        return await self.cached(request, (kind, number, lang), version, HTML, build)

    async def _league_version(self, league_id: int) -> tuple[object, ...]:
        """The version of a public league's pages (what their cache keys on); not found otherwise."""
        version = await self.versions.get(("league", league_id), lambda: self.store.db.read(
            lambda tx: league_version_tx(tx, league_id)))
        if not version or version[0] != 1:
            raise web.HTTPNotFound()
        return version

    async def _round_version(self, round_id: int) -> tuple[object, ...]:
        async def read(tx: Tx) -> tuple[object, ...]:
            if await public_round_tx(tx, round_id) is None:
                return ()
            return await round_version_tx(tx, round_id)

        version = await self.versions.get(("round", round_id), lambda: self.store.db.read(read))
        if not version:
            raise web.HTTPNotFound()
        return version

    async def round(self, request: web.Request) -> web.Response:
        return await self._numbered_page(request, "round", self._round_version, round_page, "round.html")

    async def cards(self, request: web.Request) -> web.Response:
        round_id = int(request.match_info["id"])
        found = await cards_file_of(self.store, round_id)
        if found is None:
            raise web.HTTPNotFound()
        rnd, body = found
        return self._download(request, body.encode(), f"round-{rnd.id}-cards.json")

    async def card(self, request: web.Request) -> web.Response:
        round_id, driver = int(request.match_info["id"]), int(request.match_info["driver"])
        found = await cards_file_of(self.store, round_id)
        card = await asyncio.to_thread(one_card, found[1], driver) if found is not None else None
        if card is None:
            raise web.HTTPNotFound()
        return self._download(request, card.encode(), f"round-{round_id}-card-{driver}.json")

    @staticmethod
    def _download(request: web.Request, data: bytes, name: str, kind: str = "application/json") -> web.Response:
        etag = etag_of("file", name, hashlib.sha256(data).hexdigest())
        headers = {"ETag": etag, "Cache-Control": "no-cache", "Content-Disposition": f'attachment; filename="{name}"'}
        if matches(request.headers.get("If-None-Match"), etag):
            return web.Response(status=304, headers=headers)
        return web.Response(body=data, content_type=kind, charset="utf-8", headers=headers)

    async def league_file(self, request: web.Request) -> web.Response:
        """`/league/N/calendar.ics` (its rounds, as `/league calendar` gives them) and
        `/league/N/standings.csv` (as `/league export` gives them): for a public league only."""
        league_id = int(request.match_info["id"])
        found = await self.store.db.read(lambda tx: league_files_tx(tx, league_id))
        if found is None:
            raise web.HTTPNotFound()
        league, rounds, results = found
        if request.match_info["file"] == "calendar.ics":
            body = await asyncio.to_thread(calendar_ics, league, rounds, self.options.clock())
            return self._download(request, body, f"{file_stem(league)}.ics", "text/calendar")
        body = await asyncio.to_thread(standings_csv, league, rounds, results)
        return self._download(request, body, f"{file_stem(league)}-standings.csv", "text/csv")

    async def standings_picture(self, request: web.Request) -> web.Response:
        """`/league/N/standings.png`: the standings picture the league's channel is posted (a link's preview)."""
        lang = self.language(request)
        league_id = int(request.match_info["id"])
        version = await self._league_version(league_id)

        async def build() -> bytes:
            spec = await self.store.db.read(lambda tx: standings_picture_tx(tx, league_id))
            if spec is None:
                raise web.HTTPNotFound()
            return await self.picture(spec, lang)

        return await self.cached(request, ("standings", league_id, lang), version, PNG, build)

    async def rally(self, request: web.Request) -> web.Response:
        lang = self.language(request)
        found = await self.public_rally(int(request.match_info["id"]))
        if found is None:
            raise web.HTTPNotFound()
        rally = found.rally

        async def build() -> bytes:
            data = await rally_page(self.store, rally, found.league_id)
            return self.html(request, lang, "rally.html", page=data, version=token(rally.version, rally.status),
                             ended=rally.status in ENDED)

        return await self.cached(request, ("rally", rally.id, lang), found.version, HTML, build)

    async def _ended(self, request: web.Request) -> Published:
        """The public rally of the address, once it has ended (a rally in play has no replay: 404)."""
        found = await self.public_rally(int(request.match_info["id"]))
        if found is None or found.rally.status not in ENDED:
            raise web.HTTPNotFound()
        return found

    async def _turns(self, rally: Rally) -> list[ReplayTurn]:
        """The ended rally's turns, replayed once while they stay in the small replay cache."""
        kept = self.replays.get(rally.id)
        if kept is not None and kept[0] == rally.version:
            return kept[1]
        turns = await load_turns(self.store, rally)
        self.replays.put(rally.id, (rally.version, turns))
        return turns

    async def replay(self, request: web.Request) -> web.Response:
        """`/rally/N/replay?turn=K` (`&play=1`: playing): an unreadable K is 400, a turn the rally
        has not is 404."""
        lang = self.language(request)
        found = await self._ended(request)
        turn = read_turn(request.query.get("turn"))
        if turn is None:
            raise web.HTTPBadRequest()
        playing = request.query.get("play") == "1"
        rally = found.rally

        async def build() -> bytes:
            data = replay_page(rally, found.league_id, await self._turns(rally), turn, await load_winner(rally),
                               playing)
            if data is None:
                raise web.HTTPNotFound()
            return self.html(request, lang, "replay.html", page=data)

        return await self.cached(request, ("replay", rally.id, turn, playing, lang), found.version, HTML, build)

    async def replay_board(self, request: web.Request) -> web.Response:
        lang = self.language(request)
        found = await self._ended(request)
        rally, turn = found.rally, int(request.match_info["turn"])

        async def build() -> bytes:
            turns = await self._turns(rally)
            spec = turns[turn - 1].board if 1 <= turn <= len(turns) else None
            if spec is None:
                raise web.HTTPNotFound()
            return await self.picture(spec, lang)

        return await self.cached(request, ("replay-board", rally.id, turn, lang), found.version[:2], PNG, build)

    async def events(self, request: web.Request) -> web.StreamResponse:
        """The rally page's live stream (bot/web/live.py): 404 like the page, 429 over the limits."""
        found = await self.public_rally(int(request.match_info["id"]))
        if found is None:
            raise web.HTTPNotFound()
        if not self.live.admits(client_of(request, self.options.forwarded, self.options.proxies)):
            response = self.error_page(request, 429)
            response.headers["Retry-After"] = str(RETRY_LIVE)
            return response
        return await stream(request, self.live, found.rally)

    async def board(self, request: web.Request) -> web.Response:
        lang = self.language(request)
        found = await self.public_rally(int(request.match_info["id"]))
        spec = board_of(found.rally) if found is not None else None
        if found is None or spec is None:
            raise web.HTTPNotFound()
        rally = found.rally

        async def build() -> bytes:
            return await self.picture(spec, lang)

        return await self.cached(request, ("board", rally.id, lang), (rally.version,), PNG, build)

    async def _shown_stage(self, request: web.Request) -> tuple[str, str]:
        """The address's game and stage when the site shows it (bot/web/stage_page.py), else 404
        before the library generates anything."""
        game_id, name = request.match_info["game"], request.match_info["name"]
        if not await shown(self.store, game_id, name, self.options.clock()):
            raise web.HTTPNotFound()
        return game_id, name

    async def stage(self, request: web.Request) -> web.Response:
        lang = self.language(request)
        game_id, name = await self._shown_stage(request)
        found = await asyncio.to_thread(stage_of, game_id, name)
        if found is None:
            raise web.HTTPNotFound()
        game, facts = found

        async def build() -> bytes:
            return self.html(request, lang, "stage.html", game=game, facts=facts,
                             preview=game.pictures is not None)

        return await self.cached(request, ("stage", game.id, name, lang), STAGE_VERSION, HTML, build)

    async def preview(self, request: web.Request) -> web.Response:
        lang = self.language(request)
        game_id, name = await self._shown_stage(request)
        found = await asyncio.to_thread(stage_of, game_id, name)
        if found is None or found[0].pictures is None:
            raise web.HTTPNotFound()
        spec = preview_spec(found[1].name, found[0].id)

        async def build() -> bytes:
            try:
                return await self.picture(spec, lang)
            except RallyError:  # a name the library knows but its pictures do not draw (a preset, not a course)
                raise web.HTTPNotFound() from None

        return await self.cached(request, ("preview", game_id, name, lang), STAGE_VERSION, PNG, build)

    async def static(self, request: web.Request) -> web.Response:
        found = static_files().get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound()
        body, kind, etag = found
        headers = {"ETag": etag, "Cache-Control": "public, max-age=3600"}
        if matches(request.headers.get("If-None-Match"), etag):
            return web.Response(status=304, headers=headers)
        return web.Response(body=body, headers={**headers, "Content-Type": kind})


def game_name(game_id: str) -> str:
    """A game's name (its message key) from its id."""
    return games.get(game_id).library.name


def stage_name(game_id: str, stage: str) -> str:
    """A stage's title from its game's library (the id itself when the library does not know it)."""
    try:
        return games.get(game_id).library.stages.facts(stage).title
    except (RallyError, ValueError, KeyError):
        return stage


def nearby_weeks(week: str) -> tuple[str | None, str | None]:
    """The ISO weeks before and after `week` (None past the weeks `parse_week` reads)."""
    year, number = parse_week(week)
    monday = date.fromisocalendar(year, number, 1)
    found: list[str | None] = []
    for step in (-7, 7):
        other = week_of(monday + timedelta(days=step))
        try:
            parse_week(other)
        except ValueError:
            found.append(None)
        else:
            found.append(other)
    return found[0], found[1]


class Paths:
    """The addresses the templates link to (`paths.league(3)`), the same functions the posts use."""

    league = staticmethod(league_path)
    round = staticmethod(round_path)
    rally = staticmethod(rally_path)

    @staticmethod
    def replay(rally_id: int, turn: int | None = None, play: bool = False) -> str:
        query = {k: v for k, v in (("turn", turn), ("play", 1 if play else None)) if v is not None}
        return rally_path(rally_id) + "/replay" + ("?" + urlencode(query) if query else "")

    @staticmethod
    def replay_board(rally_id: int, turn: int) -> str:
        return f"{rally_path(rally_id)}/replay/{turn}/board.png"

    @staticmethod
    def stage(game: str, name: str) -> str:
        return f"/stage/{game}/{name}"

    @staticmethod
    def home(game: str | None = None) -> str:
        return "/" + ("?" + urlencode({"game": game}) if game else "")


PATHS = Paths()
