"""`bot/services/play/windows.py` on its own: which seats a window asks together, and how answers
close it (RULES C10.8): every answer logged in the seats' order with the events they make, an
answer the state no longer takes left out without dropping the answers after it; the deadline's
closing action logged by the rally after the answers, and a close that ends the game marked
finished on its last entry alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot import games
from bot.engine.core.game import is_finished
from bot.engine.roadrally.rules import Table
from bot.services.play.windows import asked_together, close, with_answers

RR = games.get("roadrally")
KEY = "ab" * 32


def a_window(wanted: Callable[[Table], bool] = lambda table: True) -> Table:
    """A Road Rally USA game played by the AI until a stage window asks several seats at once
    (and `wanted` holds of it)."""
    for seed in range(40):
        table, _ = RR.rules.setup(seed, [(str(1001 + i), f"P{i}") for i in range(4)],
                            {"stage": "standard", "ruleset": "rr-standard", "secret": KEY})
        for _ in range(3000):
            if is_finished(RR.rules, table):
                break
            if len(asked_together(RR, table)) > 1 and wanted(table):
                return table
            seat = min(RR.rules.to_act(table))
            table, _ = RR.rules.apply(table, seat, RR.coach.choose(RR.rules.view(table, seat), seat))
    raise AssertionError("no window found")


def ai_answers(table: Table) -> list[tuple[int, str]]:
    """Every asked seat's answer as the AI would give it, in the seats' order."""
    asked = sorted(asked_together(RR, table), key=int)
    return [(int(seat), RR.rules.encode(RR.coach.choose(RR.rules.view(table, seat), seat))) for seat in asked]


def played(table: Table, entries: list[tuple[int | None, Any]]) -> tuple[Table, list[Any]]:
    """The state and every event of `entries` (seat, action) applied one after the other."""
    events: list[Any] = []
    for seat, action in entries:
        table, step = RR.rules.apply(table, None if seat is None else str(seat), action)
        events += step
    return table, events


def test_one_seat_to_act_is_no_window():
    table, _ = RR.rules.setup(3, [(str(1001 + i), f"P{i}") for i in range(3)],
                        {"stage": "standard", "ruleset": "rr-standard", "secret": KEY})
    assert len(RR.rules.to_act(table)) == 1 and asked_together(RR, table) == frozenset()


def test_closing_logs_every_answer_in_seat_order_with_all_their_events_and_skips_a_bad_one():
    table = a_window()
    asked = sorted(asked_together(RR, table), key=int)
    answers = [(int(seat), RR.rules.encode(RR.coach.choose(RR.rules.view(table, seat), seat))) for seat in asked]
    bad = (int(asked[0]) - 1, answers[0][1])  # no such seat, first in the seats' order
    expected_events, state = [], table
    for user_id, text in answers:
        state, step = RR.rules.apply(state, str(user_id), RR.rules.decode(text))
        expected_events += step
    closing = close(RR, table, [bad, *reversed(answers)])
    assert [(entry.actor, entry.action) for entry in closing.logged] == answers  # the bad one left out
    assert closing.events == expected_events and len(answers) > 1
    assert RR.rules.to_json(closing.state) == RR.rules.to_json(state)
    assert RR.rules.to_json(with_answers(RR, table, [bad, *answers])) == RR.rules.to_json(state)
    assert closing.logged[-1].status == ("finished" if is_finished(RR.rules, state) else None)


def test_C10_2_a_deadline_closes_the_window_after_the_answers_kept_logged_by_the_rally():
    table = a_window()
    answers = ai_answers(table)[:-1]  # the last seat never answered: the deadline closes the window
    deadline = RR.rules.timeout_action(table, str(answers[0][0]))
    state, events = played(table, [(seat, RR.rules.decode(text)) for seat, text in answers] + [(None, deadline)])
    closing = close(RR, table, answers, deadline)
    assert [(entry.actor, entry.action) for entry in closing.logged] == [*answers, (None, RR.rules.encode(deadline))]
    assert closing.events == events and {e.kind for e in events} & {"stage_bypassed", "stage_scored"}
    assert RR.rules.to_json(closing.state) == RR.rules.to_json(state) and not is_finished(RR.rules, state)
    assert [entry.state is None for entry in closing.logged] == [True] * len(answers) + [False]
    assert RR.rules.to_json(closing.logged[-1].state) == RR.rules.to_json(state)


def test_C10_8_answers_that_close_one_window_and_a_deadline_closing_the_next_keep_every_event():
    def opens_another(t: Table) -> bool:  # two stages reached: the second's window opens after this one
        return bool(asked_together(RR, close(RR, t, ai_answers(t)).state))

    table = a_window(opens_another)
    answers = ai_answers(table)
    deadline = RR.rules.timeout_action(table, str(answers[0][0]))
    first, first_events = played(table, [(seat, RR.rules.decode(text)) for seat, text in answers])
    assert asked_together(RR, first) and first_events  # the next stage's window is open
    state, events = played(first, [(None, deadline)])
    closing = close(RR, table, answers, deadline)
    assert closing.events == first_events + events and events
    assert [entry.actor for entry in closing.logged] == [seat for seat, _ in answers] + [None]
    assert RR.rules.to_json(closing.state) == RR.rules.to_json(state)


def test_no_deadline_action_once_the_answers_closed_every_window():
    def closes_for_good(t: Table) -> bool:
        after = close(RR, t, ai_answers(t)).state
        return not asked_together(RR, after) and not is_finished(RR.rules, after)

    table = a_window(closes_for_good)
    answers = ai_answers(table)
    state, events = played(table, [(seat, RR.rules.decode(text)) for seat, text in answers])
    closing = close(RR, table, answers, RR.rules.timeout_action(table, str(answers[0][0])))
    assert [entry.actor for entry in closing.logged] == [seat for seat, _ in answers]
    assert closing.events == events and RR.rules.to_json(closing.state) == RR.rules.to_json(state)


def test_C8_a_window_whose_close_ends_the_game_marks_only_its_last_entry_finished():
    def ends_the_game(t: Table) -> bool:
        return is_finished(RR.rules, close(RR, t, ai_answers(t)).state)

    table = a_window(ends_the_game)
    answers = ai_answers(table)
    state, events = played(table, [(seat, RR.rules.decode(text)) for seat, text in answers])
    closing = close(RR, table, answers)
    assert is_finished(RR.rules, state) and any(e.kind == "over" for e in closing.events) and closing.events == events
    assert [(entry.actor, entry.action) for entry in closing.logged] == answers
    assert [entry.status for entry in closing.logged] == [None] * (len(answers) - 1) + ["finished"]
    assert [entry.state is None for entry in closing.logged] == [True] * (len(answers) - 1) + [False]
    assert RR.rules.to_json(closing.logged[-1].state) == RR.rules.to_json(state)
