"""A knock-out in a rally of several specials never freezes it (RULES A2, A8.6, A9.4,
A12.5, A15.3, A16, A17).

Whole rallies of two or three specials, with and without assistance, are played in the console
(the real services, store and outbox) until the rally classification. One driver drives to be
knocked out in a given way: 3+ gears too fast into a corner (A8.6), a third flat (A9.4), the last
black die lost (A12.5, also when a finish crash, A15.3, leaves none for the next special), or a
crash on the finish line (A15.3); the others drive as the AI. The dice are seeded, so each rally is
the same every run; the seeds were found by playing these rallies, not by faking the knock-out.

Each rally must go on to its next special and to the end: no refusal, no error, every post
delivered, and every post readable in English, French and German (no message key missing).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest

from bot.console import PLACE, Console, user_id
from bot.engine.core.text import Listed, Msg
from bot.engine.rallyman.actions import Action, Roll, Spare
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.game import legal_actions
from bot.engine.rallyman.moves.by_die import die_moves
from bot.engine.rallyman.moves.model import KO, LOC
from bot.engine.rallyman.out_reasons import OUT_REASONS, out_reason_word
from bot.engine.rallyman.protocol import GAME as RALLYMAN
from bot.engine.rallyman.stages.model import FINISH, SpaceKind
from bot.engine.rallyman.state import GameState
from bot.i18n import languages, render
from bot.services import RallyService
from bot.services.league.round_close import reason_text
from bot.store import Store

NAMES = ("ada", "bea", "cy")
KNOCKED = "ada"  # the driver who drives to be knocked out


def _roll(die: str, line: str | None, move, driver: str) -> Roll:
    return Roll((die,), line if line and move.line == line else None, driver=driver)


def reckless(state: GameState, how: str) -> Action:
    """The action of the driver who drives to be knocked out `how`; any other driver's, the AI's."""
    turn = state.turn
    assert turn is not None
    car = state.cars[turn.car]
    if car.id != str(user_id(KNOCKED)):
        return choose_action(state)
    moves = list(die_moves(state, car, turn))
    on_the_edge = turn.hazards >= state.rules.hazard_limit - 1  # one more ⚠ loses control
    faster = sorted((m for m in moves if m[0] != "W" and m[2].outcome == "ok"), key=lambda m: -int(m[0]))
    wanted = {
        "overspeed_ko": [m for m in moves if m[2].outcome == KO and m[2].reason == "overspeed"] + faster,
        "damage_ko": [m for m in moves if m[2].outcome == LOC] + faster,
        "flats_ko": [m for m in moves if m[2].outcome != KO and m[2].target >= 0
                     and state.stage.spaces[m[2].target].kind is SpaceKind.SHORTCUT],
        "finish_crash": [m for m in moves if m[2].target == FINISH and m[2].outcome == LOC]
                        + [m for m in moves if m[2].target == FINISH and m[2].outcome != KO and on_the_edge]
                        + [m for m in moves if m[0] == "W" and m[2].outcome == "ok" and not on_the_edge] + faster,
    }[how]
    if wanted:
        return _roll(*wanted[0], driver=car.id)
    action = choose_action(state)
    if isinstance(action, Spare) and how == "flats_ko":  # keeps its flats to be knocked out by the third
        return next(a for a in legal_actions(state) if isinstance(a, Roll))
    return action


class EveryLanguage(Console):
    """The console, also reading every line it prints in every language of the catalogue: a
    message key missing in one of them fails the rally where it is shown."""

    keys: set[str]

    def _print(self, name, lines, ephemeral, prefix=None, lang=None):
        lines = list(lines)
        for line in lines:
            _keys(line, self.keys)
            for other in languages():
                render(line, other)
        super()._print(name, lines, ephemeral, prefix, lang)


def _keys(value: object, into: set[str]) -> None:
    """The message keys in a shown text, its params' included."""
    if isinstance(value, Msg):
        into.add(value.key)
        for param in value.params.values():
            _keys(param, into)
    elif isinstance(value, Listed):
        for item in value.items:
            _keys(item, into)


@dataclass(frozen=True)
class Case:
    how: str  # the way the driver is knocked out (the engine's event)
    stages: tuple[str, ...]
    assistance: str  # the `/rally create assistance:` option
    seed: int


CASES = [
    Case("overspeed_ko", ("pinewood-sprint", "quarry-switchbacks"), "none", 1),
    Case("overspeed_ko", ("pinewood-sprint", "quarry-switchbacks", "frozen-lakes"), "all", 1),
    Case("damage_ko", ("black-moor", "millbrook-lakes"), "none", 2),
    Case("damage_ko", ("black-moor", "millbrook-lakes", "frozen-lakes"), "all", 7),
    Case("flats_ko", ("gen-80-20", "gen-80-20", "gen-80-20"), "none", 1),
    Case("finish_crash", ("pinewood-sprint", "quarry-switchbacks"), "none", 33),
    Case("finish_crash", ("pinewood-sprint", "quarry-switchbacks", "frozen-lakes"), "all", 33),
]


async def play(store: Store, case: Case) -> tuple[str, set[str]]:
    """Play the rally of `case` to its end; (what the console printed, the message keys shown)."""
    service = RallyService(store, seed_source=lambda: case.seed)
    out = io.StringIO()
    console = EveryLanguage(service, out=out)
    console.keys = set()
    drivers = len(NAMES)
    await console.run_line(f"ada: /rally create stage:{','.join(case.stages)} drivers:{drivers} "
                           f"assistance:{case.assistance}")
    for name in NAMES:
        await console.run_line(f"{name}: /rally join")
    await console.run_line("ada: /rally start")
    by_id = {str(user_id(n)): n for n in NAMES}
    for _ in range(2000):
        rally = await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id)
        if rally is None:
            break
        state = service.work.state_of(rally)
        assert state.active is not None
        before = rally.version
        choice = RALLYMAN.commands.label(reckless(state, case.how))
        command = f"/roll {choice}" if choice[0] in "12345W" else f"/{choice}"
        await console.run_line(f"{by_id[state.active.id]}: {command}")
        after = await store.rallies.get(rally.id)
        assert after.version > before, out.getvalue()[-3000:]  # the action was committed
    return out.getvalue(), console.keys


@pytest.fixture
async def sqlite_store(tmp_path):
    store = await Store.open(tmp_path / "rallybot.sqlite3")
    try:
        yield store
    finally:
        await store.close()


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.how}-{len(c.stages)}ss-{c.assistance}")
async def test_a_knocked_out_car_never_stops_a_rally_of_several_specials(sqlite_store, case):
    text, keys = await play(sqlite_store, case)
    assert f"event.{case.how}" in keys  # the driver was knocked out as the case says
    assert "[only" not in text, text[-3000:]  # no refusal and no error in the whole rally
    count = len(case.stages)
    assert f"Rally classification — {count} specials" in text, text[-3000:]
    for number in range(1, count + 1):
        assert f"SS{number} (" in text
    finished = await sqlite_store.rallies.list_by_status(("finished",))
    assert len(finished) == 1


@pytest.mark.parametrize("reason", [r for r in OUT_REASONS if r != "retired"])  # "retired" reads "retired"
def test_a_runs_out_reason_reads_in_words_in_the_league_results(reason):
    """A league run's DNF keeps the engine's reason (`damage_ko` …): the results table shows its
    words in each language, not the code (it showed `damage_ko`)."""
    shown = reason_text(reason)
    assert shown == out_reason_word(reason) and reason not in shown
    for lang in languages():
        assert render(shown, lang) and reason not in render(shown, lang)
