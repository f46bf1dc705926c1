"""Migration step 11: the store by game.

- a `game` column (`'rallyman'` for every row written before) on rallies, leagues, rounds and
  runs: a world scratch entry is a run of a world round (`rounds.league_id` NULL), so it has it too;
- results as a score in the game's unit: `runs.time_s` and `round_results.time_s` become `score`
  (renamed in place: the data stays) beside a `score_unit` (`'s'` seconds or `'vp'` victory points;
  `'s'` for every row written before). The penalty (`round_results.penalty_s`) and the power-stage
  time (`runs.power_s`) are classic's own and keep their names;
- the seats a rally takes are bounded by its game (`bot.games`, checked by the lobby), not by the
  schema: `rallies.max_drivers` keeps only `>= 1`.

SQLite cannot drop a CHECK with ALTER TABLE, and rebuilding `rallies` the way step 7 rebuilt
`actions` is not possible here: `rallies` is the parent of seven tables whose rows are deleted
with it (`ON DELETE CASCADE`), `foreign_keys` is on and cannot be turned off inside the step's
transaction, so dropping the old table would delete every driver, action and message. The CHECK
is rewritten instead by SQLite's documented procedure for removing a CHECK (sqlite.org/lang_altertable.html,
"writable_schema"): the table's stored CREATE text is edited and the schema version bumped, all
inside the step's transaction (a failure rolls it back). PostgreSQL drops and re-adds the constraint.
"""

from __future__ import annotations

from bot.store.connection import POSTGRESQL, Tx
from bot.store.pg_schema import postgres_statement

STEP = 11
OLD_SEATS_CHECK = "CHECK (max_drivers BETWEEN 1 AND 4)"
NEW_SEATS_CHECK = "CHECK (max_drivers >= 1)"

STATEMENTS: tuple[str, ...] = (
    "ALTER TABLE rallies ADD COLUMN game TEXT NOT NULL DEFAULT 'rallyman'",
    "ALTER TABLE leagues ADD COLUMN game TEXT NOT NULL DEFAULT 'rallyman'",
    "ALTER TABLE rounds ADD COLUMN game TEXT NOT NULL DEFAULT 'rallyman'",
    "ALTER TABLE runs ADD COLUMN game TEXT NOT NULL DEFAULT 'rallyman'",
    "ALTER TABLE runs RENAME COLUMN time_s TO score",
    "ALTER TABLE runs ADD COLUMN score_unit TEXT NOT NULL DEFAULT 's' CHECK (score_unit IN ('s', 'vp'))",
    "ALTER TABLE round_results RENAME COLUMN time_s TO score",
    "ALTER TABLE round_results ADD COLUMN score_unit TEXT NOT NULL DEFAULT 's' CHECK (score_unit IN ('s', 'vp'))",
)

# PostgreSQL names a column's CHECK `<table>_<column>_check`.
PG_SEATS = (
    "ALTER TABLE rallies DROP CONSTRAINT rallies_max_drivers_check",
    f"ALTER TABLE rallies ADD CONSTRAINT rallies_max_drivers_check {NEW_SEATS_CHECK}",
)


async def games_and_scores(tx: Tx) -> None:
    """Step 11: game columns, scores with their unit, seats bounded by the game (module docstring)."""
    for index, statement in enumerate(STATEMENTS):
        await tx.execute(postgres_statement(STEP, index, statement) if tx.dialect == POSTGRESQL else statement)
    if tx.dialect == POSTGRESQL:
        for statement in PG_SEATS:
            await tx.execute(statement)
        return
    await _sqlite_seats_check(tx)


async def _sqlite_seats_check(tx: Tx) -> None:
    """Rewrite the stored CREATE TABLE of `rallies` with the new CHECK (see the module docstring)."""
    row = await tx.fetch_one("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'rallies'")
    assert row is not None
    if OLD_SEATS_CHECK not in str(row[0]):
        raise RuntimeError(f"rallies: no {OLD_SEATS_CHECK!r} to replace in {row[0]!r}")
    version_row = await tx.fetch_one("PRAGMA schema_version")
    assert version_row is not None
    await tx.execute("PRAGMA writable_schema = ON")
    try:
        await tx.execute("UPDATE sqlite_master SET sql = replace(sql, ?, ?) WHERE type = 'table' AND name = 'rallies'",
                         (OLD_SEATS_CHECK, NEW_SEATS_CHECK))
        await tx.execute(f"PRAGMA schema_version = {int(version_row[0]) + 1}")
    finally:
        await tx.execute("PRAGMA writable_schema = OFF")
