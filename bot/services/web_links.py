"""The addresses of the spectators' web page (bot/web/), and the one line a league's
results and standings posts add to link there.

The paths are written here once: the web routes (bot/web/routes.py) and the posts use the same
functions, so a link always names a page that exists. A post links only when the bot knows its
public address (`RALLYBOT_PUBLIC_URL`, kept in `RallyWork.public_url`) and the league is public
(`/league web public`): a private league's page answers 404, so its posts never point there.
"""

from __future__ import annotations

from bot.engine.core.text import msg
from bot.store.connection import Tx
from bot.store.web import public_league_tx


def league_path(league_id: int) -> str:
    return f"/league/{league_id}"


def round_path(round_id: int) -> str:
    return f"/round/{round_id}"


def rally_path(rally_id: int) -> str:
    return f"/rally/{rally_id}"


def page_url(public_url: str, path: str) -> str:
    """The whole address of a page: the public address (with or without its final slash) and the path."""
    return public_url.rstrip("/") + path


async def link_lines_tx(tx: Tx, public_url: str | None, league_id: int, round_id: int | None = None) -> list[str]:
    """The line a post of the league adds (the round's page, else the league's), or nothing when
    the bot has no public address or the league is not public."""
    if not public_url or await public_league_tx(tx, league_id) is None:
        return []
    if round_id is not None:
        return [msg("web.link_round", url=page_url(public_url, round_path(round_id)))]
    return [msg("web.link_league", url=page_url(public_url, league_path(league_id)))]
