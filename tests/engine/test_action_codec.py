"""The action log's canonical form (`bot.engine.rallyman.action_codec`): every entry goes to one versioned
JSON text and comes back the same, whatever language the command was typed in; anything else in
the log is refused, naming the field and the reason."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.rallyman.action_codec import (
    LOG_VERSION,
    CodecError,
    Start,
    Status,
    decode,
    encode,
    from_text,
    log_text,
    to_text,
)
from bot.engine.rallyman.actions import (
    Attack,
    ChooseLine,
    Order,
    Place,
    Retire,
    Roll,
    Spare,
    Stop,
    Timeout,
    Tires,
)
from bot.engine.rallyman.parse import parse
from bot.services.play.replay import log_problem
from tests.engine.action_strategies import entries


def _no_driver(entry):
    return entry if isinstance(entry, (Start, Status)) else replace(entry, driver=None)


@given(entries)
def test_every_entry_comes_back_from_its_text_without_the_driver(entry):
    text = to_text(encode(entry))
    assert from_text(text) == _no_driver(entry)
    assert log_text(entry) == text and log_problem(text) is None
    assert json.loads(text)["v"] == LOG_VERSION and "driver" not in json.loads(text)


@given(entries)
def test_the_text_of_an_entry_is_its_one_canonical_text(entry):
    """Compact JSON, keys sorted, defaults left out: the text is a fixed point of decode/encode."""
    text = log_text(entry)
    assert to_text(encode(from_text(text))) == text
    assert text == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    d = json.loads(text)
    assert d.get("line_at", 1) != 0 and d.get("end", True) is True and d.get("best", True) is True
    assert "line" not in d or d["line"] is not None


# The version 1 texts, frozen: a later bot must write (and read) exactly these.
V1_TEXTS = [
    (Roll(("3", "W"), "interior", True, driver="7"),
     '{"dice":["3","W"],"end":true,"line":"interior","type":"roll","v":1}'),
    (Roll(("3", "W", "4"), "shortcut", line_at=2),
     '{"dice":["3","W","4"],"line":"shortcut","line_at":2,"type":"roll","v":1}'),
    (Roll(("1",)), '{"dice":["1"],"type":"roll","v":1}'),
    (Stop(driver="7"), '{"type":"stop","v":1}'),
    (Spare(), '{"type":"spare","v":1}'),
    (ChooseLine("skid"), '{"line":"skid","type":"line","v":1}'),
    (Retire("123"), '{"target":"123","type":"retire","v":1}'),
    (Timeout(), '{"type":"timeout","v":1}'),
    (Tires("snow"), '{"tires":"snow","type":"tires","v":1}'),
    (Attack(("3", "4")), '{"dice":["3","4"],"type":"attack","v":1}'),
    (Order(("W!", "3"), "interior", 1), '{"dice":["W!","3"],"line":"interior","line_at":1,"type":"order","v":1}'),
    (Order(best=True), '{"best":true,"type":"order","v":1}'),
    (Place("3", "interior"), '{"die":"3","line":"interior","type":"place","v":1}'),
    (Place("W"), '{"die":"W","type":"place","v":1}'),
    (Start(("1002", "1001")), '{"seats":["1002","1001"],"type":"start","v":1}'),
    (Status("abandoned"), '{"status":"abandoned","type":"status","v":1}'),
]


@pytest.mark.parametrize("entry, text", V1_TEXTS, ids=[t for _, t in V1_TEXTS])
def test_log_version_1_texts_are_frozen(entry, text):
    assert log_text(entry) == text
    assert from_text(text) == _no_driver(entry)


@pytest.mark.parametrize("english, other", [
    ("3 w interior 4 stop", "3 blanc tendue 4 fin"),
    ("3 w interior 4 stop", "3 weiss innen 4 halt"),
    ("2 skid", "2 dérapage"),
    ("shortcut", "corde"),
    ("spare", "roue"),
    ("tires snow", "pneus neige"),
    ("tires snow", "Winterreifen"),
    ("attack 3 4 w", "attaque 3 4 blanc"),
    ("order 4 w! 3", "reihenfolge 4 weiss⚠ 3"),
    ("order best", "ordre meilleur"),
    ("place 4 skid", "setzen 4 driften"),
])
def test_a_command_typed_in_french_or_german_is_logged_as_in_english(english, other):
    """The log does not keep the drivers' words: the same move has the same text in every language."""
    assert log_text(parse(other, driver="7")) == log_text(parse(english, driver="8"))


def _text(**fields) -> str:
    return json.dumps({"v": 1, **fields})


REFUSED = [
    # the envelope
    ('["roll"]', "entry: expected a JSON object"),
    ("roll 3 W interior stop", "text: not JSON"),
    ('{"type": "stop"}', "v: missing"),
    (_text(type="stop").replace('"v": 1', '"v": 2'), "v: log version 2 is not 1"),
    (_text(type="stop").replace('"v": 1', '"v": "1"'), "v: log version '1' is not 1"),
    (_text(type="stop").replace('"v": 1', '"v": true'), "v: log version True is not 1"),
    ('{"v": 1}', "type: missing"),
    (_text(type="jump"), "type: unknown entry type 'jump'"),
    (_text(type=None), "type: unknown entry type None"),
    ('{"v": 1, "type": "stop", "type": "spare"}', "type: given twice"),
    (_text(type="stop", driver="7"), "driver: unknown field for type 'stop'"),
    (_text(type="roll", dice=["3"], colour="red"), "colour: unknown field for type 'roll'"),
    # roll
    (_text(type="roll"), "dice: missing"),
    (_text(type="roll", dice="3"), "dice: expected a list, got str"),
    (_text(type="roll", dice=[]), "dice: empty"),
    (_text(type="roll", dice=["3", "6"]), "dice[1]: '6' is not one of 1, 2, 3, 4, 5, W"),
    (_text(type="roll", dice=["W!"]), "dice[0]: 'W!' is not one of"),
    (_text(type="roll", dice=[3]), "dice[0]: expected a string, got int"),
    (_text(type="roll", dice=["w"]), "dice[0]: 'w' is not one of"),
    (_text(type="roll", dice=["3"], line="outside"), "line: 'outside' is not one of interior, skid, shortcut"),
    (_text(type="roll", dice=["3"], line=None), "line: expected a string, got null"),
    (_text(type="roll", dice=["3"], line_at=0), "line_at: given without a line"),
    (_text(type="roll", dice=["3"], line="skid", line_at=1), "line_at: 1 is not the index of one of the 1 dice"),
    (_text(type="roll", dice=["3"], line="skid", line_at=-1), "line_at: -1 is not the index"),
    (_text(type="roll", dice=["3"], line="skid", line_at="0"), "line_at: expected an integer, got str"),
    (_text(type="roll", dice=["3"], line="skid", line_at=True), "line_at: expected an integer, got bool"),
    (_text(type="roll", dice=["3"], end="yes"), "end: expected true or false, got str"),
    (_text(type="roll", dice=["3"], end=1), "end: expected true or false, got int"),
    # the others
    (_text(type="line"), "line: missing"),
    (_text(type="line", line="cut"), "line: 'cut' is not one of"),
    (_text(type="retire"), "target: missing"),
    (_text(type="retire", target=123), "target: expected a string, got int"),
    (_text(type="retire", target=" "), "target: empty"),
    (_text(type="tires", tires="rain"), "tires: 'rain' is not one of asphalt, snow"),
    (_text(type="attack", dice=["W!", "3"]), "dice[0]: 'W!' is not one of"),
    (_text(type="attack", dice=["3"], line="skid"), "line: unknown field for type 'attack'"),
    (_text(type="order"), "dice: missing"),
    (_text(type="order", dice=["W?"]), "dice[0]: 'W?' is not one of 1, 2, 3, 4, 5, W, W!"),
    (_text(type="order", best=True, dice=["3"]), "dice: given with best"),
    (_text(type="order", best=True, line="skid"), "line: given with best"),
    (_text(type="order", best="true"), "best: expected true or false, got str"),
    (_text(type="place"), "die: missing"),
    (_text(type="place", die="W!"), "die: 'W!' is not one of"),
    (_text(type="place", die=["3"]), "die: expected a string, got list"),
    (_text(type="place", die="3", line_at=0), "line_at: unknown field for type 'place'"),
    (_text(type="start"), "seats: missing"),
    (_text(type="start", seats="1,2"), "seats: expected a list, got str"),
    (_text(type="start", seats=[]), "seats: empty"),
    (_text(type="start", seats=["1", ""]), "seats[1]: empty"),
    (_text(type="start", seats=["1", 2]), "seats[1]: expected a string, got int"),
    (_text(type="start", seats=["1", "2", "1"]), "seats[2]: '1' is seated twice"),
    (_text(type="status", status="paused"), "status: 'paused' is not one of lobby, running, finished, abandoned"),
    (_text(type="stop", status="abandoned"), "status: unknown field for type 'stop'"),
]


@pytest.mark.parametrize("text, reason", REFUSED, ids=[r for _, r in REFUSED])
def test_decode_refuses_what_is_not_a_log_entry_naming_the_field_and_why(text, reason):
    with pytest.raises(CodecError) as refused:
        from_text(text)
    assert str(refused.value).startswith(reason)
    assert log_problem(text).startswith(reason)


@pytest.mark.parametrize("entry, field", [
    (Roll(("6",)), "dice[0]"),
    (Roll(("3",), line_at=1), "line_at"),
    (Roll(("3", "4"), "skid", line_at=2), "line_at"),
    (Roll(["3"]), "roll"),  # a list where the engine keeps a tuple: it would not come back equal
    (Order(("3",), best=True), "dice"),
    (Tires("rain"), "tires"),
    (Start(()), "seats"),
    (Status("paused"), "status"),
])
def test_encode_refuses_an_entry_the_log_could_not_give_back(entry, field):
    """Nothing is logged that would not replay: the refusal comes before the write."""
    with pytest.raises(CodecError) as refused:
        encode(entry)
    assert str(refused.value).startswith(field)


def test_encode_refuses_what_is_not_an_entry():
    with pytest.raises(CodecError) as refused:
        encode("roll 3")
    assert str(refused.value) == "type: str is not a loggable action"


@pytest.mark.parametrize("text", [
    '{"type":"stop", "v":1}',
    '{"v":1,"type":"stop"}',
    '{"dice":["3"],"end":false,"type":"roll","v":1}',
    '{"dice":["3"],"type":"roll","v":1}\n',
    '{"seats":["caf\\u00e9"],"type":"start","v":1}',
])
def test_a_text_meaning_an_entry_but_not_written_canonically_is_named(text):
    """What `db check` reports for a hand-edited row: it decodes, but is not the one text."""
    assert from_text(text) is not None
    assert log_problem(text).startswith("not in canonical form (canonical: {")


def test_non_ascii_ids_are_written_as_they_are():
    assert log_text(Start(("café",))) == '{"seats":["café"],"type":"start","v":1}'


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)
keys = st.sampled_from(["v", "type", "dice", "line", "line_at", "end", "best", "die", "target", "tires",
                        "seats", "status", "driver"])
near_entries = st.fixed_dictionaries({"v": st.sampled_from([1, 1, 1, 2, True, "1"]),
                                      "type": st.sampled_from(["roll", "stop", "order", "start", "x", 1])},
                                     optional={k: json_values for k in ("dice", "line", "line_at", "end", "best",
                                                                        "die", "target", "tires", "seats",
                                                                        "status", "driver")})


@given(st.one_of(json_values, near_entries, st.dictionaries(keys, json_values)))
def test_decode_of_any_json_gives_an_entry_or_a_codec_error(value):
    """Nothing else escapes from a corrupt row, and what decodes encodes back to the same entry."""
    try:
        entry = decode(value)
    except CodecError as exc:
        assert str(exc).split(":", 1)[0]  # names a field
        return
    assert decode(encode(entry)) == entry
