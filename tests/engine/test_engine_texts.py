"""What a new user reads: refusals of a whole roll (RULES A6.3), the prompt after a spare tire
(A14.1), the gear shown by `/rally status` during a turn (RULES 0.2 "current gear"), plurals.

The prompt and status texts are built by the services from the engine's state; they are tested
here with the engine rules that decide them (what is legal now, which gear is current).
"""

from __future__ import annotations

from rules_helpers import LONG, act, make_game, play, put_car, refused, space_at

from bot.engine.core.events import Event
from bot.engine.rallyman.actions import Stop
from bot.engine.rallyman.game import legal_actions
from bot.engine.rallyman.narrate import event_line
from bot.engine.rallyman.status_text import car_line
from bot.services.play.turns import turn_post
from bot.services.work import Change


def in_gear(gear: int, stage: str = LONG, **kw):
    state = make_game(stage, **kw)
    put_car(state, 0, space_at(state.stage, 5), gear)
    return state


# -- (a) a refused roll says which die fails and what is allowed now -------------------------------

def test_A6_3_a_refused_roll_names_the_failing_die_and_the_dice_allowed_now():
    """A6.3.1: `2 1 2` from 3rd: the third die (2 again) is refused. The refusal names that die
    of the roll and lists what is allowed now, in 3rd (2, 3, 4 or white), not at the failing die
    (where only white would be left)."""
    err = refused(in_gear(3), "2 1 2", None, "3rd die of your roll (2)", "already used",
                  "Now, in 3rd, you may roll 2, 3, 4 or white")
    assert "you may roll white." not in str(err)
    assert err.allowed == ("2", "3", "4", "W")


def test_A6_3_a_roll_refused_on_the_road_names_the_die_too():
    """A13.2: the 2nd die of `1 2` would enter a full space: the refusal says it is the 2nd die,
    why (the space is full) and what may be rolled now, in neutral (the 1)."""
    state = make_game("straight 6 cap 1 [grass|grass]", drivers=2)
    put_car(state, 1, space_at(state.stage, 2), 1)
    refused(state, "1 2", None, "2nd die of your roll (2)", "full", "Now, in neutral, you may roll 1")


def test_A6_3_a_chaining_error_in_a_roll_says_so_from_now():
    """A6.3.2: `3 5` from 3rd: the 5 is two above the 3 rolled before it; now (in 3rd) 2, 3, 4
    or white may be rolled."""
    refused(in_gear(3), "3 5", None, "2nd die of your roll (5)", "one above or below",
            "Now, in 3rd, you may roll 2, 3, 4 or white")


# -- (b) after a spare tire the prompt does not offer /stop ----------------------------------------

def _prompt(state, events) -> str:
    post = turn_post(1, 2, state, events, [], Change())
    return post.lines[-1]


def test_A14_1_after_the_spare_tire_the_prompt_does_not_offer_stop():
    """A14.1 / A6.3.7: after fitting the spare the turn has not started (at least one die is
    due): `/stop` is refused, so the prompt must not offer it; it offers the 1st-gear die."""
    state = in_gear(1)
    state.cars[0].flats = 1
    state, events = act(state, "spare")
    assert Stop(driver="d1") not in legal_actions(state)
    prompt = _prompt(state, events)
    assert "/stop" not in prompt and "1" in prompt
    state, events = act(state, "1")  # once a die is rolled, stopping is offered again
    assert "/stop" in _prompt(state, events)


# -- (c) /rally status shows the current gear during a turn ----------------------------------------

def test_0_2_status_shows_the_current_gear_during_a_turn():
    """RULES 0.2: "Current gear" = gear of the last gear die used this turn; the top card only
    before the first die. In 3rd, after rolling the 4, the status says 4th, not 3rd."""
    state = in_gear(3)
    assert "3rd" in car_line(state, state.cars[0])
    state = play(state, "4")
    line = car_line(state, state.cars[0])
    assert "4th" in line and "3rd" not in line


# -- (d) plurals -----------------------------------------------------------------------------------

def test_A12_damage_says_die_or_dice():
    """A12.1 / A15.3: "1 black die lost", "2 black dice lost"."""
    state = make_game("straight 12 [grass|rocks]", faces=[False, True, True, True] + [False] * 20,
                      events=["off_right"], drivers=2)
    state = play(state, "1 stop")
    state, events = act(state, "2 W W")  # rocks: 2 dice
    damage = next(e for e in events if e.kind == "damage")
    assert "2 black dice lost" in event_line(damage, state)
    forest = make_game("straight 12 [grass|forest]", faces=[False, True, True, True] + [False] * 20,
                       events=["off_right"], drivers=2)
    forest = play(forest, "1 stop")
    forest, events = act(forest, "2 W W")  # forest: 1 die
    damage = next(e for e in events if e.kind == "damage")
    assert "1 black die lost" in event_line(damage, forest)
    crash = Event("finish_crash", "d1", {"lost": 1, "dice": "die"})
    assert "1 black die lost" in event_line(crash, forest)


def test_A12_1_a_terrain_of_no_damage_is_told_as_such_not_as_zero_dice_lost():
    """Grass takes no black die (A12.1): "goes into the grass without damage", never "0 black dice
    lost", in every language (read as a player)."""
    from bot.engine.core.events import Event
    from bot.engine.rallyman.narrate import event_line
    from bot.i18n import languages, render

    none = event_line(Event("damage", None, {"terrain": "grass", "lost": 0, "total": 0, "dice": "dice"}))
    some = event_line(Event("damage", None, {"terrain": "rocks", "lost": 2, "total": 2, "dice": "dice"}))
    assert str(none) == "goes into the grass without damage." and "2 black dice lost" in str(some)
    for lang in languages():
        assert "0" not in render(none, lang)
