"""`create_app`: the site as an aiohttp `web.Application` on an open store (read only)."""

from __future__ import annotations

from aiohttp import web

from bot.services.images import Renderer, default_renderer
from bot.store import Store
from bot.web.draw_link import LinkedDrawer
from bot.web.guard import guard, quiet_refusals, strict_headers
from bot.web.options import WebOptions
from bot.web.site import Site

SITE = web.AppKey("site", Site)
ID = r"{id:[0-9]{1,18}}"  # a row id: digits only, below 2**63 (a longer one is no address: 404)


def create_app(store: Store, options: WebOptions | None = None, renderer: Renderer | None = None,
               drawer: LinkedDrawer | None = None) -> web.Application:
    """The site's application; its pictures are drawn by `drawer` (the bot's render workers, lent
    to its page's process) when given, else by `renderer` (default: the bot's Pillow one, in the
    render worker processes)."""
    options = options or WebOptions()
    quiet_refusals()
    site = Site(store, options, renderer if renderer is not None else default_renderer(), drawer)
    app = web.Application(middlewares=[guard(options, site.error_page)], client_max_size=options.max_body)
    app[SITE] = site
    app.on_response_prepare.append(strict_headers)
    app.router.add_get("/", site.home)
    app.router.add_get(f"/league/{ID}", site.league)
    app.router.add_get(f"/league/{ID}/standings.png", site.standings_picture)
    app.router.add_get(f"/league/{ID}/{{file:calendar\\.ics|standings\\.csv}}", site.league_file)
    app.router.add_get(f"/round/{ID}", site.round)
    app.router.add_get(f"/round/{ID}/cards.json", site.cards)
    app.router.add_get(f"/round/{ID}/card/{{driver:[0-9]{{1,18}}}}.json", site.card)
    app.router.add_get(f"/rally/{ID}", site.rally)
    app.router.add_get(f"/rally/{ID}/board.png", site.board)
    app.router.add_get(f"/rally/{ID}/replay", site.replay)
    app.router.add_get(f"/rally/{ID}/replay/{{turn:[0-9]{{1,6}}}}/board.png", site.replay_board)
    app.router.add_get("/stage/{game:[a-z0-9_-]{1,40}}/{name:[a-z0-9._:-]{1,80}}", site.stage)
    app.router.add_get("/stage/{game:[a-z0-9_-]{1,40}}/{name:[a-z0-9._:-]{1,80}}/preview.png", site.preview)
    app.router.add_get(f"/rally/{ID}/events", site.events)
    app.router.add_get("/static/{name:[a-z0-9-]{1,40}\\.(?:css|js|svg)}", site.static)
    app.on_shutdown.append(site.live.close)
    return app
