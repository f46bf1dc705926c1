"""The careers' tables (one migration): written in SQLite's dialect, PostgreSQL's
text made by `bot.store.pg_schema` like every step.

- `career_results`: one row per human driver of each finished rally (and each abandoned run: a
  DNF), written in the transaction that ends it: its result (status, place, score and the gap to
  the winner in the game's unit), the stage a personal best counts on (a rally of one special;
  NULL for several), how many seats raced, whether the driver started last, and the counters the
  game's `tally` gave over the rally's log (JSON). Derived data: `CareerService.rebuild` writes
  the very same rows again from the rallies' logs.
- `career_achievements`: an achievement earned, once per driver (the primary key), where
  (server, rally: what the card may show elsewhere) and when.

A second step (`careers_of_rounds`) lets a result be a disqualification (`dsq`: a steward's, on a
league round; neither a finish nor a DNF) and adds `specials`: the driver's time on each special
they crossed the line of, in the rally's order (JSON pairs `[stage, time]`), so every special of a
rally of several gives its personal bests.

A third (`CAREERS_BEHIND`) adds `behind`: how many cars of the field it was placed among finished
behind it, did not finish or were disqualified; a podium needs one (two drivers tied first of two
are ahead of nobody: the place alone cannot say it). NULL: a row written before that step, read
by the rule it had (a place ahead of the last seat) until `db careers --rebuild` writes it.
"""

from __future__ import annotations

from bot.store.connection import POSTGRESQL, Tx


def _results_table(name: str, statuses: str, specials: bool) -> str:
    """`career_results` as a step creates it (the first step's, then the second's with `dsq` and
    `specials`): one shape, written once."""
    extra = "\n        specials     TEXT    NOT NULL DEFAULT '[]'," if specials else ""
    return f"""CREATE TABLE {name} (
        rally_id     INTEGER NOT NULL REFERENCES rallies (id) ON DELETE CASCADE,
        user_id      BIGINT  NOT NULL,
        game         TEXT    NOT NULL,
        guild_id     BIGINT  NOT NULL,
        stage        TEXT,
        seats        INTEGER NOT NULL CHECK (seats >= 1),
        status       TEXT    NOT NULL CHECK (status IN ({statuses})),
        place        INTEGER,
        score        BIGINT,
        unit         TEXT    NOT NULL,
        gap          BIGINT,
        started_last INTEGER NOT NULL DEFAULT 0 CHECK (started_last IN (0, 1)),
        counters     TEXT    NOT NULL DEFAULT '{{}}',
        ended_at     TEXT    NOT NULL,{extra}
        PRIMARY KEY (rally_id, user_id)
    )"""


SCHEMA_CAREERS: tuple[str, ...] = (
    _results_table("career_results", "'finished', 'dnf'", specials=False),
    "CREATE INDEX career_results_by_driver ON career_results (user_id, game, ended_at)",
    """CREATE TABLE career_achievements (
        user_id      BIGINT  NOT NULL,
        achievement  TEXT    NOT NULL,
        game         TEXT    NOT NULL,
        guild_id     BIGINT  NOT NULL,
        rally_id     INTEGER REFERENCES rallies (id) ON DELETE SET NULL,
        earned_at    TEXT    NOT NULL,
        PRIMARY KEY (user_id, achievement)
    )""",
)


_RESULTS_V2 = _results_table("career_results_v2", "'finished', 'dnf', 'dsq'", specials=True)
_OLD_COLUMNS = ("rally_id, user_id, game, guild_id, stage, seats, status, place, score, unit, gap, started_last, "
                "counters, ended_at")


async def careers_of_rounds(tx: Tx) -> None:
    """Step 18 (`SCHEMA_CAREERS` is step 16): `dsq` among the statuses, and the `specials` column
    (see the module's docstring). SQLite cannot change a CHECK: the table is rebuilt with its rows;
    PostgreSQL changes the constraint and adds the column in place (the same columns, in the same
    order). The rows already written get their specials at the next `db careers --rebuild`."""
    if tx.dialect == POSTGRESQL:
        await tx.execute("ALTER TABLE career_results DROP CONSTRAINT career_results_status_check")
        await tx.execute("ALTER TABLE career_results ADD CONSTRAINT career_results_status_check "
                         "CHECK (status IN ('finished', 'dnf', 'dsq'))")
        await tx.execute("ALTER TABLE career_results ADD COLUMN specials TEXT COLLATE \"C\" NOT NULL DEFAULT '[]'")
        return
    await tx.execute(_RESULTS_V2)
    await tx.execute(f"INSERT INTO career_results_v2 ({_OLD_COLUMNS}) SELECT {_OLD_COLUMNS} FROM career_results")
    await tx.execute("DROP TABLE career_results")
    await tx.execute("ALTER TABLE career_results_v2 RENAME TO career_results")
    await tx.execute("CREATE INDEX career_results_by_driver ON career_results (user_id, game, ended_at)")


#: Step 21: the cars a result was ahead of (see the module's docstring); the same text on both backends.
CAREERS_BEHIND: tuple[str, ...] = ("ALTER TABLE career_results ADD COLUMN behind INTEGER",)
