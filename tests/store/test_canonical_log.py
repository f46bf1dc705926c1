"""Migration 3 rewrites the action log of an old database in the canonical form, once; `db check`
then names any logged action that is not canonical.

The old database is built as the old bot left it: schema version 2 (`MIGRATIONS[:2]`), rows
written with raw SQL in the old text format (`roll 3 W interior stop`, `start 1002,1001`,
`status abandoned`), a rally really played by the engine so that its snapshot is the replay of
its log."""

from __future__ import annotations

import json
import sqlite3

import pytest

from bot.__main__ import main
from bot.engine.core.errors import RallyError
from bot.engine.rallyman.action_codec import Start, Status, from_text, log_text
from bot.engine.rallyman.actions import (
    LINES,
    Attack,
    ChooseLine,
    Order,
    Place,
    Retire,
    Roll,
    Spare,
    Stop,
    Timeout,
    Tires,
)
from bot.engine.rallyman.game import Seat, apply, legal_actions
from bot.engine.rallyman.rules import start_state
from bot.services.play.replay import log_problem, replay_snapshot
from bot.services.work import snapshot_json
from bot.store import Store
from bot.store.legacy_actions import UntranslatableAction
from bot.store.migrations import MIGRATIONS

WHEN = "2026-01-01T00:00:00.000000+00:00"
# A rally whose engine-driven play (below) meets every kind of action before its end.
STAGE, RULESET, SEED = "greystone-col", "classic", 1
MODULES = {"weather": True, "attack": True, "seconds": True}
SEATS = [Seat("1002", "Bob"), Seat("1001", "Alice"), Seat("1003", "Carol")]
HOST = 1002

# One row of every kind the old bot wrote, and the entry it stands for.
EVERY_KIND = [
    ("start 1002,1001", Start(("1002", "1001"))),
    ("tires snow", Tires("snow")),
    ("line skid", ChooseLine("skid")),
    ("roll 3 W interior stop", Roll(("3", "W"), "interior", True, line_at=1)),
    ("roll 1", Roll(("1",))),
    ("stop", Stop()),
    ("spare", Spare()),
    ("attack 3 4", Attack(("3", "4"))),
    ("order W! 3 interior", Order(("W!", "3"), "interior", 1)),
    ("order best", Order(best=True)),
    ("place 3 interior", Place("3", "interior")),
    ("place W", Place("W")),
    ("timeout", Timeout()),
    ("retire 1001", Retire("1001")),
    ("status abandoned", Status("abandoned")),
]
KINDS = {"start", "tires", "line", "roll", "roll of several dice", "stop", "spare", "attack", "order",
         "order best", "place", "timeout", "retire", "status"}


def old_text(entry) -> str:
    """What the old bot logged for `entry`."""
    if isinstance(entry, Start):
        return "start " + ",".join(entry.seats)
    if isinstance(entry, Status):
        return f"status {entry.status}"
    return str(entry)


def kind(text: str) -> str:
    words = text.split(" ")
    if words[0] == "roll" and len([w for w in words if w in ("1", "2", "3", "4", "5", "W")]) > 1:
        return "roll of several dice"
    return "order best" if text == "order best" else words[0]


def play_like_the_old_bot() -> tuple[list[tuple[int | None, str]], str]:
    """A rally of three drivers played by the engine until it met every kind of action (each turn
    tries another kind first), then abandoned, as the old bot logged it: (actor, old text) rows,
    and the snapshot after the last move."""
    state = start_state(STAGE, RULESET, SEED, MODULES, SEATS)
    log: list[tuple[int | None, str]] = [(HOST, old_text(Start(tuple(s.id for s in SEATS))))]
    first = (Spare, Place, Tires, ChooseLine, Attack, Order, Roll, Stop, Timeout)
    step = 0
    while state.turn is not None and step < 300 and {kind(t) for _, t in log} | {"status"} != KINDS:
        step += 1
        car = state.cars[state.turn.car]
        options = list(legal_actions(state))
        for seat in SEATS:  # a driver waiting to start may choose tires (A20.2)
            if seat.id != car.id:
                options += legal_actions(state, seat.id)
        singles = [o for o in options if isinstance(o, Roll)]
        if step % 3 == 0:  # two dice at once, then the gear card
            options = [Roll(r.dice + (d,), r.line, True, driver=car.id) for r in singles for d in "12345W"] + options
        if step % 2 and any(isinstance(o, Order) for o in options):
            options = [Order(best=True, driver=car.id), *options]
        options += [ChooseLine(line, driver=car.id) for line in LINES] + [Timeout()]
        if step == 20:
            options, singles = [Retire("1003")], []  # the host removes Carol
        rare = [o for o in options if isinstance(o, (Spare, Place))]
        wanted = first[step % len(first)]
        for action in rare + [o for o in options if isinstance(o, wanted)] + singles + options:
            try:
                state, _ = apply(state, action)
            except RallyError:
                continue
            bot = isinstance(action, Timeout)
            actor = None if bot else HOST if isinstance(action, Retire) else int(action.driver)
            log.append((actor, old_text(action)))
            break
    log.append((HOST, old_text(Status("abandoned"))))
    return log, snapshot_json(state)


async def insert_rally(store: Store, rally_id: int, status: str, snapshot: str | None,
                       log: list[tuple[int | None, str]]) -> None:
    """A rally row, its drivers and its log, with the columns of schema version 2."""
    async def body(tx):
        await tx.execute(
            "INSERT INTO rallies (id, guild_id, channel_id, host_id, stage, ruleset, modules, seed, max_drivers, "
            "status, version, snapshot, created_at, updated_at) VALUES (?, 1, ?, ?, ?, ?, ?, ?, 3, ?, ?, ?, ?, ?)",
            (rally_id, 100 + rally_id, HOST, STAGE, RULESET, json.dumps(MODULES), SEED, status, len(log), snapshot,
             WHEN, WHEN))
        for seat, driver in enumerate(SEATS, start=1):
            await tx.execute("INSERT INTO drivers (rally_id, user_id, display_name, seat, joined_at) "
                             "VALUES (?, ?, ?, ?, ?)", (rally_id, int(driver.id), driver.name, seat, WHEN))
        for seq, (actor, text) in enumerate(log, start=1):
            await tx.execute("INSERT INTO actions (rally_id, seq, actor, action, created_at) VALUES (?, ?, ?, ?, ?)",
                             (rally_id, seq, actor, text, WHEN))

    await store.db.write(body)


def rows(path) -> list[tuple[int, int, str]]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT rally_id, seq, action FROM actions ORDER BY rally_id, seq").fetchall()


def user_version(path) -> int:
    with sqlite3.connect(path) as conn:
        return conn.execute("PRAGMA user_version").fetchone()[0]


@pytest.fixture
async def old_db(tmp_path):
    """A version 2 database: a rally played with every kind of action, then abandoned, and a rally
    abandoned in the lobby."""
    path = tmp_path / "old.sqlite3"
    played, snapshot = play_like_the_old_bot()
    async with Store.open(path, migrations=MIGRATIONS[:2]) as store:
        assert await store.schema_version() == 2
        await insert_rally(store, 1, "abandoned", snapshot, played)
        await insert_rally(store, 2, "abandoned", None, [(HOST, "status abandoned")])
    return path, played


def test_the_played_rally_logs_every_kind_of_action(old_db):
    """The premise of the tests below. If a rules change makes this fail, pick another STAGE or
    SEED whose play still meets every kind."""
    _, played = old_db
    assert {kind(text) for _, text in played} == KINDS
    assert {kind(text) for text, _ in EVERY_KIND} == KINDS


async def test_migration_3_rewrites_every_old_row_in_the_canonical_form(old_db):
    path, played = old_db
    assert rows(path)[0][2] == "start 1002,1001,1003"
    async with Store.open(path) as store:
        assert await store.schema_version() >= 3
        report = await store.check(replay_snapshot, log_problem)
    assert report.ok, [str(m) for m in report.mismatches]
    assert report.rallies == 2 and report.actions == len(played) + 1
    after = rows(path)
    assert all(log_problem(text) is None for _, _, text in after)
    assert [from_text(text) for rally, _, text in after if rally == 2] == [Status("abandoned")]
    assert from_text(after[0][2]) == Start(("1002", "1001", "1003"))
    assert [legacy for _, legacy in played] != [text for _, _, text in after]


async def test_migration_3_gives_each_old_text_the_entry_it_stood_for(tmp_path):
    path = tmp_path / "kinds.sqlite3"
    async with Store.open(path, migrations=MIGRATIONS[:2]) as store:
        await insert_rally(store, 1, "abandoned", None, [(HOST, text) for text, _ in EVERY_KIND])
    async with Store.open(path):
        pass
    assert [text for _, _, text in rows(path)] == [log_text(entry) for _, entry in EVERY_KIND]


async def test_the_migrated_rally_replays_to_the_state_the_old_log_replayed_to(old_db):
    """The snapshot of the played rally was made by the engine from the old texts; after the
    migration the canonical log rebuilds it, byte for byte."""
    path, _ = old_db
    async with Store.open(path) as store:
        rally = await store.rallies.get(1)
        drivers = [d.as_dict() for d in await store.drivers.list(1)]
        actions = [a.as_dict() for a in await store.actions.list(1)]
    row = {k: v for k, v in rally.as_dict().items() if k != "snapshot"} | {"drivers": drivers}
    assert replay_snapshot(row, actions) == rally.snapshot


async def test_a_row_that_cannot_be_translated_fails_the_migration_and_changes_nothing(old_db):
    path, _ = old_db
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE actions SET action = '3 blanc tendue' WHERE rally_id = 1 AND seq = 4")
    before = rows(path)
    with pytest.raises(UntranslatableAction) as failed:
        await Store.open(path)
    message = str(failed.value)
    assert "rally #1, action 4" in message and "'3 blanc tendue'" in message
    assert user_version(path) == 2 and rows(path) == before


def test_db_migrate_names_the_row_it_cannot_translate_and_exits_1(old_db, capsys):
    path, _ = old_db
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE actions SET action = 'snapshot' WHERE rally_id = 2 AND seq = 1")
    assert main(["db", "migrate", "--db", str(path)]) == 1
    err = capsys.readouterr().err
    assert "rally #2, action 1: cannot translate the logged action 'snapshot'" in err
    assert user_version(path) == 2


def test_db_check_refuses_the_old_database_until_it_is_migrated(old_db, capsys):
    path, _ = old_db
    assert main(["db", "check", "--db", str(path)]) == 1
    assert "db migrate" in capsys.readouterr().err
    assert main(["db", "migrate", "--db", str(path)]) == 0
    capsys.readouterr()
    assert main(["db", "check", "--db", str(path)]) == 0
    assert capsys.readouterr().out.startswith("ok: 2 rallies")


@pytest.mark.parametrize("edit, reason", [
    ('{"type": "timeout", "v": 1}', 'not in canonical form (canonical: {"type":"timeout","v":1})'),
    ('{"type":"timeout","v":1,"driver":"1002"}', "driver: unknown field for type 'timeout'"),
    ("timeout", "text: not JSON"),
])
async def test_db_check_names_a_hand_edited_row_that_is_not_canonical(old_db, edit, reason):
    """A row edited by hand after the migration: one mismatch naming the rally, the action's
    number and why, even when it still means the same (the first edit replays as before)."""
    path, _ = old_db
    async with Store.open(path):
        pass
    seq = next(seq for rally, seq, text in rows(path) if rally == 1 and text == log_text(Timeout()))
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE actions SET action = ? WHERE rally_id = 1 AND seq = ?", (edit, seq))
    async with Store.open(path) as store:
        report = await store.check(replay_snapshot, log_problem)
    found = [str(m) for m in report.mismatches]
    assert found[0].startswith(f"rally #1: action {seq} {edit!r} is not canonical: {reason}"), found
    assert all(m.rally_id == 1 for m in report.mismatches)
    if edit.startswith('{"type": "timeout"'):
        assert len(found) == 1  # the replay itself still agrees
