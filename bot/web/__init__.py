"""The spectators' web page (DESIGN §10): a small read-only site on the bot's
database, in the reader's language.

    app = create_app(store, WebOptions(...), renderer=renderer)   # an aiohttp web.Application
    server = WebServer(app); await server.start(port, host)  …  await server.stop()

The bot serves it from a child process of its own (bot/web/child.py `WebChild`, running
`python -m bot web`, bot/web/process.py): a read-only store, a lower CPU priority, version reads
shared (bot/web/versions.py), so page views never delay a command. `create_app` stays the site
itself, served in-process by the console's `--web` and by the tests.

Pages (bot/web/app.py): home (the week's official stages and world scratch rankings, the public
leagues and published channels' rallies), league (standings, their chart over the rounds, and
rounds), round (runs, seed hash or seed, result cards), rally (board and turn log; an ended
rally's replay turn by turn), stage (preview and facts), and one stylesheet. Everything is built
through the `Game` protocol and the services' read helpers, from the games' spectator views only.
Leagues are shown only after `/league web public`, a channel's rallies without a league after
`/rally web public`; anything else answers 404 (bot/store/web.py).

Safe by default (bot/web/guard.py): GET and HEAD only, bounded query strings and bodies, a
request budget per client, strict headers on every answer, autoescaped templates, no path from a
request ever reaching the file system; pages are cached per data version with ETags
(bot/web/cache.py), and images are drawn off the event loop (the render workers in-process, a
thread of its own in the web page's process).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.web.app import create_app
    from bot.web.options import WebOptions
    from bot.web.server import WebServer

__all__ = ["WebOptions", "WebServer", "create_app"]

# Loaded on first use: the bot process imports `bot.web.child` (which starts the page's own
# process) and must not pay for aiohttp.web, jinja2 and the pages, which only that child serves.
_LAZY = {"create_app": "bot.web.app", "WebOptions": "bot.web.options", "WebServer": "bot.web.server"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["WebOptions", "WebServer", "create_app"]
