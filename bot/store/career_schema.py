"""The careers' tables (issue 27 §3–4, one migration): written in SQLite's dialect, PostgreSQL's
text made by `bot.store.pg_schema` like every step.

- `career_results`: one row per human driver of each finished rally (and each abandoned run: a
  DNF), written in the transaction that ends it: its result (status, place, score and the gap to
  the winner in the game's unit), the stage a personal best counts on (a rally of one special;
  NULL for several), how many seats raced, whether the driver started last, and the counters the
  game's `tally` gave over the rally's log (JSON). Derived data: `CareerService.rebuild` writes
  the very same rows again from the rallies' logs.
- `career_achievements`: an achievement earned, once per driver (the primary key), where
  (server, rally: what the card may show elsewhere) and when.
"""

from __future__ import annotations

SCHEMA_CAREERS: tuple[str, ...] = (
    """CREATE TABLE career_results (
        rally_id     INTEGER NOT NULL REFERENCES rallies (id) ON DELETE CASCADE,
        user_id      BIGINT  NOT NULL,
        game         TEXT    NOT NULL,
        guild_id     BIGINT  NOT NULL,
        stage        TEXT,
        seats        INTEGER NOT NULL CHECK (seats >= 1),
        status       TEXT    NOT NULL CHECK (status IN ('finished', 'dnf')),
        place        INTEGER,
        score        BIGINT,
        unit         TEXT    NOT NULL,
        gap          BIGINT,
        started_last INTEGER NOT NULL DEFAULT 0 CHECK (started_last IN (0, 1)),
        counters     TEXT    NOT NULL DEFAULT '{}',
        ended_at     TEXT    NOT NULL,
        PRIMARY KEY (rally_id, user_id)
    )""",
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
