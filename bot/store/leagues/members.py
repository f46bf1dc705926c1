"""Leagues and their members: create, find, the organiser role, join, leave (one league name per
server whatever its case: `leagues.name_key`, see `bot.store.league_names`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.store.clock import to_text
from bot.store.connection import Tx, constraint_kind
from bot.store.league_names import name_key
from bot.store.leagues.rows import (
    LEAGUE_COLUMNS,
    Duplicate,
    League,
    all_rows,
    as_json,
    insert_once,
    one_row,
)


async def create_league_tx(tx: Tx, *, guild_id: int, name: str, channel_id: int, timezone: str, points: list[int],
                           best_rounds: int | None, ruleset: str, modules: dict[str, Any], dice: str,
                           created_by: int, now: datetime, language: str = "en", game: str = "rallyman") -> League:
    return await insert_once(
        tx, League.from_row,
        "INSERT INTO leagues (guild_id, name, name_key, channel_id, timezone, points, best_rounds, ruleset, "
        "modules, dice, language, created_by, created_at, game, organisers) "
        f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {LEAGUE_COLUMNS}",
        (guild_id, name, name_key(name), channel_id, timezone, as_json(points), best_rounds, ruleset,
         as_json(modules), dice, language, created_by, to_text(now), game, as_json([created_by])),
        Duplicate("league.name_taken", name=name))


async def league_tx(tx: Tx, league_id: int) -> League | None:
    return await one_row(tx, League.from_row, f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE id = ?", (league_id,))


async def leagues_of_guild_tx(tx: Tx, guild_id: int) -> list[League]:
    return await all_rows(tx, League.from_row,
                          f"SELECT {LEAGUE_COLUMNS} FROM leagues WHERE guild_id = ? ORDER BY id", (guild_id,))


async def all_leagues_tx(tx: Tx) -> list[League]:
    return await all_rows(tx, League.from_row, f"SELECT {LEAGUE_COLUMNS} FROM leagues ORDER BY id")


async def set_organiser_role_tx(tx: Tx, league_id: int, role_id: int | None) -> None:
    await tx.execute("UPDATE leagues SET organiser_role = ? WHERE id = ?", (role_id, league_id))


async def set_organisers_tx(tx: Tx, league_id: int, organisers: list[int]) -> None:
    """The members the league names as its organisers, in the order they were named."""
    await tx.execute("UPDATE leagues SET organisers = ? WHERE id = ?", (as_json(organisers), league_id))


async def join_league_tx(tx: Tx, league_id: int, user_id: int, display_name: str, now: datetime) -> None:
    try:
        async with tx.attempt():
            await tx.execute("INSERT INTO league_members (league_id, user_id, display_name, joined_at) "
                             "VALUES (?, ?, ?, ?)", (league_id, user_id, display_name, to_text(now)))
    except Exception as exc:
        if constraint_kind(exc) not in ("unique", "primary_key"):
            raise
        raise Duplicate("league.already_member") from None


async def members_tx(tx: Tx, league_id: int) -> list[tuple[int, str]]:
    """The league's members (user id, display name), in the order they joined."""
    rows = await tx.fetch_all("SELECT user_id, display_name FROM league_members WHERE league_id = ? "
                              "ORDER BY joined_at, user_id", (league_id,))
    return [(int(r[0]), str(r[1])) for r in rows]


async def leave_league_tx(tx: Tx, league_id: int, user_id: int) -> bool:
    """Take a driver out of the league's members (their results stay in `round_results`); False
    when they were not a member."""
    return await tx.execute("DELETE FROM league_members WHERE league_id = ? AND user_id = ?",
                            (league_id, user_id)) == 1


async def member_tx(tx: Tx, league_id: int, user_id: int) -> str | None:
    """The member's display name, or None when they are not in the league."""
    row = await tx.fetch_one("SELECT display_name FROM league_members WHERE league_id = ? AND user_id = ?",
                             (league_id, user_id))
    return str(row[0]) if row else None
