"""Migration 7: smaller action rows (integer times; SQLite: WITHOUT ROWID), on both backends."""

from __future__ import annotations

from bot.store import Store
from bot.store.clock import millis_text, to_millis, utc_now
from bot.store.migrations import MIGRATIONS

TIMES = ["2026-11-23T01:08:45.932049Z", "2026-01-01T00:00:00.000000Z", "2030-12-31T23:59:59.999999Z"]


async def test_old_action_rows_keep_everything_but_the_microseconds(db_target):
    async with Store.open(db_target, migrations=MIGRATIONS[:6]) as old:
        rally_id = (await old.db.write(lambda tx: tx.fetch_one(  # as the schema of step 6 takes it
            "INSERT INTO rallies (guild_id, channel_id, host_id, stage, ruleset, seed, max_drivers, created_at, "
            "updated_at) VALUES (1, 2, 3, 's', 'classic', 1, 4, 'x', 'x') RETURNING id")))[0]
        rows = [(rally_id, n, 1000 + n, f'{{"k":"roll","n":{n}}}', text) for n, text in enumerate(TIMES, start=1)]
        await old.db.write(lambda tx: tx.execute_many(
            "INSERT INTO actions (rally_id, seq, actor, action, created_at) VALUES (?, ?, ?, ?, ?)", rows))
    async with Store.open(db_target) as store:
        assert await store.schema_version() == len(MIGRATIONS)
        actions = await store.actions.list(rally_id)
        assert [(a.seq, a.actor, a.action) for a in actions] == [(r[1], r[2], r[3]) for r in rows]
        assert [a.created_at for a in actions] == ["2026-11-23T01:08:45.932000Z", "2026-01-01T00:00:00.000000Z",
                                                    "2030-12-31T23:59:59.999000Z"]
        raw = await store.db.fetch_all("SELECT created_at FROM actions ORDER BY seq")
        assert all(isinstance(r[0], int) for r in raw)
        if store.db.dialect == "sqlite":
            sql = (await store.db.fetch_one("SELECT sql FROM sqlite_master WHERE name = 'actions'"))[0]
            assert "WITHOUT ROWID" in sql


async def test_new_actions_are_logged_in_milliseconds(store):
    rally = await store.rallies.create(guild_id=1, channel_id=2, host_id=3, stage="s", ruleset="classic", seed=1)
    before = to_millis(utc_now())
    await store.append_action(rally.id, 0, 7, '{"k":"x"}', "{}")
    after = to_millis(utc_now())
    (raw,) = await store.db.fetch_all("SELECT created_at FROM actions")
    assert before <= raw[0] <= after
    (action,) = await store.actions.list(rally.id)
    assert action.created_at == millis_text(raw[0])
