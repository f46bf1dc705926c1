"""Rallyman classic behind the `Game` protocol (bot/engine/core/game.py), and the
properties every game owes the bot (GAME-API-NOTES §3.4–§3.6), checked on classic.

- every legal action encodes to one canonical text that decodes back to it, and applies;
- `to_json` / `from_json` round-trip after the dice have moved; a snapshot of another schema is
  refused, naming both versions, and nothing changes;
- the outcome ranks like the classification the bot has always shown (A15.2, A17 OPEN-5);
- the registry names the games there are when asked for one it lacks.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot import games
from bot.engine.core.errors import RallyError
from bot.engine.core.game import POINTS, SECONDS, Game, SeatResult, StateVersionError, UnknownGame, is_finished, ranked
from bot.engine.core.log import Start, Status, lifecycle_text
from bot.engine.dirt.rules import DirtRules
from bot.engine.rallyman.classify import classification
from bot.engine.rallyman.ruleset import Modules

SEATS = [("1001", "Alice"), ("1002", "Bob")]


@pytest.fixture
def game() -> Game:
    return games.get("rallyman")


def play_out(game: Game, state, seat_risk: float = 0.12, limit: int = 400):
    """Drive the whole rally with the game's own AI, each seat from its own view."""
    for _ in range(limit):
        if is_finished(game.rules, state):
            return state
        (seat,) = game.rules.to_act(state)
        action = game.coach.choose(game.rules.view(state, seat), seat, seat_risk)
        state, _ = game.rules.apply(state, seat, action)
    raise AssertionError("the rally did not finish")


def test_classic_is_a_game_registered_by_its_id(game):
    assert isinstance(game, Game)
    assert games.get(None) is game and games.ids()[0] == "rallyman"
    assert (game.rules.seats.min, game.rules.seats.max) == (1, 4)
    assert game.rules.result == SECONDS and game.library.solo_runs
    assert set(game.library.modules) <= set(Modules.model_fields)  # the lobby offers only what the engine has


def test_an_unknown_game_is_refused_naming_the_games_there_are():
    with pytest.raises(UnknownGame) as refused:
        games.get("chess")
    assert "chess" in str(refused.value) and "rallyman" in str(refused.value)


def test_every_legal_action_encodes_decodes_and_applies(game):
    state, _ = game.rules.setup(7, SEATS, {"stage": "pinewood-sprint"})
    checked = 0
    for _ in range(40):
        if is_finished(game.rules, state):
            break
        (seat,) = game.rules.to_act(state)
        actions = game.rules.legal_actions(state, seat)
        assert actions, "a seat to act always has something to do"
        for action in actions:
            text = game.rules.encode(action)
            assert game.rules.decode(text) == replace(action, driver=None)
            assert game.rules.encode(game.rules.decode(text)) == text  # one canonical text
            game.rules.apply(state, seat, action)  # applies (on a copy: `apply` never changes its input)
            checked += 1
        state, _ = game.rules.apply(state, seat, game.coach.choose(game.rules.view(state, seat), seat, 0.12))
    assert checked > 40


def test_a_seat_not_to_act_is_refused_and_the_state_is_unchanged(game):
    state, _ = game.rules.setup(7, SEATS, {"stage": "pinewood-sprint"})
    (seat,) = game.rules.to_act(state)
    other = next(s for s, _ in SEATS if s != seat)
    before = game.rules.to_json(state)
    action = game.rules.legal_actions(state, seat)[0]
    with pytest.raises(RallyError):
        game.rules.apply(state, other, action)
    with pytest.raises(RallyError):
        game.rules.apply(state, other, replace(action, driver=seat))  # nor by naming someone else
    assert game.rules.to_json(state) == before
    assert game.rules.legal_actions(state, other) == []  # nothing to do out of turn at the start (no tires here)


def test_lifecycle_entries_are_the_rally_s_own_and_every_game_reads_them(game):
    for entry in (Start(("1001", "1002")), Status("abandoned")):
        assert game.rules.decode(lifecycle_text(entry)) == entry
        assert game.rules.encode(entry) == lifecycle_text(entry)


def test_snapshots_round_trip_after_the_dice_have_moved(game):
    state, _ = game.rules.setup(11, SEATS, {"stage": "pinewood-sprint", "modules": {"weather": True}})
    for _ in range(12):
        (seat,) = game.rules.to_act(state)
        state, _ = game.rules.apply(state, seat, game.coach.choose(game.rules.view(state, seat), seat, 0.12))
    text = game.rules.to_json(state)
    again = game.rules.from_json(text)
    assert game.rules.to_json(again) == text
    (seat,) = game.rules.to_act(state)
    action = game.coach.choose(game.rules.view(state, seat), seat, 0.12)
    # the same next action gives the same state: the dice stream travelled in the snapshot
    rules = game.rules
    assert rules.to_json(rules.apply(again, seat, action)[0]) == rules.to_json(rules.apply(state, seat, action)[0])


def test_a_snapshot_of_another_schema_is_refused_with_both_versions(game):
    state, _ = game.rules.setup(3, SEATS, {"stage": "pinewood-sprint"})
    data = json.loads(game.rules.to_json(state))
    data["schema"] = 9
    text = json.dumps(data)
    with pytest.raises(StateVersionError) as refused:
        game.rules.from_json(text)
    assert "9" in str(refused.value) and str(game.rules.state_schema) in str(refused.value)
    assert json.loads(text)["schema"] == 9  # the stored text is left as it was


def test_the_outcome_ranks_like_the_classification_shown_since_ever(game):
    for seed in (1, 2, 3, 4):
        state, _ = game.rules.setup(seed, SEATS + [("1003", "Cleo")], {"stage": "pinewood-sprint"})
        state = play_out(game, state)
        outcome = game.rules.outcome(state)
        assert outcome is not None and outcome.kind == SECONDS
        rows = classification(state)
        assert [r.seat for r in outcome.seats] == [r["driver"] for r in rows]
        assert [r.rank for r in outcome.seats] == [r["rank"] for r in rows]
        assert [r.score for r in outcome.seats if r.status == "finished"] == \
            [r["time"] for r in rows if r["status"] == "finished"]


def test_no_outcome_while_the_rally_runs(game):
    state, _ = game.rules.setup(3, SEATS, {"stage": "pinewood-sprint"})
    assert game.rules.outcome(state) is None


def test_ranked_shares_ranks_on_equal_scores_and_sorts_each_way():
    rows = [SeatResult("a", "finished", 90, None, (2,)), SeatResult("b", "finished", 80, None, (1,)),
            SeatResult("c", "finished", 90, None, (1,)), SeatResult("d", "dnf", None, None, (0,), "retired")]
    seconds = ranked(SECONDS, rows)
    assert [(r.seat, r.rank) for r in seconds] == [("b", 1), ("c", 2), ("a", 2), ("d", None)]
    points = ranked(POINTS, rows)
    assert [(r.seat, r.rank) for r in points] == [("c", 1), ("a", 1), ("b", 3), ("d", None)]


def test_a_verb_builds_the_text_the_game_parses(game):
    verbs = {v.name: v for v in game.commands.verbs}
    assert verbs["roll"].text({"dice": " 3 white ", "end": True}) == "3 white stop"
    assert verbs["attack"].text({"dice": "2 3"}) == "attack 2 3"
    assert verbs["stop"].text({}) == "stop"
    with pytest.raises(RallyError):
        verbs["stop"].text({"dice": "3"})


class MuteRules(DirtRules):
    """DIRT's rules under another id: a game the registry has not seen."""

    id = "mute"


def test_a_private_command_is_answered_by_the_games_odds_and_a_game_without_odds_may_not_have_one():
    for played in games.games():  # every registered game: its private commands have odds to answer them
        assert played.odds is not None or not any(v.private for v in played.commands.verbs), played.id
    with pytest.raises(ValueError, match="private command"):  # DIRT's `/odds` with no odds
        games.register(replace(games.get("dirt"), rules=MuteRules(), odds=None))
    assert "mute" not in games.ids()
