"""League names are unique in a server whatever their case or Unicode form.

"Cup", "cup" and "ＣＵＰ" are one name: a name's key is its NFKC normalisation casefolded
(`name_key`), kept in `leagues.name_key` under a unique index per server, so a league is found
however its name is typed and no two leagues answer to the same name. Migration step 8
(`keyed_league_names`) keys the leagues that exist: of leagues sharing a key, the first created
keeps its name and each later one is renamed `Name (2)`, `Name (3)`…, and its channel is told
so (an outbox post, in the league's language), since its organiser must now type the new name.
"""

from __future__ import annotations

import unicodedata

from bot.engine.core.text import msg, to_json
from bot.store.clock import utc_now
from bot.store.connection import POSTGRESQL, Tx
from bot.store.outbox import enqueue_tx
from bot.store.pg_schema import postgres_statement

STEP = 10
ADD_KEY = "ALTER TABLE leagues ADD COLUMN name_key TEXT NOT NULL DEFAULT ''"
INDEX_STATEMENTS = (
    "DROP INDEX leagues_by_name",
    "CREATE UNIQUE INDEX leagues_by_name_key ON leagues (guild_id, name_key)",
)


def name_key(name: str) -> str:
    """What makes two league names the same name: NFKC, casefolded (and NFKC again, as casefolding
    may leave a text unnormalised): `Cup`, `CUP`, `ｃｕｐ` → `cup`."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _renamed(name: str, taken: set[str]) -> str:
    """`name (2)`, else `name (3)`…: the first whose key no league of the server has."""
    number = 2
    while name_key(f"{name} ({number})") in taken:
        number += 1
    return f"{name} ({number})"


async def keyed_league_names(tx: Tx) -> None:
    """Step 8: every league's `name_key`; later leagues whose key an earlier one of the same
    server has are renamed (and their channel told); then the unique index on the keys."""
    await tx.execute(postgres_statement(STEP, 0, ADD_KEY) if tx.dialect == POSTGRESQL else ADD_KEY)
    rows = await tx.fetch_all("SELECT id, guild_id, name, channel_id, language FROM leagues ORDER BY id")
    taken: dict[int, set[str]] = {}  # every key of the server, the renamed ones' new keys included
    for row in rows:
        taken.setdefault(int(row["guild_id"]), set()).add(name_key(str(row["name"])))
    first: dict[tuple[int, str], str] = {}  # (server, key) → the name of the league that keeps it
    updates = []
    now = utc_now()
    for row in rows:
        guild, name = int(row["guild_id"]), str(row["name"])
        key = name_key(name)
        if (guild, key) in first:
            new = _renamed(name, taken[guild])
            told = msg("league.renamed_duplicate", other=first[(guild, key)], old=name, name=new)
            await enqueue_tx(tx, guild_id=guild, channel_id=int(row["channel_id"]), kind="post",
                             body={"lines": [to_json(told)], "ping": [], "lang": str(row["language"])}, now=now)
            name, key = new, name_key(new)
            taken[guild].add(key)
        first[(guild, key)] = name
        updates.append((name, key, int(row["id"])))
    await tx.execute_many("UPDATE leagues SET name = ?, name_key = ? WHERE id = ?", updates)
    for statement in INDEX_STATEMENTS:
        await tx.execute(statement)
