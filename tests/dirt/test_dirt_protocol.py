"""DIRT behind the `Game` protocol (issue 24 item 6, DESIGN §9): storage, the log's codec, commands,
what is shown, pictures' data, odds, outcome — and refusals that change nothing."""

from __future__ import annotations

import json

import pytest

from bot import games
from bot.engine.core.errors import NotAllowed, RallyError
from bot.engine.core.game import Game, StateVersionError, log_problem
from bot.engine.core.log import Start, Status
from bot.engine.dirt.actions import Retire, Roll, Stop, Timeout
from bot.engine.dirt.dice_rules import Step
from bot.engine.dirt.protocol import DIRT, RollStop
from bot.engine.dirt.view import BoardView, ResultsView
from bot.i18n import render

SEATS = [("11", "Ann"), ("22", "Ben")]


def setup(stage: str = "dusty-pines", **modules):
    return DIRT.setup(3, SEATS, {"stage": stage, "ruleset": "provisional", "modules": modules})


def play_out(state, limit: int = 3000):
    """The AI drives every seat to the end of the rally, through the protocol only."""
    for _ in range(limit):
        if DIRT.finished(state):
            return state
        (seat,) = DIRT.to_act(state)
        action = DIRT.choose(DIRT.view(state, seat), seat)
        assert DIRT.label(action) in {DIRT.label(a) for a in DIRT.legal_actions(state, seat)}
        state, _ = DIRT.apply(state, seat, action)
    raise AssertionError("the rally did not end")


def test_dirt_is_a_registered_game_of_the_protocol():
    assert isinstance(DIRT, Game)
    assert games.get("dirt") is DIRT
    assert DIRT.result.unit == "s" and DIRT.result.better == "lower"  # B13.2: lowest time wins
    assert {v.name for v in DIRT.verbs} <= {v.name for v in games.verbs()}


def test_a_snapshot_round_trips_and_another_schema_is_refused_naming_both():
    state, _ = setup()
    text = DIRT.to_json(state)
    assert DIRT.to_json(DIRT.from_json(text)) == text
    data = json.loads(text)
    data["schema"] = 2
    with pytest.raises(StateVersionError) as refused:
        DIRT.from_json(json.dumps(data))
    assert "2" in str(refused.value) and "1" in str(refused.value)


def test_every_action_and_the_rallys_own_entries_are_canonical_in_the_log():
    state, _ = setup()
    entries = [Roll(Step("1"), "left"), Roll(Step("2", 1)), RollStop(Roll(Step("coast"), "right")), Stop(),
               Timeout(), Retire("22"), Start(("11", "22")), Status("abandoned")]
    for entry in entries:
        text = DIRT.encode(entry)
        assert DIRT.decode(text) == entry
        assert log_problem(DIRT, text) is None
    assert log_problem(DIRT, '{"v":1,"type":"roll"}') is not None
    assert log_problem(DIRT, '{"v": 1, "type": "stop"}') is not None  # not the canonical text


def test_roll_end_yes_is_one_command_that_rolls_then_stops():
    state, _ = setup()
    seat = "11"
    action = DIRT.parse("1 left stop", state, seat)
    assert isinstance(action, RollStop)
    after, events = DIRT.apply(state, seat, action)
    assert after.to_act() != seat or after.round > state.round  # the turn passed
    assert any(e.kind == "dirt_turn_end" for e in events)


def test_a_refused_action_changes_nothing_and_says_what_is_allowed():
    state, _ = setup()
    before = DIRT.to_json(state)
    with pytest.raises(NotAllowed) as refused:
        DIRT.apply(state, "11", DIRT.parse("3", state, "11"))  # B6.2: from standstill, gear die 1 first
    assert "1" in str(refused.value)
    with pytest.raises(NotAllowed):
        DIRT.apply(state, "22", DIRT.parse("1", state, "22"))  # not Ben's turn
    with pytest.raises(RallyError):
        DIRT.parse("purple", state, "11")
    assert DIRT.to_json(state) == before


def test_bad_setups_are_refused_by_name():
    with pytest.raises(RallyError) as unknown_stage:
        DIRT.validate_setup({"stage": "pinewood-sprint", "ruleset": "provisional"})  # classic's stage
    assert "pinewood-sprint" in str(unknown_stage.value)
    with pytest.raises(RallyError) as bad_ruleset:
        DIRT.validate_setup({"stage": "dusty-pines", "ruleset": "../classic"})
    assert "provisional" in str(bad_ruleset.value)
    DIRT.validate_setup({"stage": "gen-42-14", "ruleset": "provisional"})  # a generated stage


def test_prompt_buttons_and_story_come_from_the_view():
    state, events = setup()
    view = DIRT.view(state, None)
    prompt = DIRT.prompt(view, events)
    assert prompt.to_act == frozenset({"11"}) and prompt.new_turn
    assert set(prompt.buttons) == {DIRT.label(a) for a in DIRT.legal_actions(state, "11")}
    assert all(DIRT.button(label) is not None for label in prompt.buttons)
    assert "Ann" in render(prompt.lines[0], "en") and "Ann" in render(prompt.lines[0], "de")
    told = DIRT.tell(view, events)
    assert told.chapters == () and any("Dusty Pines" in render(line, "fr") for line in told.lines)


def test_a_two_stage_rally_tells_its_first_stage_as_a_chapter_with_the_classification():
    state, _ = DIRT.setup(5, SEATS, {"stage": "dusty-pines", "modules": {
        "course": {"specials": ["dusty-pines", "sauna-hill"], "assistance": [True]}}, "ruleset": "provisional"})
    chapter = None
    while not DIRT.finished(state):
        (seat,) = DIRT.to_act(state)
        state, events = DIRT.apply(state, seat, DIRT.choose(DIRT.view(state, seat), seat))
        told = DIRT.tell(DIRT.view(state, None), events)
        if told.chapters:
            chapter = told.chapters[0]
    assert chapter is not None
    text = " ".join(render(line, "en") for line in chapter)
    assert "Stage 1 is over" in text and "Rally classification after stage 1" in text


def test_a_whole_rally_ends_with_an_outcome_lowest_time_first_and_its_pictures_data_validate():
    state = play_out(setup()[0])
    outcome = DIRT.outcome(state)
    assert outcome is not None and {r.seat for r in outcome.seats} == {"11", "22"}
    finished = [r.score for r in outcome.seats if r.status == "finished"]
    assert finished == sorted(finished)  # seconds, lower is better
    view = DIRT.view(state, None)
    board = DIRT.board(view)
    stage, board_view = DIRT.picture("board", {**board, "status": "over"})
    assert isinstance(board_view, BoardView) and stage.name == "dusty-pines"
    results = DIRT.results(view)
    (results_view,) = DIRT.picture("results", {**results, "title": "t", "subtitle": "s", "columns": ["S1"],
                                               "rows": [{**r, "reason": ""} for r in results["rows"]]})
    assert isinstance(results_view, ResultsView) and len(results_view.rows) == 2
    lines = [render(line, "de") for line in DIRT.classification(view)]
    assert lines[0].startswith("Ergebnisse — Dusty Pines") and len(lines) == 3
    assert DIRT.provisional("provisional")  # the services add "provisional rules" to what they show (B13)
    assert DIRT.to_act(state) == frozenset() and DIRT.legal_actions(state, "11") == []


def test_the_board_shows_the_dice_of_the_turn_just_played_on_their_spaces():
    state, _ = setup()
    state, _ = DIRT.apply(state, "11", DIRT.parse("1 left", state, "11"))
    state, _ = DIRT.apply(state, "11", DIRT.parse("2 left", state, "11"))
    mid = DIRT.board(DIRT.view(state, None))
    assert [d["die"] for d in mid["dice"]] == ["1", "2"]
    state, _ = DIRT.apply(state, "11", Stop())
    after = DIRT.board(DIRT.view(state, None))
    assert [d["die"] for d in after["dice"]] == ["1", "2"] and after["path"] == mid["path"]
    ann = next(c for c in after["cars"] if c["seat"] == "11")
    assert ann["space"] == mid["path"][-1] and ann["gear"] == 2 and ann["seconds"] == 50  # B13.2: gear 2 card


def test_odds_are_exact_and_only_for_the_seat_to_act():
    state, _ = setup()
    (line,) = DIRT.odds(DIRT.view(state, "11"), "11", "1")
    assert "0.0%" in render(line, "en")  # no ⚠ shown yet: one die cannot reach 3 (B13.1)
    with pytest.raises(NotAllowed):
        DIRT.odds(DIRT.view(state, "22"), "22", "1")
    with pytest.raises(NotAllowed):
        DIRT.odds(DIRT.view(state, "11"), "11", "stop")


def test_every_out_reason_reads_in_every_language():
    for code in DIRT.out_reasons:
        for lang in ("en", "fr", "de"):
            assert render(DIRT.out_reason(code), lang).strip()


def test_a_timeout_ends_the_turn_as_it_stands_and_the_rally_can_retire_a_seat():
    state, _ = setup()
    assert DIRT.timeout_action(state, "11") == Timeout()
    state, events = DIRT.apply(state, None, Timeout())
    assert any(e.kind == "dirt_stuck" for e in events)  # B13.8.2: no die rolled, the card of its gear
    state, _ = DIRT.apply(state, None, DIRT.retire_action("22"))
    assert state.cars["22"].status == "retired"
