"""Schema step 22 on a database with leagues already: each league names its creator as its
organiser (the back-fill's SQL runs on both backends)."""

from __future__ import annotations

from bot.store import Store
from bot.store.leagues import league_tx
from bot.store.migrations import MIGRATIONS


async def test_a_league_made_before_step_22_names_its_creator(db_target):
    async with Store.open(db_target, migrations=MIGRATIONS[:21]) as old:
        await old.db.write(lambda tx: tx.execute(
            "INSERT INTO leagues (guild_id, name, name_key, channel_id, timezone, points, ruleset, dice, created_by, "
            "created_at) VALUES (10, 'Cup', 'cup', 20, 'UTC', '[25]', 'classic', 'personal', 123456789012345678, "
            "'2026-11-01T00:00:00.000Z')"))
    async with Store.open(db_target) as store:
        league = await store.db.read(lambda tx: league_tx(tx, 1))
        assert league is not None and league.organisers == (123456789012345678,)
