"""The drivers' grammar (RULES D1 words for dice, lines and stopping) and canonical action text."""

from __future__ import annotations

import pytest

from bot.engine.actions import ChooseLine, Roll, Spare, Stop
from bot.engine.parse import parse

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
    assert parse("3 w 4 skid stop") == Roll(("3", W, "4"), "skid", end=True)


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
    Stop(), Spare(), ChooseLine("skid"), ChooseLine("interior"), ChooseLine("shortcut"),
])
def test_D1_canonical_text_round_trips_through_parse(action):
    """The action log stores `str(action)`; `parse` must read it back to the same action."""
    assert parse(str(action)) == action
