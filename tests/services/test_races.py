"""Two commands on one rally at the same moment: exactly one order, and every reply is true.

For every unordered pair of the commands a user can send to a rally (a command with itself is a
double submit), a fresh rally is put in the state where both make sense and the two are sent at
once (`asyncio.gather`). The outcome (who succeeded, every reply's text, the stored rally, its
drivers and log, and the posts the bot owes the channel) must be exactly the outcome of running
the same two commands one after the other, in one order or the other, on fresh databases with
the same seeds: the race is linearizable, so no user is told something no order explains.

"One after the other" is as in a race: both commands arrive at the same moment (each sees the
rally as it was), then run in turn under the rally's lock. That is the service's documented rule
(a typed turn command is bound to the version it found on arrival, so a double submit never plays
twice), and it is what a user sending two commands at once may expect; a sequence where the second
command only arrives after the first finished would hide exactly the double submit this checks.
Besides the comparison, the known facts of each race are asserted in plain words.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.engine.core.errors import RallyError
from bot.engine.rallyman.action_codec import Entry, Start, Status, from_text
from bot.engine.rallyman.actions import Retire, Roll
from bot.i18n import t
from bot.services import RallyService
from bot.services.play.replay import log_problem, replay_snapshot
from bot.store import Store
from tests.services.conftest import ALICE, BOB, CAROL, HERE, snapshot_of

STAGE = "pinewood-sprint"  # the shortest stage: a rally set up in a few milliseconds
COMMANDS = ("join", "leave", "kick", "start", "abandon", "roll", "stop", "click")
TURN_COMMANDS = {"roll", "stop", "click"}
PAIRS = list(itertools.combinations_with_replacement(COMMANDS, 2))

ABANDONED = t("rally.abandoned_meanwhile")
NO_RALLY = t("rally.none_here")
ALREADY_STARTED = t("rally.already_started")
NOT_STARTED = t("rally.not_running")
ALREADY_PLAYED = t("turn.already_played")
TURN_OVER = t("turn.stale")


def state_for(a: str, b: str) -> str:
    """Where the two commands race: the start against anything races in the lobby (a roll sent as
    the host starts); a turn command against anything else in a running rally, with the driver's
    first die rolled (so `stop` is a legal move); lobby commands against each other in the lobby."""
    pair = {a, b}
    if "start" in pair:
        return "lobby"
    if pair & TURN_COMMANDS:
        return "turn"
    return "lobby"


@dataclass(frozen=True)
class Setup:
    state: str
    rally_id: int
    version: int  # the rally's version when both commands are sent (what a button carries)


def command(name: str, service: RallyService, setup: Setup) -> Callable[[], Awaitable[Any]]:
    """The command as its user sends it: Carol joins, Alice leaves, Bob (host, driving first)
    kicks Alice, starts, abandons, rolls, stops or clicks a die button of the current turn."""
    roll_text = "1" if setup.state == "lobby" else "2"  # Bob's legal next die in that state
    button = "1" if setup.state == "lobby" else "W"
    return {
        "join": lambda: service.join(HERE, CAROL),
        "leave": lambda: service.leave(HERE, ALICE),
        "kick": lambda: service.kick(HERE, BOB, ALICE.user_id, ALICE.name),
        "start": lambda: service.start(HERE, BOB),
        "abandon": lambda: service.abandon(HERE, BOB),
        "roll": lambda: service.verb(HERE, BOB, "roll", {"dice": roll_text}),
        "stop": lambda: service.verb(HERE, BOB, "stop", {}),
        "click": lambda: service.press(HERE, BOB, setup.rally_id, setup.version, button),
    }[name]


async def prepare(store: Store, state: str) -> tuple[RallyService, Setup]:
    """A rally on a fresh database: Bob hosts (3 seats), Bob and Alice joined; for "turn" it is
    started and Bob, driving first, has rolled his first die."""
    service = RallyService(store, seed_source=lambda: 42)
    await service.create(HERE, BOB, STAGE, drivers=3)
    await service.join(HERE, BOB)
    await service.join(HERE, ALICE)
    if state == "turn":
        await service.start(HERE, BOB)
        await service.verb(HERE, BOB, "roll", {"dice": "1"})
    rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
    return service, Setup(state, rally.id, rally.version)


class Gate(asyncio.Lock):
    """The rally's lock, counting who came to take it: the test holds it while both commands
    arrive, then lets them through in the order they queued (asyncio locks are first come,
    first served)."""

    def __init__(self) -> None:
        super().__init__()
        self.arrived = 0
        self.changed = asyncio.Event()

    async def acquire(self) -> bool:
        self.arrived += 1
        self.changed.set()
        return await super().acquire()


async def _queued(gate: Gate, count: int, task: asyncio.Task) -> None:
    """Until `count` callers came to the gate, or `task` ended without needing it."""
    while gate.arrived < count and not task.done():
        gate.changed.clear()
        waiter = asyncio.ensure_future(gate.changed.wait())
        done, _ = await asyncio.wait({waiter, task}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        assert done, "a command neither reached the rally's lock nor ended"


async def in_order(service: RallyService, first: Callable[[], Awaitable[Any]],
                   second: Callable[[], Awaitable[Any]]) -> list[Any]:
    """Both commands arrive while the rally is busy, then run one after the other."""
    gate = Gate()
    service.work.lock = lambda rally_id: gate  # every command of this one rally takes the gate
    async with gate:
        one = asyncio.create_task(first())
        await _queued(gate, 2, one)
        two = asyncio.create_task(second())
        await _queued(gate, 3, two)
    return list(await asyncio.gather(one, two, return_exceptions=True))


def result_of(result: Any) -> tuple:
    """What the user of one command sees: the refusal's text, or the reply (and what it posts)."""
    if isinstance(result, RallyError):
        return ("refused", str(result))
    if isinstance(result, BaseException):
        raise AssertionError(f"a command crashed instead of answering: {result!r}") from result
    return ("ok", tuple(result.lines), result.ping, result.turn, result.outbox, result.ephemeral)


def _untimed(row: dict) -> dict:
    return {k: v for k, v in row.items() if k not in ("created_at", "updated_at", "joined_at")}


async def stored(store: Store, rally_id: int) -> tuple:
    """The rally row, drivers, log and owed posts, without the wall-clock times (the databases
    compared were written at different instants)."""
    rally = await store.rallies.get(rally_id)
    drivers = [_untimed(d.as_dict()) for d in await store.drivers.list(rally_id)]
    actions = [_untimed(a.as_dict()) for a in await store.actions.list(rally_id)]
    owed = [(row.lane, row.kind, row.body) for row in await store.outbox.owed()]
    return _untimed(rally.as_dict()), drivers, actions, owed


@dataclass(frozen=True)
class Outcome:
    results: tuple  # (first command's, second command's), in the pair's order
    rally: tuple

    @property
    def a(self) -> tuple:
        return self.results[0]

    @property
    def b(self) -> tuple:
        return self.results[1]


async def play(path: Path, a: str, b: str, how: str) -> Outcome:
    """Set up the pair's state on a fresh database at `path` and send `a` and `b`: "together"
    (either scheduled first), "a first" or "b first"."""
    store = await Store.open(path)
    try:
        service, setup = await prepare(store, state_for(a, b))
        first, second = command(a, service, setup), command(b, service, setup)
        if how == "together":  # sent at once, `a` the first to be scheduled
            results = await asyncio.gather(first(), second(), return_exceptions=True)
        elif how == "together, b scheduled first":
            results = list(reversed(await asyncio.gather(second(), first(), return_exceptions=True)))
        elif how == "a first":
            results = await in_order(service, first, second)
        else:
            results = list(reversed(await in_order(service, second, first)))
        outcome = Outcome(tuple(result_of(r) for r in results), await stored(store, setup.rally_id))
        report = await store.check(replay_snapshot, log_problem)
        assert report.ok, [str(m) for m in report.mismatches]
        if outcome.rally[0]["status"] in ("lobby", "running"):  # the conftest view agrees
            view = await snapshot_of(store)
            assert view is not None and view[0]["version"] == outcome.rally[0]["version"]
        return outcome
    finally:
        await store.close()


def refused(result: tuple) -> bool:
    return result[0] == "refused"


def text(result: tuple) -> str:
    return result[1] if refused(result) else "\n".join(result[1])


def logged(outcome: Outcome) -> list[Entry]:
    """The log of the rally, read back from its canonical form."""
    return [from_text(entry["action"]) for entry in outcome.rally[2]]


def check_known_facts(a: str, b: str, got: Outcome) -> None:
    """The facts of each race, in the words a user reads."""
    results = {a: got.a, b: got.b} if a != b else {}
    log = logged(got)
    if {a, b} == {"leave", "start"}:
        leave, start = results["leave"], results["start"]
        assert not refused(start) and not refused(leave)
        if Start(("1002", "1001")) in log:  # Alice was seated: she retires from the started rally
            assert "Alice leaves the rally and retires." in text(leave)
            assert log.index(Start(("1002", "1001"))) < log.index(Retire("1001"))
        else:  # she left in the lobby: not in the game, never "leaves" while driving
            assert Start(("1002",)) in log and text(leave) == "Alice leaves the rally."
    if {a, b} == {"kick", "start"}:
        kick = results["kick"]
        if Start(("1002", "1001")) in log:
            assert "Alice is removed from the rally and retires." in text(kick)
        else:
            assert Start(("1002",)) in log and text(kick) == "Alice is removed from the rally."
    if {a, b} == {"join", "start"}:
        join = results["join"]
        if refused(join):
            assert text(join) == ALREADY_STARTED and Start(("1002", "1001")) in log
        else:
            assert Start(("1002", "1001", "1003")) in log  # Carol joined first: she drives
    if "abandon" in (a, b):
        if a == b == "abandon":  # a double abandon: one abandons, the other is told so
            assert sorted(refused(r) for r in got.results) == [False, True]
        else:
            other = results[b if a == "abandon" else a]
            assert not refused(results["abandon"]), "abandon always wins"
            if refused(other):  # it lost to the abandon, and is told so (not "already started")
                told = text(other)
                assert "abandoned" in told or told in (NO_RALLY, TURN_OVER), (
                    f"{a if other is got.a else b} lost to the abandon and was told {told!r}")
        assert got.rally[0]["status"] == "abandoned" and log[-1] == Status("abandoned")
    if {a, b} == {"abandon", "roll"}:
        roll = results["roll"]
        if refused(roll):
            assert text(roll) != NOT_STARTED and text(roll) == ABANDONED
        else:
            assert log[-2:] == [Roll(("2",)), Status("abandoned")]  # the roll went first
    if a == b and a in TURN_COMMANDS:  # a double submit plays once
        assert sorted(refused(r) for r in got.results) == [False, True]
        loser = next(r for r in got.results if refused(r))
        assert text(loser) == (TURN_OVER if a == "click" else ALREADY_PLAYED)


@pytest.mark.parametrize("a, b", PAIRS, ids=[f"{a}+{b}" for a, b in PAIRS])
async def test_two_commands_at_once_have_one_order_and_true_replies(tmp_path, a, b):
    """Sent at the same moment, `a` and `b` give exactly what one of their two orders gives."""
    a_first = await play(tmp_path / "a_first.sqlite3", a, b, "a first")
    b_first = await play(tmp_path / "b_first.sqlite3", a, b, "b first")
    for how in ("together", "together, b scheduled first"):
        together = await play(tmp_path / f"{how.replace(' ', '_').replace(',', '')}.sqlite3", a, b, how)
        assert together in (a_first, b_first), (
            f"\n{how}: {together.results}\na first: {a_first.results}\nb first: {b_first.results}")
        check_known_facts(a, b, together)
    for outcome in (a_first, b_first):
        check_known_facts(a, b, outcome)
