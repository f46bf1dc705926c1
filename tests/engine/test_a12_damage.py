"""RULES A12: damage (lost black dice cap the gear dice; all five lost = knocked out)."""

from __future__ import annotations

from rules_helpers import act, damage_of, event, kinds, make_game, play, refused, space_at

from bot.engine.rallyman.dice_rules import black_cap

ROCKS = "straight 12 [grass|rocks]"
CRASH = [False, True, True, True] + [False] * 40


def crash_right(lost_before: int = 0, drivers: int = 2):
    """Ada goes off to the right (rocks) on space 4 in round 2 (one gear die and two white)."""
    state = make_game(ROCKS, drivers=drivers, faces=CRASH, events=["off_right"])
    state.cars[0].lost_black = lost_before
    state = play(state, "1 stop")
    state, events = act(state, "2 W W")
    return state, events


def test_A12_1_damage_is_the_zone_legend_value_of_the_terrain():
    """A12.1: "Each zone's legend maps terrain → black dice lost" (zone A: rocks 2)."""
    state, events = crash_right()
    lost = damage_of(state.stage, space_at(state.stage, 4), "right")
    assert lost == state.stage.zones["A"].legend_dry[state.stage.spaces[space_at(state.stage, 4)].right.terrain]
    assert state.cars[0].lost_black == lost == 2
    assert event(events, "damage").params == {"terrain": "rocks", "lost": 2, "total": 2, "dice": "dice"}


def test_A12_2_lost_black_dice_cap_the_gear_dice_of_later_turns():
    """A12.2: with k lost, the driver uses at most 5-k gear dice per turn, any gears."""
    state, _ = crash_right(drivers=1)  # solo: the next turn starts at once, 2 dice lost
    assert black_cap(state, state.cars[0]) == 3
    state = play(state, "1", "2", "3")
    refused(state, "4", None, "3 gear dice", "2 lost")
    state = play(state, "W", "stop")
    assert state.turn.used == []


def test_A12_2_the_cap_counts_dice_not_particular_gears():
    """A12.2 example with k = 1: dice 1-2-3-4 one turn, 5-4-3-2 the next."""
    state = make_game("straight 20")
    state.cars[0].lost_black = 1
    state = play(state, "1 2 3 4 stop")
    state, _ = act(state, "5 4 3 2")
    assert state.turn.used == ["5", "4", "3", "2"]
    refused(state, "1", None, "4 gear dice")


def test_A12_5_losing_the_fifth_black_die_is_knocked_out():
    """A12.5 / OPEN-10: black dice lost reaching 5 → knocked out; lost dice never exceed 5."""
    state, events = crash_right(lost_before=4)
    assert "damage_ko" in kinds(events)
    assert state.cars[0].status == "out" and state.cars[0].lost_black == 5
    assert state.cars[0].out_reason == "damage_ko"
    # the knocked-out driver plays no more turns
    assert all(state.cars[i].name != "Ada" for i in ([state.turn.car] + state.queue))


def test_A12_4_damage_stays_for_the_rest_of_the_special():
    """A12.4: damage stays (until an assistance, which is not part of a special)."""
    state, _ = crash_right(drivers=1)
    for _ in range(3):
        state = play(state, "1 stop" if state.turn.gear == 0 else "W stop")
    assert state.cars[0].lost_black == 2
