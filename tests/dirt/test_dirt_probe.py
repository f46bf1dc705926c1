"""The state's probe (third pass): what the end-of-turn check worked out, kept for the next
question about the seat to act, is exactly what that question would work out from scratch; any
change drops it, and a state changed by hand is answered from scratch."""

from __future__ import annotations

from bot.engine.dirt import rally as engine
from bot.engine.dirt.moves import dice_key, steps_now
from bot.engine.dirt.probe import probe_of
from bot.engine.dirt.rally import Roll, Step, Stop
from bot.engine.dirt.reach import Reach
from tests.dirt.rally_kit import put, refused, space, start
from tests.dirt.test_dirt_speed_paths import rally_states


def test_a_probe_tells_what_the_state_itself_tells_on_every_state_of_rallies():
    kept = 0
    for stages, seed in ((["lakeside-loop", "wolf-forest"], 6), (["dusty-pines", "copper-mine"], 2)):
        for state, seat in rally_states(stages, seed):
            probe = probe_of(state, seat)
            if probe is None:
                continue
            fresh = Reach(state, seat)
            assert probe.key == dice_key(state, seat) and probe.steps == steps_now(state, seat)
            reach = probe.reach
            assert (reach.here, reach.lane, reach.others, reach.tables) == (
                fresh.here, fresh.lane, fresh.others, fresh.tables)
            assert reach.targets() == fresh.targets()
            kept += 1
    assert kept > 300  # most steps leave the turn running


def test_a_step_that_leaves_the_turn_running_keeps_a_probe_and_any_other_action_drops_it():
    s = start("t-straight", seats=("a", "b"))
    engine.apply(s, "a", Roll(Step("1")))
    assert probe_of(s, "a") is not None and probe_of(s, "b") is None
    assert s.clone().probe is None  # a copy never shares it
    engine.apply(s, "a", Stop())
    assert s.probe is None


def test_a_state_changed_by_hand_is_answered_from_scratch():
    s = start("t-straight", seats=("a",))
    engine.apply(s, "a", Roll(Step("1")))
    assert probe_of(s, "a") is not None
    s.cars["a"].gear = 5  # by hand: another gear, where gear die 2 needs 2 brake dice (B6.5)
    assert probe_of(s, "a") is None
    refused(s, "a", Roll(Step("2")), "dirt.gear_drop_needs_brake")
    s = start("t-straight", seats=("a",))
    engine.apply(s, "a", Roll(Step("1")))
    s.turn_dice = list(s.turn_dice)  # by hand: other dice this turn
    assert probe_of(s, "a") is None
    s = start("t-straight", seats=("a",))
    engine.apply(s, "a", Roll(Step("1")))
    put(s, "a", space(s.stage, 1, 1, 1), 1)  # a test's set-up starts a new turn: nothing kept
    assert s.probe is None and probe_of(s, "a") is None
