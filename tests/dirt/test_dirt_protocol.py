"""DIRT behind the `Game` protocol (DESIGN §9): storage, the log's codec, commands,
what is shown, pictures' data, odds, outcome — and refusals that change nothing."""

from __future__ import annotations

import json

import pytest

from bot import games
from bot.engine.core.errors import NotAllowed, RallyError
from bot.engine.core.game import Game, StateVersionError, is_finished, log_problem
from bot.engine.core.log import Start, Status
from bot.engine.dirt.actions import Retire, Roll, Stop, Timeout
from bot.engine.dirt.dice_rules import Step
from bot.engine.dirt.protocol import GAME as DIRT
from bot.engine.dirt.rules import RollStop
from bot.engine.dirt.view import BoardView, ResultsView
from bot.i18n import render

SEATS = [("11", "Ann"), ("22", "Ben")]


def setup(stage: str = "dusty-pines", **modules):
    return DIRT.rules.setup(3, SEATS, {"stage": stage, "ruleset": "provisional", "modules": modules})


def play_out(state, limit: int = 3000):
    """The AI drives every seat to the end of the rally, through the protocol only."""
    for _ in range(limit):
        if is_finished(DIRT.rules, state):
            return state
        (seat,) = DIRT.rules.to_act(state)
        action = DIRT.coach.choose(DIRT.rules.view(state, seat), seat)
        assert DIRT.commands.label(action) in {DIRT.commands.label(a) for a in DIRT.rules.legal_actions(state, seat)}
        state, _ = DIRT.rules.apply(state, seat, action)
    raise AssertionError("the rally did not end")


def test_dirt_is_a_registered_game_of_the_protocol():
    assert isinstance(DIRT, Game)
    assert games.get("dirt") is DIRT
    assert DIRT.rules.result.unit == "s" and DIRT.rules.result.better == "lower"  # B13.2: lowest time wins
    assert {v.name for v in DIRT.commands.verbs} <= {v.name for v in games.verbs()}


def test_a_snapshot_round_trips_and_another_schema_is_refused_naming_both():
    state, _ = setup()
    text = DIRT.rules.to_json(state)
    assert DIRT.rules.to_json(DIRT.rules.from_json(text)) == text
    data = json.loads(text)
    data["schema"] = 2
    with pytest.raises(StateVersionError) as refused:
        DIRT.rules.from_json(json.dumps(data))
    assert "2" in str(refused.value) and "1" in str(refused.value)


def test_every_action_and_the_rallys_own_entries_are_canonical_in_the_log():
    state, _ = setup()
    entries = [Roll(Step("1"), "left"), Roll(Step("2", 1)), RollStop(Roll(Step("coast"), "right")), Stop(),
               Timeout(), Retire("22"), Start(("11", "22")), Status("abandoned")]
    for entry in entries:
        text = DIRT.rules.encode(entry)
        assert DIRT.rules.decode(text) == entry
        assert log_problem(DIRT, text) is None
    assert log_problem(DIRT, '{"v":1,"type":"roll"}') is not None
    assert log_problem(DIRT, '{"v": 1, "type": "stop"}') is not None  # not the canonical text


def test_roll_end_yes_is_one_command_that_rolls_then_stops():
    state, _ = setup()
    seat = "11"
    action = DIRT.commands.parse("1 left stop", state, seat)
    assert isinstance(action, RollStop)
    after, events = DIRT.rules.apply(state, seat, action)
    assert after.to_act() != seat or after.round > state.round  # the turn passed
    assert any(e.kind == "dirt_turn_end" for e in events)


def test_a_refused_action_changes_nothing_and_says_what_is_allowed():
    state, _ = setup()
    before = DIRT.rules.to_json(state)
    with pytest.raises(NotAllowed) as refused:
        DIRT.rules.apply(state, "11", DIRT.commands.parse("3", state, "11"))  # B6.2: from standstill, gear die 1 first
    assert "1" in str(refused.value)
    with pytest.raises(NotAllowed):
        DIRT.rules.apply(state, "22", DIRT.commands.parse("1", state, "22"))  # not Ben's turn
    with pytest.raises(RallyError):
        DIRT.commands.parse("purple", state, "11")
    assert DIRT.rules.to_json(state) == before


def test_bad_setups_are_refused_by_name():
    seats = [("11", "Ann")]
    with pytest.raises(RallyError) as unknown_stage:
        DIRT.rules.setup(1, seats, {"stage": "pinewood-sprint", "ruleset": "provisional"})  # classic's stage
    assert "pinewood-sprint" in str(unknown_stage.value)
    with pytest.raises(RallyError) as bad_ruleset:
        DIRT.rules.setup(1, seats, {"stage": "dusty-pines", "ruleset": "../classic"})
    assert "provisional" in str(bad_ruleset.value)
    with pytest.raises(RallyError) as no_stage:  # not a bare KeyError: the option is named
        DIRT.rules.setup(1, seats, {})
    assert no_stage.value.message.key == "rally.need_stage"
    DIRT.rules.setup(1, seats, {"stage": "gen-42-14", "ruleset": "provisional"})  # a generated stage


def test_prompt_buttons_and_story_come_from_the_view():
    state, events = setup()
    view = DIRT.rules.view(state, None)
    prompt = DIRT.narrator.prompt(view, events)
    assert prompt.to_act == frozenset({"11"}) and prompt.new_turn
    assert set(prompt.buttons) == {DIRT.commands.label(a) for a in DIRT.rules.legal_actions(state, "11")}
    assert all(DIRT.commands.button(label) is not None for label in prompt.buttons)
    assert "Ann" in render(prompt.lines[0], "en") and "Ann" in render(prompt.lines[0], "de")
    told = DIRT.narrator.tell(view, events)
    assert told.chapters == () and any("Dusty Pines" in render(line, "fr") for line in told.lines)


def test_a_two_stage_rally_tells_its_first_stage_as_a_chapter_with_the_classification():
    state, _ = DIRT.rules.setup(5, SEATS, {"stage": "dusty-pines", "modules": {
        "course": {"specials": ["dusty-pines", "sauna-hill"], "assistance": [True]}}, "ruleset": "provisional"})
    chapter = None
    while not is_finished(DIRT.rules, state):
        (seat,) = DIRT.rules.to_act(state)
        state, events = DIRT.rules.apply(state, seat, DIRT.coach.choose(DIRT.rules.view(state, seat), seat))
        told = DIRT.narrator.tell(DIRT.rules.view(state, None), events)
        if told.chapters:
            chapter = told.chapters[0]
    assert chapter is not None
    text = " ".join(render(line, "en") for line in chapter)
    assert "Stage 1 is over" in text and "Rally classification after stage 1" in text


def test_a_whole_rally_ends_with_an_outcome_lowest_time_first_and_its_pictures_data_validate():
    state = play_out(setup()[0])
    outcome = DIRT.rules.outcome(state)
    assert outcome is not None and {r.seat for r in outcome.seats} == {"11", "22"}
    finished = [r.score for r in outcome.seats if r.status == "finished"]
    assert finished == sorted(finished)  # seconds, lower is better
    view = DIRT.rules.view(state, None)
    board = DIRT.pictures.board(view)
    stage, board_view = DIRT.pictures.board_picture({**board, "status": "over"})
    assert isinstance(board_view, BoardView) and stage.name == "dusty-pines"
    results = DIRT.pictures.results(view)
    results_view = DIRT.pictures.results_picture({**results, "title": "t", "subtitle": "s", "columns": ["S1"],
                                               "rows": [{**r, "reason": ""} for r in results["rows"]]})
    assert isinstance(results_view, ResultsView) and len(results_view.rows) == 2
    lines = [render(line, "de") for line in DIRT.narrator.classification(view)]
    assert lines[0].startswith("Ergebnisse — Dusty Pines") and len(lines) == 3
    assert DIRT.library.provisional("provisional")  # the services add "provisional rules" to what they show (B13)
    assert DIRT.rules.to_act(state) == frozenset() and DIRT.rules.legal_actions(state, "11") == []


def test_the_board_shows_the_dice_of_the_turn_just_played_on_their_spaces():
    state, _ = setup()
    state, _ = DIRT.rules.apply(state, "11", DIRT.commands.parse("1 left", state, "11"))
    state, _ = DIRT.rules.apply(state, "11", DIRT.commands.parse("2 left", state, "11"))
    mid = DIRT.pictures.board(DIRT.rules.view(state, None))
    assert [d["die"] for d in mid["dice"]] == ["1", "2"]
    state, _ = DIRT.rules.apply(state, "11", Stop())
    after = DIRT.pictures.board(DIRT.rules.view(state, None))
    assert [d["die"] for d in after["dice"]] == ["1", "2"] and after["path"] == mid["path"]
    ann = next(c for c in after["cars"] if c["seat"] == "11")
    assert ann["space"] == mid["path"][-1] and ann["gear"] == 2 and ann["seconds"] == 50  # B13.2: gear 2 card


def test_odds_are_exact_and_only_for_the_seat_to_act():
    state, _ = setup()
    (line,) = DIRT.odds.odds(DIRT.rules.view(state, "11"), "11", "1")
    assert "0.0%" in render(line, "en")  # no ⚠ shown yet: one die cannot reach 3 (B13.1)
    with pytest.raises(NotAllowed):
        DIRT.odds.odds(DIRT.rules.view(state, "22"), "22", "1")
    with pytest.raises(NotAllowed):
        DIRT.odds.odds(DIRT.rules.view(state, "11"), "11", "stop")


def test_every_out_reason_reads_in_every_language():
    for code in DIRT.library.out_reasons:
        for lang in ("en", "fr", "de"):
            assert render(DIRT.narrator.out_reason(code), lang).strip()


def test_a_timeout_ends_the_turn_as_it_stands_and_the_rally_can_retire_a_seat():
    state, _ = setup()
    assert DIRT.rules.timeout_action(state, "11") == Timeout()
    state, events = DIRT.rules.apply(state, None, Timeout())
    assert any(e.kind == "dirt_stuck" for e in events)  # B13.8.2: no die rolled, the card of its gear
    state, _ = DIRT.rules.apply(state, None, DIRT.rules.retire_action("22"))
    assert state.cars["22"].status == "retired"
