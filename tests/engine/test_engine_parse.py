"""The drivers' grammar (RULES D1 words for dice, lines and stopping) and canonical action text."""

from __future__ import annotations

import pytest
from rules_helpers import act, corner_ids, make_game, put_car, refused, space_at

from bot.engine.rallyman.actions import ChooseLine, Roll, Spare, Stop
from bot.engine.rallyman.parse import parse

W = "W"


@pytest.mark.parametrize("text, dice", [
    ("3 white 4", ("3", W, "4")),
    ("3 w 4", ("3", W, "4")),
    ("3-w-4", ("3", W, "4")),
    ("3w4", ("3", W, "4")),
    ("3, w, 4", ("3", W, "4")),
    ("3 W 4", ("3", W, "4")),
    ("gaz", (W,)),
    ("g", (W,)),
    ("2 gaz", ("2", W)),
    ("blanc", (W,)),
    ("blanche 3", (W, "3")),
    ("weiss", (W,)),
    ("weiß", (W,)),
    ("gas", (W,)),
    ("1 2 3 4 5 w w", ("1", "2", "3", "4", "5", W, W)),
])
def test_D1_dice_words_in_english_french_german(text, dice):
    """D1: acceleration die = white / gaz (coup de gaz) / Gaswürfel (weiss)."""
    action = parse(text)
    assert isinstance(action, Roll) and action.dice == dice and action.line is None and not action.end


@pytest.mark.parametrize("text, line", [
    ("4 skid", "skid"), ("4 drift", "skid"), ("4 dérapage", "skid"), ("4 derapage", "skid"), ("4 sk", "skid"),
    ("3 interior", "interior"), ("3 int", "interior"), ("3 tendue", "interior"), ("3 ideallinie", "interior"),
    ("3 inside", "interior"),
    ("4 cut", "shortcut"), ("4 shortcut", "shortcut"), ("4 k", "shortcut"), ("4 corde", "shortcut"),
    ("4 abkürzung", "shortcut"), ("4 weiss skid", "skid"),
])
def test_D1_trajectory_words(text, line):
    """D1: interior (tendue, Ideallinie), skid (dérapage, Driften), shortcut (corde, Abkürzung)."""
    assert parse(text).line == line


@pytest.mark.parametrize("text", ["stop", "end", "done", "fin", "halt", "ende", "."])
def test_D1_stop_words(text):
    """D1 / A6.4: stop in English, French (fin), German (halt, ende), and `.`."""
    assert parse(text) == Stop()


def test_A6_4_stop_last_ends_the_turn_after_the_dice():
    """A6.4: `stop` after the dice takes the gear card once they are rolled."""
    assert parse("3 w 4 stop") == Roll(("3", W, "4"), end=True)
    assert parse("3 w 4 skid stop") == Roll(("3", W, "4"), "skid", end=True, line_at=2)


@pytest.mark.parametrize("text", ["/roll 3 w 4", "roll 3 w 4", "/r 3 w 4", "r 3 w 4", "/ROLL 3 W 4",
                                  "  /roll   3  w  4  "])
def test_D1_roll_prefix(text):
    """`/roll` (and its short forms) in front of the dice is accepted."""
    assert parse(text) == Roll(("3", W, "4"))


def test_D1_line_alone_spare_alone():
    """A8 / A14: a trajectory named alone is chosen ahead; the spare tire is fitted alone."""
    assert parse("skid") == ChooseLine("skid")
    assert parse("line skid") == ChooseLine("skid")
    assert parse("spare") == Spare()
    assert parse("roue") == Spare()


def test_D1_driver_is_carried_into_the_action():
    """The driver who typed the text is the driver of the action (A5: whose turn is checked)."""
    assert parse("3 w", driver="d7") == Roll(("3", W), driver="d7")


@pytest.mark.parametrize("action", [
    Roll(("1",)), Roll(("3", W, "4")), Roll(("4",), "skid"), Roll(("3",), "interior"),
    Roll(("2", W), "shortcut", end=True), Roll(("5", "4", "3", "2", "1", W, W), end=True),
    Roll(("3", W, "4"), "shortcut", line_at=2), Roll(("3", W, "4"), "skid", line_at=1),
    Stop(), Spare(), ChooseLine("skid"), ChooseLine("interior"), ChooseLine("shortcut"),
])
def test_D1_canonical_text_round_trips_through_parse(action):
    """The action log stores `str(action)`; `parse` must read it back to the same action."""
    assert parse(str(action)) == action


# -- which die a line word belongs to ---------------------------------------------------------------
# Grammar (bot/engine/rallyman/parse.py): a line word belongs to the die written right before it (`3 W 4 cut`:
# the 4 takes the shortcut); written before every die it belongs to the first (`cut 3`). That die
# must be the one that takes the line, else the roll is refused, naming the die that reaches the
# corner. The single-die forms `4 skid`, `3 cut` mean what they always meant.

@pytest.mark.parametrize("text, dice, line, at", [
    ("4 skid", ("4",), "skid", 0), ("3 cut", ("3",), "shortcut", 0), ("cut 3", ("3",), "shortcut", 0),
    ("3 W 4 cut", ("3", W, "4"), "shortcut", 2), ("3 cut W 4", ("3", W, "4"), "shortcut", 0),
    ("3 W skid 4", ("3", W, "4"), "skid", 1), ("skid 3 W 4", ("3", W, "4"), "skid", 0),
    ("3 W 4 cut stop", ("3", W, "4"), "shortcut", 2),
])
def test_A8_a_line_word_belongs_to_the_die_before_it(text, dice, line, at):
    """A8: the line word names the trajectory of the die it follows."""
    assert parse(text) == Roll(dice, line, end=text.endswith("stop"), line_at=at)


def test_A8_canonical_text_puts_the_line_after_its_die():
    """The action log keeps the line word right after its die, so a replay means the same."""
    assert str(Roll(("3", W, "4"), "shortcut", line_at=2)) == "roll 3 W 4 shortcut"
    assert str(Roll(("3", W, "4"), "shortcut")) == "roll 3 shortcut W 4"


#: Interior 3 (2 spaces), skid 4-4-4, shortcut K4; 4 straight spaces before it.
K_CORNER = """straight 4 [grass|forest]
left 3 skid 4x3 K4 [rocks|forest]
straight 6 [grass|forest]"""


def test_A8_4_the_line_word_after_the_last_die_sends_that_die_into_the_shortcut():
    """`3 W 4 cut` two spaces before the corner: the 3 and the white stay on the straight, the 4
    enters the corner by the shortcut (K4)."""
    state = make_game(K_CORNER, deck=["good"])
    ids = corner_ids(state.stage)
    put_car(state, 0, space_at(state.stage, state.stage.spaces[ids["before"]].index - 2), 3)
    state, _ = act(state, "3 W 4 cut")
    assert state.turn.path[-1][0] == ids["shortcut"][0]
    assert state.cars[0].position == ids["shortcut"][0]


def test_A8_4_a_line_word_after_a_die_that_does_not_take_it_is_refused_naming_the_die_that_does():
    """The report: `3 W 4 cut` right before the corner sent the 3 into the shortcut. The `cut`
    follows the 4, which does not enter the corner (the 3 does): refused, nothing rolled, with
    the way to say it (`3 shortcut W 4`); `3 cut W 4` takes the shortcut with the 3."""
    state = make_game(K_CORNER, deck=["good"])
    ids = corner_ids(state.stage)
    put_car(state, 0, ids["before"], 3)
    refused(state, "3 W 4 cut", None, "the 4", "the 3 enters corner 1", "`3 shortcut W 4`")
    cut, _ = act(state, "3 cut W 4")
    assert cut.turn.path[0][0] == ids["shortcut"][0]


def test_A8_a_single_die_line_word_that_reaches_no_corner_is_refused_with_a_hint():
    """`4 skid` far from any corner used to be ignored silently: now it says the 4 reaches no
    corner and how to choose the line of the next corner ahead (`skid` alone)."""
    state = make_game(K_CORNER)
    put_car(state, 0, space_at(state.stage, 1), 3)
    refused(state, "4 skid", None, "the 4", "no corner", "`skid`")


def test_french_and_german_words_are_read_whatever_the_readers_language():
    """RULES D1: `gaz`, `blanc`, `weiß` (white die), `arrêt`, `stopp` (stop),
    `intérieur`, `corde`, `dérapage`, `Ideallinie`, `Abkürzung`, `Driften` (lines)."""
    from bot.engine.rallyman.actions import Roll
    from bot.engine.rallyman.parse import parse

    assert parse("1 gaz arrêt") == parse("1 white stop") == Roll(("1", "W"), end=True)
    assert parse("1 weiß stopp") == Roll(("1", "W"), end=True)
    assert parse("1 intérieur").line == parse("1 ideallinie").line == "interior"
    assert parse("1 dérapage").line == parse("1 driften").line == "skid"
    assert parse("1 corde").line == parse("1 abkürzung").line == "shortcut"
