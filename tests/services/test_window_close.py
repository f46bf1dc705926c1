"""`bot/services/windows.py` on its own: which seats a window asks together, and how answers
close it (RULES C10.8): every answer logged in the seats' order with the events they make, an
answer the state no longer takes left out without dropping the answers after it."""

from __future__ import annotations

from bot import games
from bot.engine.core.game import is_finished
from bot.engine.roadrally.rules import Table
from bot.services.windows import asked_together, close, with_answers

RR = games.get("roadrally")
KEY = "ab" * 32


def a_window() -> Table:
    """A Road Rally USA game played by the AI until a stage window asks several seats at once."""
    for seed in range(40):
        table, _ = RR.rules.setup(seed, [(str(1001 + i), f"P{i}") for i in range(4)],
                            {"stage": "standard", "ruleset": "rr-standard", "secret": KEY})
        for _ in range(3000):
            if is_finished(RR.rules, table):
                break
            if len(asked_together(RR, table)) > 1:
                return table
            seat = min(RR.rules.to_act(table))
            table, _ = RR.rules.apply(table, seat, RR.coach.choose(RR.rules.view(table, seat), seat))
    raise AssertionError("no window found")


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
