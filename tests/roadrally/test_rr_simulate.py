"""`simulate`: a whole Road Rally USA game of AI seats as a JSON-able report. Its fields
add up (RULES C8: VP tiles + 2 per stage tile + 2 per checkpoint), the same arguments give the same
report, 3 to 5 seats and the sprint (C9) play to the end, bad arguments are refused with the
engine's errors; and the AI beats seats playing random legal actions clearly more often than chance."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine.core.errors import NotAllowed, RallyError
from bot.engine.roadrally import simulate as sim
from bot.engine.roadrally.actions import Action
from bot.engine.roadrally.play import legal_actions, ranking
from bot.engine.roadrally.presets import DECK_A, DECK_B, preset
from bot.engine.roadrally.state import RRState

FIELDS = {"game", "preset", "players", "seed", "sprint", "course", "spaces", "rounds", "vp", "ranking", "margin",
          "lineup", "vp_tiles", "stage_tiles", "stage_tile_vp", "checkpoints", "stage_cards_revealed",
          "stage_cards_scored", "stages_bypassed", "finish", "spaces_moved", "actions", "plays", "cards_played",
          "store_turns", "shortcuts", "choices", "empty_hand_reshuffles"}


@pytest.mark.parametrize("players,preset_name,sprint", [(3, "rr-base", False), (4, "rr-standard", False),
                                                        (5, "rr-standard", False), (5, "rr-demo-fr", False),
                                                        (3, "rr-standard", True), (5, "rr-base", True)])
def test_the_report_adds_up(players, preset_name, sprint):
    """C8: each seat's VP = its VP tiles + 2 per stage tile + 2 per checkpoint; the ranking is by
    VP; every seat is an AI seat ("-1" …); the report is plain JSON."""
    report = sim.simulate(players, preset_name, 3, sprint=sprint)
    assert set(report) == FIELDS
    assert json.loads(json.dumps(report)) == report
    seats = [f"-{i}" for i in range(1, players + 1)]
    assert report["game"] == "roadrally" and report["players"] == players and report["sprint"] is sprint
    assert sorted(report["vp"]) == seats and sorted(report["ranking"]) == seats and sorted(report["lineup"]) == seats
    p = preset(preset_name)
    for seat in seats:
        assert report["vp"][seat] == (report["vp_tiles"][seat] + report["stage_tile_vp"][seat]
                                      + p.checkpoint_vp * report["checkpoints"][seat])
        assert report["stage_tile_vp"][seat] == p.tile_vp * len(report["stage_tiles"][seat])
    vps = [report["vp"][s] for s in report["ranking"]]
    assert vps == sorted(vps, reverse=True) and report["margin"] == vps[0] - vps[1]
    assert 1 in report["finish"].values()  # C8: the game ends once a car has finished
    revealed = [stage for stage, _ in report["stage_cards_revealed"]]
    assert len(revealed) == len(set(revealed)) == sum(report["stage_cards_scored"].values())
    assert set(revealed) <= set(DECK_B if sprint else DECK_A + DECK_B)
    assert report["actions"] >= sum(report["plays"].values()) > 0
    assert report["rounds"] >= max(report["plays"].values())


@pytest.mark.parametrize("preset_name,sprint,course", [("rr-base", False, "base"), ("rr-standard", False, "std-9"),
                                                       ("rr-demo-fr", False, "std-9"), ("rr-base", True, "sprint-9"),
                                                       ("rr-standard", True, "sprint-9")])
def test_the_default_course(preset_name, sprint, course):
    """C2, C7, C9: the base layout for rr-base, else the seeded course of the seed; a sprint's
    seeded sprint course; a course given is played."""
    assert sim.simulate(3, preset_name, 9, sprint=sprint)["course"] == course
    assert sim.simulate(3, preset_name, 9, sprint=sprint, course="std-4")["course"] == "std-4"


def test_the_same_arguments_give_the_same_report():
    """The dice are seeded in the state: a game replays exactly; another seed is another game."""
    first = sim.simulate(5, "rr-standard", 7)
    assert sim.simulate(5, "rr-standard", 7) == first
    assert json.dumps(sim.simulate(5, "rr-standard", 7)) == json.dumps(first)
    assert sim.simulate(5, "rr-standard", 8, course="std-7") != first


@pytest.mark.parametrize("players", [-1, 0, 1, 2, 6, 9])
def test_a_seat_count_outside_3_to_5_is_refused(players):
    with pytest.raises(RallyError) as err:
        sim.simulate(players, "rr-standard", 1)
    assert err.value.message.key == "roadrally.seats"


@pytest.mark.parametrize("name", ["", "rr-classic", "standard", "../rr-base", "RR-BASE"])
def test_an_unknown_preset_is_refused_naming_the_known_ones(name):
    with pytest.raises(RallyError) as err:
        sim.simulate(4, name, 1)
    assert "rr-standard" in str(err.value)


def test_an_unknown_course_is_refused():
    with pytest.raises(NotAllowed) as err:
        sim.simulate(4, "rr-standard", 1, course="std-x")
    assert err.value.message.key == "roadrally.unknown_course"


def _random_player(rng: random.Random) -> sim.Decide:
    def decide(state: RRState, seat: str) -> Action:
        return rng.choice(legal_actions(state, seat))
    return decide


def _ai_wins(games: int, players: int, ai_seats: int) -> int:
    """Games won (ranked first, C8) by one of `ai_seats` AI seats against random legal players;
    the AI seats move round the table from game to game."""
    wins = 0
    for g in range(games):
        rng = random.Random(g)
        mine = {f"-{(g + k) % players + 1}" for k in range(ai_seats)}
        randomly = _random_player(rng)

        def decide(state: RRState, seat: str, mine: set[str] = mine, randomly: sim.Decide = randomly) -> Action:
            return sim.ai_decide(state, seat) if seat in mine else randomly(state, seat)

        state, _ = sim.run(sim.start(players, ("rr-standard", "rr-base", "rr-demo-fr")[g % 3], g,
                                     course=f"std-{g % 4}"), decide)
        wins += ranking(state)[0] in mine
    return wins


def test_the_ai_beats_random_legal_players_clearly_more_often_than_chance():
    """60 three-seat games, one AI seat against two seats playing random legal actions: chance
    is 1 win in 3 (20 of 60); the AI must win more than half (measured: see the report)."""
    wins = _ai_wins(60, 3, 1)
    assert wins > 30, f"the AI won {wins} of 60 (chance: 20)"


def test_a_random_legal_player_seldom_beats_two_ai_seats():
    """The other way round: one random seat among two AI seats wins far less than its 1 in 3."""
    wins = 60 - _ai_wins(60, 3, 2)
    assert wins < 10, f"the random player won {wins} of 60 (chance: 20)"
