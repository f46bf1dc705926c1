"""The championship tables: leagues, their members, rounds, runs, results, the log of
organiser actions and the result cards of closed rounds. Applied as one migration step.

A run is a rally of one driver (`runs.rally_id`): its action log and snapshot live in the rally
tables, so `db check` replays it like any rally. Standings and the world scratch ranking are
indexed queries on `round_results` and `runs`, never replays.
"""

from __future__ import annotations

SCHEMA_LEAGUES: tuple[str, ...] = (
    """CREATE TABLE leagues (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id        BIGINT  NOT NULL,
        name            TEXT    NOT NULL,
        channel_id      BIGINT  NOT NULL,
        timezone        TEXT    NOT NULL,
        points          TEXT    NOT NULL,
        best_rounds     INTEGER CHECK (best_rounds IS NULL OR best_rounds > 0),
        ruleset         TEXT    NOT NULL,
        modules         TEXT    NOT NULL DEFAULT '{}',
        dice            TEXT    NOT NULL CHECK (dice IN ('personal', 'shared')),
        language        TEXT    NOT NULL DEFAULT 'en',
        organiser_role  BIGINT,
        created_by      BIGINT  NOT NULL,
        created_at      TEXT    NOT NULL
    )""",
    "CREATE UNIQUE INDEX leagues_by_name ON leagues (guild_id, name)",
    """CREATE TABLE league_members (
        league_id    INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
        user_id      BIGINT  NOT NULL,
        display_name TEXT    NOT NULL,
        joined_at    TEXT    NOT NULL,
        PRIMARY KEY (league_id, user_id)
    )""",
    # A round of a league, or (league_id NULL) the world scratch round of an ISO week. `seed` is the
    # secret (hex of 256 bits) published at close; `seed_hash` its SHA-256, published at open.
    """CREATE TABLE rounds (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        league_id    INTEGER REFERENCES leagues (id) ON DELETE CASCADE,
        number       INTEGER NOT NULL,
        specials     TEXT    NOT NULL,
        assistance   TEXT    NOT NULL,
        power_stage  INTEGER NOT NULL DEFAULT 0,
        week         TEXT,
        opens_at     TEXT    NOT NULL,
        closes_at    TEXT    NOT NULL,
        status       TEXT    NOT NULL DEFAULT 'scheduled'
                     CHECK (status IN ('scheduled', 'open', 'closed', 'cancelled')),
        seed         TEXT    NOT NULL,
        seed_hash    TEXT    NOT NULL,
        dice         TEXT    NOT NULL CHECK (dice IN ('personal', 'shared')),
        ruleset      TEXT    NOT NULL,
        modules      TEXT    NOT NULL DEFAULT '{}',
        created_by   BIGINT,
        created_at   TEXT    NOT NULL,
        CHECK (closes_at > opens_at)
    )""",
    "CREATE INDEX rounds_by_league ON rounds (league_id, number)",
    "CREATE UNIQUE INDEX rounds_world_week ON rounds (week) WHERE league_id IS NULL",
    # One run per driver and round; one official run per driver and ISO week across all servers.
    """CREATE TABLE runs (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        round_id     INTEGER NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
        user_id      BIGINT  NOT NULL,
        display_name TEXT    NOT NULL,
        guild_id     BIGINT  NOT NULL,
        guild_name   TEXT    NOT NULL DEFAULT '',
        rally_id     INTEGER REFERENCES rallies (id),
        thread_id    BIGINT,
        week         TEXT,
        status       TEXT    NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'dnf')),
        time_s       INTEGER,
        power_s      INTEGER,
        reason       TEXT,
        started_at   TEXT    NOT NULL,
        finished_at  TEXT,
        UNIQUE (round_id, user_id)
    )""",
    "CREATE INDEX runs_by_time ON runs (round_id, status, time_s)",
    "CREATE UNIQUE INDEX runs_official ON runs (week, user_id) WHERE week IS NOT NULL",
    "CREATE INDEX runs_week_time ON runs (week, status, time_s, id) WHERE week IS NOT NULL",
    "CREATE INDEX runs_by_rally ON runs (rally_id)",
    # Written once at close: the classification with points; standings are sums over these rows.
    """CREATE TABLE round_results (
        round_id     INTEGER NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
        league_id    INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
        user_id      BIGINT  NOT NULL,
        display_name TEXT    NOT NULL,
        position     INTEGER,
        time_s       INTEGER,
        penalty_s    INTEGER NOT NULL DEFAULT 0,
        status       TEXT    NOT NULL CHECK (status IN ('classified', 'dnf', 'dsq')),
        reason       TEXT,
        points       INTEGER NOT NULL DEFAULT 0,
        bonus        INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (round_id, user_id)
    )""",
    "CREATE INDEX round_results_by_league ON round_results (league_id, user_id)",
    # Every organiser action, with who, when and why (shown in the results).
    """CREATE TABLE league_log (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        league_id   INTEGER NOT NULL REFERENCES leagues (id) ON DELETE CASCADE,
        round_id    INTEGER REFERENCES rounds (id) ON DELETE CASCADE,
        actor_id    BIGINT  NOT NULL,
        action      TEXT    NOT NULL,
        target_id   BIGINT,
        seconds     INTEGER,
        reason      TEXT    NOT NULL DEFAULT '',
        at          TEXT    NOT NULL
    )""",
    "CREATE INDEX league_log_by_round ON league_log (round_id, action)",
    """CREATE TABLE round_cards (
        round_id    INTEGER NOT NULL PRIMARY KEY REFERENCES rounds (id) ON DELETE CASCADE,
        body        TEXT    NOT NULL
    )""",
)

# Step 8: the week's official stage is one attempt per driver wherever it counts. A run
# (driven in the world round or in one league's official round) also answers every other league
# round on that week's official stage of a league its driver is in: one row per (round, driver),
# so a round counts at most one run of each driver (its own `runs` rows have the same key).
SCHEMA_RUN_ANSWERS: tuple[str, ...] = (
    """CREATE TABLE run_answers (
        round_id    INTEGER NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
        user_id     BIGINT  NOT NULL,
        run_id      INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        PRIMARY KEY (round_id, user_id)
    )""",
    "CREATE INDEX run_answers_by_run ON run_answers (run_id)",
)


#: Step 22: the members a league names as its organisers (a JSON list of user ids), beside the
#: Manage Server permission and the organisers' role: an organiser hands the league to another
#: member with them. Each league names its creator until then.
LEAGUE_ORGANISERS: tuple[str, ...] = (
    "ALTER TABLE leagues ADD COLUMN organisers TEXT NOT NULL DEFAULT '[]'",
    "UPDATE leagues SET organisers = '[' || created_by || ']'",
)

#: Step 23: a round's move keeps its window before and after (`opens/closes`, stored UTC times), so
#: the round's web page tells it as the league's channel was told.
LOG_MOVES: tuple[str, ...] = (
    "ALTER TABLE league_log ADD COLUMN moved_from TEXT",
    "ALTER TABLE league_log ADD COLUMN moved_to TEXT",
)
