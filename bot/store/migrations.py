"""The schema, as numbered migration steps; `PRAGMA user_version` records how many were applied.

Step N runs in one `BEGIN IMMEDIATE` transaction together with setting the version to N, so a
step either applies completely or not at all (SQLite DDL is transactional). Opening an old
database applies the missing steps; a database whose version is higher than `len(MIGRATIONS)`
was written by a newer rallybot and is refused (`SchemaTooNew`) without being changed.

Never edit a released step: append a new one. A step is a tuple of SQL statements or a function
of the open transaction (for data migrations). The DDL below is SQLite's dialect; PostgreSQL runs
the same numbered steps, each statement as `bot/store/pg_schema.py` translates it, and records
the version in its `rallybot_schema` table instead of `PRAGMA user_version`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial

from bot.store.career_schema import CAREERS_BEHIND, SCHEMA_CAREERS, careers_of_rounds
from bot.store.clock import to_millis
from bot.store.connection import POSTGRESQL, Database, Tx
from bot.store.errors import SchemaTooNew
from bot.store.game_columns import games_and_scores
from bot.store.league_names import keyed_league_names
from bot.store.league_schema import LEAGUE_ORGANISERS, LOG_MOVES, SCHEMA_LEAGUES, SCHEMA_RUN_ANSWERS
from bot.store.legacy_actions import UntranslatableAction, legacy_to_canonical
from bot.store.pg_schema import COMPACT_ACTIONS, postgres_statement
from bot.store.rating_schema import SCHEMA_RATINGS
from bot.store.window_answers import SCHEMA_WINDOW_ANSWERS
from bot.store.world_by_game import STATEMENTS as WORLD_BY_GAME

StepFunction = Callable[[Tx], Awaitable[None]]


@dataclass(frozen=True)
class Migration:
    """One schema step: `version` is the user_version it leaves behind."""

    version: int
    description: str
    step: tuple[str, ...] | StepFunction


SCHEMA_V1: tuple[str, ...] = (
    """CREATE TABLE guild_settings (
        guild_id    BIGINT  NOT NULL PRIMARY KEY,
        settings    TEXT    NOT NULL DEFAULT '{}',
        updated_at  TEXT    NOT NULL
    )""",
    # AUTOINCREMENT: a rally id is never reused, so an old button (`rally:<id>:<version>:…`)
    # can never act on a newer rally that got the id of a deleted one.
    """CREATE TABLE rallies (
        id              INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id        BIGINT  NOT NULL,
        channel_id      BIGINT  NOT NULL,
        host_id         BIGINT  NOT NULL,
        stage           TEXT    NOT NULL,
        ruleset         TEXT    NOT NULL,
        modules         TEXT    NOT NULL DEFAULT '{}',
        seed            BIGINT  NOT NULL,
        max_drivers     INTEGER NOT NULL CHECK (max_drivers BETWEEN 1 AND 4),
        turn_deadline_s INTEGER CHECK (turn_deadline_s IS NULL OR turn_deadline_s > 0),
        status          TEXT    NOT NULL DEFAULT 'lobby'
                        CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
        version         INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
        snapshot        TEXT,
        created_at      TEXT    NOT NULL,
        updated_at      TEXT    NOT NULL
    )""",
    """CREATE UNIQUE INDEX rallies_one_active_per_channel
        ON rallies (guild_id, channel_id) WHERE status IN ('lobby', 'running')""",
    "CREATE INDEX rallies_by_status ON rallies (status, guild_id)",
    """CREATE TABLE drivers (
        rally_id     INTEGER NOT NULL REFERENCES rallies (id) ON DELETE CASCADE,
        user_id      BIGINT  NOT NULL,
        display_name TEXT    NOT NULL,
        seat         INTEGER NOT NULL CHECK (seat >= 1),
        joined_at    TEXT    NOT NULL,
        missed_turns INTEGER NOT NULL DEFAULT 0 CHECK (missed_turns >= 0),
        status       TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'left', 'kicked')),
        PRIMARY KEY (rally_id, user_id),
        UNIQUE (rally_id, seat)
    )""",
    "CREATE INDEX drivers_by_user ON drivers (user_id)",
    """CREATE TABLE actions (
        rally_id   INTEGER NOT NULL REFERENCES rallies (id) ON DELETE CASCADE,
        seq        INTEGER NOT NULL CHECK (seq >= 1),
        actor      BIGINT,
        action     TEXT    NOT NULL,
        created_at TEXT    NOT NULL,
        PRIMARY KEY (rally_id, seq)
    )""",
    """CREATE TABLE messages (
        rally_id   INTEGER NOT NULL REFERENCES rallies (id) ON DELETE CASCADE,
        kind       TEXT    NOT NULL,
        channel_id BIGINT  NOT NULL,
        message_id BIGINT  NOT NULL,
        created_at TEXT    NOT NULL,
        PRIMARY KEY (rally_id, kind)
    )""",
    """CREATE TABLE jobs (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        kind         TEXT    NOT NULL,
        ref          TEXT    NOT NULL,
        due_at       TEXT    NOT NULL,
        done_at      TEXT,
        locked_until TEXT,
        attempts     INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        last_error   TEXT,
        created_at   TEXT    NOT NULL
    )""",
    "CREATE INDEX jobs_pending ON jobs (due_at) WHERE done_at IS NULL",
    "CREATE INDEX jobs_by_ref ON jobs (kind, ref)",
)

SCHEMA_V2: tuple[str, ...] = (
    # A rally whose channel the bot cannot reach is paused (no AI turns, no deadlines).
    "ALTER TABLE rallies ADD COLUMN paused_at TEXT",
    # Jobs are found by rally and kind through an index, never by listing every pending job.
    "ALTER TABLE jobs ADD COLUMN rally_id INTEGER REFERENCES rallies (id) ON DELETE CASCADE",
    """UPDATE jobs SET rally_id = CAST(substr(ref, 7, instr(substr(ref, 7), ':') - 1) AS INTEGER)
        WHERE ref LIKE 'rally:%:%' AND EXISTS (SELECT 1 FROM rallies
            WHERE id = CAST(substr(jobs.ref, 7, instr(substr(jobs.ref, 7), ':') - 1) AS INTEGER))""",
    "CREATE INDEX jobs_by_rally ON jobs (rally_id, kind) WHERE done_at IS NULL",
    # The outbox: every message the bot owes a channel or a user, written in the same transaction
    # as the change that makes it due, delivered in id order per lane, once.
    """CREATE TABLE outbox (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        rally_id     INTEGER REFERENCES rallies (id) ON DELETE CASCADE,
        guild_id     BIGINT  NOT NULL,
        channel_id   BIGINT  NOT NULL,
        user_id      BIGINT,
        lane         TEXT    NOT NULL,
        kind         TEXT    NOT NULL,
        body         TEXT    NOT NULL,
        created_at   TEXT    NOT NULL,
        due_at       TEXT    NOT NULL,
        locked_until TEXT,
        attempts     INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        last_error   TEXT,
        done_at      TEXT,
        outcome      TEXT,
        message_id   BIGINT
    )""",
    "CREATE INDEX outbox_owed ON outbox (lane, id) WHERE done_at IS NULL",
    "CREATE INDEX outbox_by_rally ON outbox (rally_id) WHERE done_at IS NULL",
)


async def canonical_action_log(tx: Tx) -> None:
    """Step 3: every logged action, from the engine's text (`roll 3 W interior stop`, `start 1,2`)
    to the canonical JSON of `bot.engine.rallyman.action_codec` (see `bot.store.legacy_actions`), so the
    log no longer depends on the drivers' grammar. One row that cannot be translated fails the
    step (`UntranslatableAction` naming the rally, the action and its text): nothing changes."""
    rows = await tx.fetch_all("SELECT rally_id, seq, action FROM actions ORDER BY rally_id, seq")
    updates = []
    for row in rows:
        try:
            text = legacy_to_canonical(row["action"])
        except UntranslatableAction as exc:
            raise UntranslatableAction(exc.text, exc.reason, row["rally_id"], row["seq"]) from None
        updates.append((text, row["rally_id"], row["seq"]))
    await tx.execute_many("UPDATE actions SET action = ? WHERE rally_id = ? AND seq = ?", updates)


async def jobs_by_guild(tx: Tx) -> None:
    """Step 5: every job names the server it belongs to (`guild_id`), so a process that serves some
    Discord shards claims only their jobs. Rally jobs take their rally's server, league round
    jobs (`round:<id>:…`) their league's; world jobs (the weekly scratch) have none: the process
    of shard 0 runs them."""
    await tx.execute("ALTER TABLE jobs ADD COLUMN guild_id BIGINT")
    await tx.execute("UPDATE jobs SET guild_id = (SELECT guild_id FROM rallies WHERE rallies.id = jobs.rally_id) "
                     "WHERE rally_id IS NOT NULL")
    guilds = {int(r[0]): int(r[1]) for r in await tx.fetch_all(
        "SELECT rounds.id, leagues.guild_id FROM rounds JOIN leagues ON leagues.id = rounds.league_id")}
    updates = []
    for row in await tx.fetch_all("SELECT id, ref FROM jobs WHERE ref LIKE 'round:%'"):
        parts = str(row[1]).split(":")
        if len(parts) >= 2 and parts[1].isdigit() and int(parts[1]) in guilds:
            updates.append((guilds[int(parts[1])], int(row[0])))
    await tx.execute_many("UPDATE jobs SET guild_id = ? WHERE id = ?", updates)


COMPACT_BATCH = 5000


def _millis(text: str) -> int:
    """A logged time (ISO 8601 as the store wrote it, or any offset an older tool wrote) in ms."""
    moment = datetime.fromisoformat(text)
    return to_millis(moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC))


async def compact_actions(tx: Tx) -> None:
    """Step 7: smaller action rows: times as integer milliseconds (`bot.store.clock.to_millis`)
    and, on SQLite, a WITHOUT ROWID table (the key (rally_id, seq) is the row: no second copy in
    an index). SQLite cannot change a column's type: the table is rebuilt, rows copied in key
    order by batches; PostgreSQL changes the type in place (`pg_schema.COMPACT_ACTIONS`)."""
    if tx.dialect == POSTGRESQL:
        await tx.execute(COMPACT_ACTIONS)
        return
    await tx.execute("""CREATE TABLE actions_compact (
        rally_id   INTEGER NOT NULL REFERENCES rallies (id) ON DELETE CASCADE,
        seq        INTEGER NOT NULL CHECK (seq >= 1),
        actor      BIGINT,
        action     TEXT    NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (rally_id, seq)
    ) WITHOUT ROWID""")
    last = (0, 0)
    while rows := await tx.fetch_all(
            "SELECT rally_id, seq, actor, action, created_at FROM actions WHERE (rally_id, seq) > (?, ?) "
            "ORDER BY rally_id, seq LIMIT ?", (*last, COMPACT_BATCH)):
        await tx.execute_many("INSERT INTO actions_compact (rally_id, seq, actor, action, created_at) "
                              "VALUES (?, ?, ?, ?, ?)",
                              [(r[0], r[1], r[2], r[3], _millis(r[4])) for r in rows])
        last = (rows[-1][0], rows[-1][1])
    await tx.execute("DROP TABLE actions")
    await tx.execute("ALTER TABLE actions_compact RENAME TO actions")


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "rallies, drivers, actions, messages, guild settings, jobs", SCHEMA_V1),
    Migration(2, "outbox, jobs by rally, paused rallies", SCHEMA_V2),
    Migration(3, "canonical action log", canonical_action_log),
    Migration(4, "leagues, rounds, runs, results, organiser log, result cards", SCHEMA_LEAGUES),
    Migration(5, "jobs by server (Discord shards)", jobs_by_guild),
    Migration(6, "check marks (db check replays what changed since)", (
        """CREATE TABLE check_marks (
            rally_id     INTEGER NOT NULL PRIMARY KEY REFERENCES rallies (id) ON DELETE CASCADE,
            version      INTEGER NOT NULL,
            snapshot_sha TEXT    NOT NULL,
            checked_at   TEXT    NOT NULL
        )""",
    )),
    Migration(7, "smaller action rows (integer times; SQLite: WITHOUT ROWID)", compact_actions),
    Migration(8, "runs that answer other rounds of the week's official stage", SCHEMA_RUN_ANSWERS),
    # A driver's notifications (`/notify`): "your turn" and "round closes" by DM, and a heads-up
    # by DM when the driver before them starts their turn. One row per user, across servers.
    Migration(9, "notification preferences (DMs)", (
        """CREATE TABLE notify_prefs (
            user_id     BIGINT  NOT NULL PRIMARY KEY,
            dm          INTEGER NOT NULL DEFAULT 0 CHECK (dm IN (0, 1)),
            next_turn   INTEGER NOT NULL DEFAULT 0 CHECK (next_turn IN (0, 1)),
            updated_at  TEXT    NOT NULL
        )""",
    )),
    Migration(10, "league names unique whatever their case (name keys; later duplicates renamed)",
              keyed_league_names),
    Migration(11, "games: a game column, results as score + unit, seats bounded by the game", games_and_scores),
    Migration(12, "a world scratch per game: world rounds and official runs unique by game and week",
              WORLD_BY_GAME),
    # The spectators' web page: a league is shown there only after its organisers chose
    # `/league web public`; every league starts private.
    Migration(13, "leagues shown on the web page by choice", (
        "ALTER TABLE leagues ADD COLUMN web_public INTEGER NOT NULL DEFAULT 0 CHECK (web_public IN (0, 1))",
    )),
    # A channel's rallies shown on the web page without a league (`/rally web public`):
    # one row per published channel (who chose it, when); a channel's rallies listed by id.
    Migration(14, "channels whose rallies are shown on the web page", (
        """CREATE TABLE web_channels (
            guild_id     BIGINT  NOT NULL,
            channel_id   BIGINT  NOT NULL,
            published_by BIGINT  NOT NULL,
            published_at TEXT    NOT NULL,
            PRIMARY KEY (guild_id, channel_id)
        )""",
        "CREATE INDEX rallies_by_channel ON rallies (guild_id, channel_id, id)",
    )),
    # Careers: OpenSkill ratings per game and driver, the results applied in order,
    # each driver's rating after each (`bot/store/rating_schema.py`).
    Migration(15, "ratings per game and driver, their events in order and history", SCHEMA_RATINGS),
    # Careers: one row per human driver of each finished rally (its counters from
    # the log, its result), and the achievements earned, each once (bot/store/careers.py).
    Migration(16, "careers: results of each driver's rallies, achievements", SCHEMA_CAREERS),
    # Hidden information (RULES C10.8): a rally's hidden deal comes from a secret key of its own
    # (NULL for the rallies before, whose deal comes from their seed) whose SHA-256 commitment is
    # published at the start and kept beside it (`db check` compares them), and the answers of a window
    # several seats answer at once wait beside the rally until it closes (bot/store/window_answers.py).
    Migration(17, "a secret deal key per rally, window answers kept apart until the window closes", (
        "ALTER TABLE rallies ADD COLUMN secret TEXT",
        "ALTER TABLE rallies ADD COLUMN deal_sha256 TEXT",
        *SCHEMA_WINDOW_ANSWERS,
    )),
    # Careers count league rounds and world weeks with their places (a steward's DSQ among them)
    # and every special's time of a rally of several (bot/store/career_schema.py).
    Migration(18, "careers: disqualifications, each special's time", careers_of_rounds),
    # The bot processes sharing the database (bot/store/shards.py `ShardRegistry`): a start whose
    # shards clash with a live process's is refused; a record without heartbeat goes stale.
    Migration(19, "bot processes and their Discord shards", (
        """CREATE TABLE shard_processes (
            id           INTEGER PRIMARY KEY AUTOINCREMENT,
            shard_count  INTEGER NOT NULL CHECK (shard_count >= 0),
            shard_ids    TEXT    NOT NULL,
            host         TEXT    NOT NULL,
            pid          INTEGER NOT NULL,
            started_at   TEXT    NOT NULL,
            heartbeat_at TEXT    NOT NULL
        )""",
    )),
    # Stewarding corrections: a penalty withdrawn or changed, a disqualification lifted, each a row
    # of the league log (who, when, why) naming the entry it corrects (`bot/services/league/stewarding.py`).
    Migration(20, "league log corrections name the entry they correct", (
        "ALTER TABLE league_log ADD COLUMN corrects INTEGER",
        "CREATE INDEX league_log_by_league ON league_log (league_id, id)",
    )),
    # Careers keep how many cars each result was ahead of: a tie for a place is a podium only
    # ahead of someone (bot/store/career_schema.py).
    Migration(21, "careers: the cars each result was ahead of", CAREERS_BEHIND),
    # A league names its organisers (its creator first): one hands the league to another member
    # (bot/store/league_schema.py, `/league organisers add: remove:`).
    Migration(22, "leagues name their organisers", LEAGUE_ORGANISERS),
    # A round's move keeps the window it left and the one it took (bot/store/league_schema.py).
    Migration(23, "league log: a moved round's windows", LOG_MOVES),
)


def latest_version(migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """The schema version this code writes."""
    return len(migrations)


def _validate(migrations: Sequence[Migration]) -> None:
    numbers = [m.version for m in migrations]
    if numbers != list(range(1, len(migrations) + 1)):
        raise ValueError(f"migrations must be numbered 1..N in order, got {numbers}")


async def migrate(db: Database, migrations: Sequence[Migration] = MIGRATIONS) -> int:
    """Bring `db` to the latest schema, one transaction per step; returns the resulting version.

    Raises `SchemaTooNew` (nothing changed) if the database is ahead of this code. A step that
    fails rolls back with its version bump, so the database stays at the previous version.
    """
    _validate(migrations)
    known = len(migrations)
    found = await db.user_version()
    if found > known:
        raise SchemaTooNew(db.path, found, known)
    for migration in migrations[found:]:
        await db.write(partial(_apply, migration=migration, path=db.path, known=known))
    return await db.user_version()


async def _apply(tx: Tx, migration: Migration, path: str, known: int) -> None:
    """One step and its version bump, inside one transaction."""
    current = await tx.user_version()  # re-read under the write lock: another process may have migrated
    if current > known:
        raise SchemaTooNew(path, current, known)
    if current >= migration.version:
        return
    if callable(migration.step):
        await migration.step(tx)
    else:
        for index, statement in enumerate(migration.step):
            if tx.dialect == POSTGRESQL:
                statement = postgres_statement(migration.version, index, statement)
            await tx.execute(statement)
    await tx.set_user_version(migration.version)
