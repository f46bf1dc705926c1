"""DIRT's words and logs: tolerant parsing, canonical labels, strict log entries, and the state as
JSON-safe data."""

from __future__ import annotations

import json

import pytest

from bot.engine.core.dice import SeededDice
from bot.engine.core.errors import CannotParse
from bot.engine.core.log import CodecError, Start, Status
from bot.engine.dirt import rally
from bot.engine.dirt.rally import Attack, DirtState, Retire, Roll, Spare, Step, Stop, Timeout
from tests.dirt.rally_kit import start


@pytest.mark.parametrize(("text", "action"), [
    ("4", Roll(Step("4"))),
    ("  4   LEFT ", Roll(Step("4"), "left")),
    ("2+brake", Roll(Step("2", 1))),
    ("2 brake", Roll(Step("2", 1))),
    ("2b", Roll(Step("2", 1))),
    ("2bb", Roll(Step("2", 2))),
    ("2+brake+brake right", Roll(Step("2", 2), "right")),
    ("coast slide", Roll(Step("coast"), "slide")),
    ("w", Roll(Step("coast"))),
    ("Orange cut", Roll(Step("leader"), "cut")),
    ("stop", Stop()),
    ("spare", Spare()),
    ("attack 4 5 right 6", Attack(((Step("4"), ""), (Step("5"), "right"), (Step("6"), "")))),
])
def test_parse_is_tolerant_and_label_is_canonical(text, action):
    s = start("t-straight")
    assert rally.parse(text, s, "a") == action
    assert rally.parse(rally.label(action), s, "a") == action


def test_labels_read_as_the_brief_writes_them():
    assert [rally.label(a) for a in (Roll(Step("4"), "left"), Roll(Step("2", 1)), Roll(Step("coast")), Stop(),
                                     Attack(((Step("4"), ""), (Step("5"), "right"))))] == \
        ["4 left", "2+brake", "coast", "stop", "attack 4 5 right"]


@pytest.mark.parametrize("text", ["", "7", "4 left right", "fly", "4 5", "brake left 4x"])
def test_parse_refuses_what_it_does_not_understand_naming_it(text):
    s = start("t-straight")
    with pytest.raises(CannotParse) as caught:
        rally.parse(text, s, "a")
    assert caught.value.message.key in ("dirt.bad_words", "dirt.one_step")


@pytest.mark.parametrize("action", [
    Roll(Step("4")), Roll(Step("2", 2), "right"), Roll(Step("leader"), "cut"), Stop(), Spare(), Timeout(),
    Retire("s1"), Attack(((Step("1"), ""), (Step("2", 1), "slide"))), Start(("a", "b")), Status("abandoned"),
])
def test_encode_decode_round_trip(action):
    text = rally.encode(action)
    assert rally.decode(text) == action
    assert rally.encode(rally.decode(text)) == text


@pytest.mark.parametrize("text", [
    '{"v":1,"type":"roll","die":"4","brakes":0}',  # a field missing
    '{"brakes":0,"die":"4","to":"up","type":"roll","v":1}',  # unknown direction
    '{"brakes":1,"die":"coast","to":"","type":"roll","v":1}',  # brake with a coast die
    '{"brakes":0, "die":"4","to":"","type":"roll","v":1}',  # not canonical
    '{"type":"fly","v":1}',
    '{"type":"stop","v":2}',
    'not json',
])
def test_decode_is_strict(text):
    with pytest.raises(CodecError):
        rally.decode(text)


def test_the_state_round_trips_through_json_and_plays_on_identically():
    s, _ = rally.new_rally([("a", "Ann"), ("b", "Bob")], ["mill-ford", "gen-7"], dice=SeededDice(11),
                           assistance=[True], modules={"sisu": True})
    for _ in range(60):
        seat = rally.to_act(s)
        s, _ = rally.apply(s, seat, rally.legal_actions(s, seat)[0 if not s.turn_path else -1])
    data = s.to_dict()
    copy = DirtState.from_dict(json.loads(json.dumps(data)))
    assert copy.to_dict() == data and json.dumps(data, sort_keys=True) == json.dumps(copy.to_dict(), sort_keys=True)
    for _ in range(40):
        seat = rally.to_act(s)
        if seat is None:
            break
        action = rally.legal_actions(s, seat)[0]
        s, events = rally.apply(s, seat, action)
        copy, again = rally.apply(copy, seat, action)
        assert [e.to_dict() for e in events] == [e.to_dict() for e in again]
    assert copy.to_dict() == s.to_dict()


def test_apply_plays_on_the_state_it_is_given_and_a_clone_keeps_the_one_before():
    """`apply` changes the state it is given and returns that very state (no
    copy per action); a clone taken before is the state as it was, shares nothing with it, and
    plays on to the same state and events."""
    s = start("t-straight", faces=[True] * 3, draws=["coast"])
    for text in ("1", "2", "3"):
        kept = s.clone()
        before = kept.to_dict()
        assert before == s.to_dict()
        after, events = rally.apply(s, "a", rally.parse(text, s, "a"))
        assert after is s and s.to_dict() != before and kept.to_dict() == before
        again, same = rally.apply(kept, "a", rally.parse(text, kept, "a"))
        assert again is kept and again.to_dict() == s.to_dict()
        assert [e.to_dict() for e in same] == [e.to_dict() for e in events]


def test_french_and_german_players_may_type_their_own_words():
    """RULES D2: the FR/DE words read as the English ones; the label stays English (the log's)."""
    from bot.engine.dirt.parse import label
    from bot.engine.dirt.parse import parse as read

    for typed, expected in (("2 frein gauche", "2+brake left"), ("gaz droite", "coast right"),
                            ("3 glisse", "3 slide"), ("4 raccourci", "4 cut"), ("2+bremse links", "2+brake left"),
                            ("gas rechts", "coast right"), ("5 abkürzung", "5 cut"), ("weiß rutschen", "coast slide"),
                            ("arrêt", "stop"), ("Stopp", "stop")):
        assert label(read(typed)) == expected, typed
