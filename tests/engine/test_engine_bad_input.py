"""Bad input: every refusal raises a RallyError subclass with a useful message and leaves the
state exactly as it was (RULES A6, A8.2, A8.6, A9.4, A12.2, A14.1, A15.1, A12.5)."""

from __future__ import annotations

import pytest
from rules_helpers import CORNER, LONG, act, corner_ids, make_game, play, put_car, refused, space_at

from bot.engine.core.errors import Ambiguous, CannotParse, NotAllowed, RallyError
from bot.engine.rallyman.actions import Retire
from bot.engine.rallyman.game import apply
from bot.engine.rallyman.parse import parse
from bot.i18n import t


def in_gear(gear: int, stage: str = LONG, **kw):
    state = make_game(stage, **kw)
    put_car(state, 0, space_at(state.stage, 5) if stage == LONG else corner_ids(state.stage)["before"], gear)
    return state


def test_A6_2_bad_gear_die_two_away_from_the_current_gear():
    """A6.2: in 3rd, die 5 is two away: refused, naming the dice allowed."""
    err = refused(in_gear(3), "5", None, "Die 5", "3rd", "2, 3, 4 or white")
    assert isinstance(err, NotAllowed) and err.allowed == ("2", "3", "4", "W")


def test_A6_3_1_bad_die_already_used_this_turn():
    """A6.3.1: a die already used this turn."""
    state = play(in_gear(3), "3", "4")
    err = refused(state, "3", None, "already used", "5 or white")
    assert isinstance(err, NotAllowed)


def test_A12_2_bad_more_gear_dice_than_the_damage_allows():
    """A6.3.6 / A12.2: three black dice lost → two gear dice per turn."""
    fresh = in_gear(3)
    fresh.cars[0].lost_black = 3
    state = play(fresh, "3", "4")
    refused(state, "5", None, "2 gear dice", "3 lost")
    refused(fresh, "3 4 5", None, "2 gear dice")  # the whole roll is refused before any die


def test_A9_4_bad_white_die_while_the_flats_forbid_it():
    """A9.4: two unrepaired flats → no white die."""
    state = in_gear(3)
    state.cars[0].flats = 2
    refused(state, "W", None, "white", "2 flat")


def test_A6_3_3_bad_white_die_in_neutral():
    """A6.2 / A6.3.3: no white die at gear 0."""
    refused(make_game(LONG), "white", None, "neutral", "1st-gear die")


def test_A8_2_bad_gear_below_an_exact_skid_note():
    """A8.2: a gear below the skid note cannot enter the skid."""
    state = in_gear(3, CORNER)
    err = refused(state, "3 skid", None, "skid", "exactly 4")
    assert isinstance(err, NotAllowed)


def test_A8_6_bad_gear_above_the_interior_note_when_the_skid_would_take_it():
    """A8.6: g = 4 named on the interior 3 while the skid takes 4: refused, not a crash and not a
    loss of control; the message lists the corner's lines."""
    state = in_gear(4, CORNER)
    refused(state, "4 interior", None, "interior up to 3", "skid exactly 4", "shortcut K4")


def test_A14_1_bad_spare_tire_in_3rd():
    """A14.1: the spare tire only in gear 0 or 1."""
    state = in_gear(3)
    state.cars[0].flats = 1
    refused(state, "spare", None, "3rd")


def test_A15_1_bad_acting_after_finishing():
    """A15.1: a finished driver plays no more turns."""
    state = make_game("straight 3", drivers=2)
    state = play(state, "1 2 3 4")
    refused(state, "1", "d1", "already finished")
    refused(state, "stop", "d1", "already finished")


def test_A5_3_bad_acting_when_the_special_is_over():
    """A5.3: the special ends when every car has finished or retired."""
    state = play(make_game("straight 3"), "1 2 3 4")
    assert state.finished
    refused(state, "1", None, "over")
    refused(state, "stop", "d1", "over")


def test_A12_5_bad_acting_after_being_knocked_out():
    """A12.5: a knocked-out driver plays no more turns in the rally."""
    state = make_game("straight 3\nleft 1 skid 2x3\nstraight 3", drivers=2)
    put_car(state, 0, corner_ids(state.stage)["before"], 5)
    state, _ = act(state, "5")
    assert state.cars[0].status == "out"
    refused(state, "1", "d1", "knocked out")


def test_A12_5_a_retired_driver_is_not_told_they_were_knocked_out():
    """A12.5 knocks a car out by the rules; retiring (the driver left the rally or the host removed
    them) is not a rule of the game: each is refused with its own text."""
    knocked = make_game("straight 3\nleft 1 skid 2x3\nstraight 3", drivers=2)
    put_car(knocked, 0, corner_ids(knocked.stage)["before"], 5)
    knocked, _ = act(knocked, "5")
    assert knocked.cars[0].out_reason == "overspeed_ko"
    err = refused(knocked, "1", "d1")
    assert str(err) == t("turn.knocked_out") and "(rulebook ART.8)" in str(err)  # A12.5, as a player cites it

    retired, _ = apply(make_game(LONG, drivers=2), Retire("d1"))
    assert retired.cars[0].status == "out" and retired.cars[0].out_reason == "retired"
    err = refused(retired, "W", "d1")
    assert str(err) == t("turn.retired") != t("turn.knocked_out")
    assert "knocked out" not in str(err) and "A12.5" not in str(err)


def test_A5_1_bad_acting_out_of_turn():
    """A5: only the driver whose turn it is may act; the message names who is driving."""
    state = play(make_game(LONG, drivers=2), "1 stop")
    state = play(state, "W stop")  # round 2: Ada, then Bea
    assert state.cars[state.turn.car].name == "Bea"
    refused(state, "W", "d1", "not your turn", "Bea")
    refused(state, "stop", "d1", "not your turn")
    refused(state, "1", "someone-else", "not driving")


@pytest.mark.parametrize("text", ["banana", "7", "3 x", "", "   ", "roll", "3 0", "spare 3"])
def test_D1_bad_text_that_is_not_a_die(text):
    """The grammar: text that is not a die, line, stop or spare cannot be parsed."""
    state = make_game(LONG)
    before = state.to_dict()
    with pytest.raises(CannotParse) as info:
        parse(text, state)
    assert str(info.value).strip()
    refused(state, text)
    assert state.to_dict() == before


@pytest.mark.parametrize("text, options", [("s", "skid"), ("skid cut", "shortcut"), ("3 s", "stop"),
                                           ("4 interior skid", "interior")])
def test_D1_bad_ambiguous_text(text, options):
    """The grammar: text that could mean several things lists them."""
    with pytest.raises(Ambiguous) as info:
        parse(text)
    assert options in str(info.value)
    refused(make_game(LONG), text)


def test_A6_2_bad_not_allowed_now_names_what_is_allowed():
    """A6.2 example: in 3rd, `/roll 5` is refused at once, naming 2, 3, 4 or white."""
    state = in_gear(3)
    with pytest.raises(NotAllowed) as info:
        parse("/roll 5", state)
    assert "2, 3, 4 or white" in str(info.value)
    refused(state, "/roll 5", None, "2, 3, 4 or white")


def test_A6_4_bad_stop_not_last():
    """The grammar: `stop` ends the turn, so it comes last."""
    with pytest.raises(CannotParse):
        parse("stop 3")


def test_D1_every_refusal_is_a_rally_error():
    """Every refusal class is a RallyError, so the bot shows its text instead of crashing."""
    assert issubclass(CannotParse, RallyError) and issubclass(Ambiguous, RallyError)
    assert issubclass(NotAllowed, RallyError)
