"""What the spectators' web page (bot/web/, issue 26) reads and the one flag it depends on.

A league is shown on the web page only after its organisers chose so (`/league web public`,
`leagues.web_public`, migration 13); `set_league_web_tx` writes that choice, everything else
here only reads. The `*_version_tx` functions are the pages' data versions: one small indexed
query each, whose answer changes whenever what the page shows may have changed, so a page is
built once per version and a browser's `If-None-Match` is answered with 304 for the price of
that query.

A rally is public when it was played in a public league's channel, or is a run of a public
league's round that is closed (a run in an open round stays hidden: with shared dice it would
tell the other drivers their dice): `rally_league_tx` finds that league.
"""

from __future__ import annotations

from bot.store.connection import Tx
from bot.store.leagues import LEAGUE_COLUMNS, League


async def set_league_web_tx(tx: Tx, league_id: int, public: bool) -> bool:
    """Show (or hide) the league on the web page; False when the league does not exist."""
    return await tx.execute("UPDATE leagues SET web_public = ? WHERE id = ?", (int(public), league_id)) == 1


async def public_league_tx(tx: Tx, league_id: int) -> League | None:
    """The league when it exists and is public, else None (the page then answers 404)."""
    row = await tx.fetch_one(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = ? AND web_public = 1", (league_id,))
    return League.from_row(row) if row else None


async def public_leagues_tx(tx: Tx, limit: int = 100) -> list[League]:
    """The public leagues, newest first (the home page lists them)."""
    rows = await tx.fetch_all(f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE web_public = 1 ORDER BY id DESC LIMIT ?",
                              (limit,))
    return [League.from_row(r) for r in rows]


async def rally_league_tx(tx: Tx, rally_id: int, guild_id: int, channel_id: int) -> int | None:
    """The id of the public league that publishes the rally: the league posting in the rally's
    channel, or the league of the closed round the rally is a run of; None: the rally is private."""
    row = await tx.fetch_one(
        "SELECT id FROM leagues WHERE web_public = 1 AND guild_id = ? AND channel_id = ? ORDER BY id LIMIT 1",
        (guild_id, channel_id))
    if row is not None:
        return int(row[0])
    row = await tx.fetch_one(
        "SELECT l.id FROM runs r JOIN rounds o ON o.id = r.round_id JOIN leagues l ON l.id = o.league_id "
        "WHERE r.rally_id = ? AND l.web_public = 1 AND o.status = 'closed' LIMIT 1", (rally_id,))
    return int(row[0]) if row is not None else None


async def run_of_round_rallies_tx(tx: Tx, round_id: int) -> dict[int, int]:
    """Run id → rally id of the runs counting in the round that have a rally (the round page links them)."""
    rows = await tx.fetch_all(
        "SELECT id, rally_id FROM runs WHERE rally_id IS NOT NULL AND (round_id = ? OR id IN "
        "(SELECT run_id FROM run_answers WHERE round_id = ?))", (round_id, round_id))
    return {int(r[0]): int(r[1]) for r in rows}


# -- data versions --------------------------------------------------------------------------------

async def league_version_tx(tx: Tx, league_id: int) -> tuple[object, ...]:
    """Changes whenever the league page may: its row and flag, its rounds' states, their results,
    runs and organiser log."""
    row = await tx.fetch_one(
        "SELECT l.web_public, l.name, "
        "(SELECT COUNT(*) FROM rounds WHERE league_id = l.id), "
        "(SELECT COALESCE(SUM(CASE status WHEN 'open' THEN 1 WHEN 'closed' THEN 3 WHEN 'cancelled' THEN 7 ELSE 0 END), "
        "0) FROM rounds WHERE league_id = l.id), "
        "(SELECT COUNT(*) FROM round_results WHERE league_id = l.id), "
        "(SELECT COALESCE(MAX(id), 0) FROM league_log WHERE league_id = l.id), "
        "(SELECT COUNT(*) FROM league_members WHERE league_id = l.id) "
        "FROM leagues l WHERE l.id = ?", (league_id,))
    return tuple(row) if row is not None else ()


async def round_version_tx(tx: Tx, round_id: int) -> tuple[object, ...]:
    """Changes whenever the round page may: its state, its runs (started, finished), its log."""
    row = await tx.fetch_one(
        "SELECT o.status, "
        "(SELECT COUNT(*) FROM runs WHERE round_id = o.id OR id IN (SELECT run_id FROM run_answers "
        "WHERE round_id = o.id)), "
        "(SELECT COUNT(*) FROM runs WHERE status <> 'running' AND (round_id = o.id OR id IN "
        "(SELECT run_id FROM run_answers WHERE round_id = o.id))), "
        "(SELECT COALESCE(MAX(id), 0) FROM league_log WHERE round_id = o.id), "
        "(SELECT COUNT(*) FROM round_results WHERE round_id = o.id) "
        "FROM rounds o WHERE o.id = ?", (round_id,))
    return tuple(row) if row is not None else ()


async def rally_version_tx(tx: Tx, rally_id: int) -> tuple[object, ...]:
    """The rally's version and status (every action bumps the version)."""
    row = await tx.fetch_one("SELECT version, status FROM rallies WHERE id = ?", (rally_id,))
    return tuple(row) if row is not None else ()


async def world_version_tx(tx: Tx, week: str) -> tuple[object, ...]:
    """Changes whenever the home page of the week may: its runs (all games), world rounds, the
    public leagues and the servers' settings (one hides its name)."""
    row = await tx.fetch_one(
        "SELECT (SELECT COUNT(*) FROM runs WHERE week = ? AND status = 'finished'), "
        "(SELECT COALESCE(MAX(id), 0) FROM runs WHERE week = ?), "
        "(SELECT COUNT(*) FROM rounds WHERE league_id IS NULL AND week = ?), "
        "(SELECT COUNT(*) FROM leagues WHERE web_public = 1), "
        "(SELECT COALESCE(MAX(updated_at), '') FROM guild_settings)",  # a server hiding its name
        (week, week, week))
    return tuple(row) if row is not None else ()

