"""What the spectators' web page (bot/web/) reads and the one flag it depends on.

A league is shown on the web page only after its organisers chose so (`/league web public`,
`leagues.web_public`, migration 13); `set_league_web_tx` writes that choice, everything else
here only reads. The `*_version_tx` functions are the pages' data versions: one small indexed
query each, whose answer changes whenever what the page shows may have changed, so a page is
built once per version and a browser's `If-None-Match` is answered with 304 for the price of
that query.

A rally is public when it was played in a public league's channel, or is a run of a public
league's round that is closed (a run in an open round stays hidden: with shared dice it would
tell the other drivers their dice): `rally_league_tx` finds that league; or when its channel was
published without a league (`/rally web public`, table `web_channels`, migration 14):
`rally_public_tx` answers both.
"""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class Publisher:
    """Who makes a rally public: a league (its id), or its channel (`league_id` None)."""

    league_id: int | None


@dataclass(frozen=True)
class ChannelRally:
    """A rally of a published channel, as the pages list it."""

    id: int
    status: str
    game: str
    stage: str


async def set_channel_web_tx(tx: Tx, guild_id: int, channel_id: int, public: bool, actor_id: int, now: str) -> bool:
    """Publish (or hide) a channel's rallies on the web page; True when that changed something."""
    if public:
        return await tx.execute(
            "INSERT INTO web_channels (guild_id, channel_id, published_by, published_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (guild_id, channel_id) DO NOTHING", (guild_id, channel_id, actor_id, now)) == 1
    return await tx.execute("DELETE FROM web_channels WHERE guild_id = ? AND channel_id = ?",
                            (guild_id, channel_id)) == 1


async def channel_public_tx(tx: Tx, guild_id: int, channel_id: int) -> bool:
    """Whether the channel's rallies are published (`/rally web public`)."""
    row = await tx.fetch_one("SELECT 1 FROM web_channels WHERE guild_id = ? AND channel_id = ?", (guild_id, channel_id))
    return row is not None


async def rally_public_tx(tx: Tx, rally_id: int, guild_id: int, channel_id: int) -> Publisher | None:
    """Who publishes the rally (a public league first, else its published channel); None: private."""
    league = await rally_league_tx(tx, rally_id, guild_id, channel_id)
    if league is not None:
        return Publisher(league)
    return Publisher(None) if await channel_public_tx(tx, guild_id, channel_id) else None


async def channel_rallies_tx(tx: Tx, guild_id: int, channel_id: int, limit: int) -> list[ChannelRally]:
    """The channel's latest rallies, newest first."""
    rows = await tx.fetch_all(
        "SELECT id, status, game, stage FROM rallies WHERE guild_id = ? AND channel_id = ? ORDER BY id DESC LIMIT ?",
        (guild_id, channel_id, limit))
    return [ChannelRally(int(r[0]), str(r[1]), str(r[2] or ""), str(r[3])) for r in rows]


async def published_rallies_tx(tx: Tx, running: bool, limit: int) -> list[ChannelRally]:
    """The latest rallies of the published channels, newest first: the lobbies and running ones
    (`running`), else the ended ones (finished, abandoned)."""
    wanted = "IN ('lobby', 'running')" if running else "IN ('finished', 'abandoned')"
    rows = await tx.fetch_all(
        "SELECT r.id, r.status, r.game, r.stage FROM rallies r JOIN web_channels w "
        f"ON w.guild_id = r.guild_id AND w.channel_id = r.channel_id WHERE r.status {wanted} "
        "ORDER BY r.id DESC LIMIT ?", (limit,))
    return [ChannelRally(int(r[0]), str(r[1]), str(r[2] or ""), str(r[3])) for r in rows]


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


async def channel_version_tx(tx: Tx, guild_id: int, channel_id: int) -> tuple[object, ...]:
    """Changes whenever the list of a channel's rallies may: a new rally, one that ends."""
    row = await tx.fetch_one(
        "SELECT COUNT(*), COALESCE(MAX(id), 0), COALESCE(SUM(CASE WHEN status IN ('lobby', 'running') THEN 0 "
        "ELSE 1 END), 0) FROM rallies WHERE guild_id = ? AND channel_id = ?", (guild_id, channel_id))
    return tuple(row) if row is not None else ()


async def rally_version_tx(tx: Tx, rally_id: int) -> tuple[object, ...]:
    """The rally's version and status (every action bumps the version)."""
    row = await tx.fetch_one("SELECT version, status FROM rallies WHERE id = ?", (rally_id,))
    return tuple(row) if row is not None else ()


async def world_version_tx(tx: Tx, week: str) -> tuple[object, ...]:
    """Changes whenever the home page of the week may: its runs (all games), world rounds, the
    public leagues, the servers' settings (one hides its name), the published channels' rallies."""
    row = await tx.fetch_one(
        "SELECT (SELECT COUNT(*) FROM runs WHERE week = ? AND status = 'finished'), "
        "(SELECT COALESCE(MAX(id), 0) FROM runs WHERE week = ?), "
        "(SELECT COUNT(*) FROM rounds WHERE league_id IS NULL AND week = ?), "
        "(SELECT COUNT(*) FROM leagues WHERE web_public = 1), "
        "(SELECT COALESCE(MAX(updated_at), '') FROM guild_settings), "  # a server hiding its name
        "(SELECT COUNT(*) FROM web_channels), (SELECT COALESCE(MAX(published_at), '') FROM web_channels), "
        "(SELECT COALESCE(SUM(CASE r.status WHEN 'lobby' THEN 1 WHEN 'running' THEN 3 WHEN 'finished' THEN 7 "
        "ELSE 15 END), 0) FROM rallies r JOIN web_channels w ON w.guild_id = r.guild_id "
        "AND w.channel_id = r.channel_id), "
        "(SELECT COALESCE(MAX(r.id), 0) FROM rallies r JOIN web_channels w ON w.guild_id = r.guild_id "
        "AND w.channel_id = r.channel_id)",
        (week, week, week))
    return tuple(row) if row is not None else ()



def _quoted_like(name: str) -> str:
    """A LIKE pattern (escape `\\`) for `name` as a JSON string inside a text column."""
    escaped = name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f'%"{escaped}"%'


async def stage_published_tx(tx: Tx, game: str, name: str) -> bool:
    """Whether a published rally (of a published channel, or of a public league's channel) or a
    public league's round drives `game`'s stage `name` (the stage pages show only those, and
    shipped stages and the world weeks' official ones: bot/web/stage_page.py). A rally's course
    and a round's specials are JSON lists: the name is matched as a quoted JSON string."""
    quoted = _quoted_like(name)
    row = await tx.fetch_one(
        "SELECT 1 FROM rallies r WHERE r.game = ? AND (r.stage = ? OR r.modules LIKE ? ESCAPE '\\') AND ("
        "EXISTS (SELECT 1 FROM web_channels w WHERE w.guild_id = r.guild_id AND w.channel_id = r.channel_id) OR "
        "EXISTS (SELECT 1 FROM leagues l WHERE l.web_public = 1 AND l.guild_id = r.guild_id "
        "AND l.channel_id = r.channel_id)) LIMIT 1", (game, name, quoted))
    if row is not None:
        return True
    row = await tx.fetch_one(
        "SELECT 1 FROM rounds o JOIN leagues l ON l.id = o.league_id WHERE l.web_public = 1 AND o.game = ? "
        "AND o.specials LIKE ? ESCAPE '\\' LIMIT 1", (game, quoted))
    return row is not None


async def world_weeks_tx(tx: Tx, game: str) -> list[str]:
    """The ISO weeks `game` had a world round in (its world scratch: one official stage each)."""
    rows = await tx.fetch_all("SELECT week FROM rounds WHERE league_id IS NULL AND game = ? AND week IS NOT NULL "
                              "ORDER BY week", (game,))
    return [str(r[0]) for r in rows]
