"""The careers' rating tables, one migration step.

- `ratings`: a driver's current OpenSkill rating per game (mu, sigma, the ordinal mu − 3σ the
  lists sort by, its change at the latest event for the trend arrow, how many events rated them
  and the name they drove under last). One row per (game, Discord user id): one driver across
  every server.
- `rating_events`: the results applied to a game's ratings, in the order they were applied (a
  finished live rally, a closed league round, a closed world week), each once (unique source):
  `db ratings --rebuild` and a judged round replay them in this order.
- `rating_history`: each rated driver's rank and rating after each event (the trend sparkline of
  the `/driver` card, and the state a replay restarts from).
"""

from __future__ import annotations

SCHEMA_RATINGS: tuple[str, ...] = (
    """CREATE TABLE ratings (
        game         TEXT    NOT NULL,
        user_id      BIGINT  NOT NULL,
        display_name TEXT    NOT NULL,
        mu           REAL    NOT NULL,
        sigma        REAL    NOT NULL,
        ordinal      REAL    NOT NULL,
        change       REAL    NOT NULL DEFAULT 0,
        events       INTEGER NOT NULL DEFAULT 0 CHECK (events >= 0),
        updated_at   TEXT    NOT NULL,
        PRIMARY KEY (game, user_id)
    )""",
    "CREATE INDEX ratings_by_ordinal ON ratings (game, ordinal, user_id)",
    """CREATE TABLE rating_events (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        game       TEXT    NOT NULL,
        source     TEXT    NOT NULL CHECK (source IN ('rally', 'round', 'week')),
        source_id  BIGINT  NOT NULL,
        applied_at TEXT    NOT NULL
    )""",
    "CREATE UNIQUE INDEX rating_events_by_source ON rating_events (source, source_id)",
    "CREATE INDEX rating_events_by_game ON rating_events (game, id)",
    """CREATE TABLE rating_history (
        event_id     INTEGER NOT NULL REFERENCES rating_events (id) ON DELETE CASCADE,
        user_id      BIGINT  NOT NULL,
        game         TEXT    NOT NULL,
        display_name TEXT    NOT NULL,
        rank         INTEGER NOT NULL CHECK (rank >= 1),
        mu           REAL    NOT NULL,
        sigma        REAL    NOT NULL,
        ordinal      REAL    NOT NULL,
        change       REAL    NOT NULL,
        at           TEXT    NOT NULL,
        PRIMARY KEY (event_id, user_id)
    )""",
    "CREATE INDEX rating_history_by_user ON rating_history (user_id, game, event_id)",
    "CREATE INDEX rating_history_by_game ON rating_history (game, event_id)",
)
