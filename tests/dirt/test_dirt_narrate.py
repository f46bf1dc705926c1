"""Every DIRT event kind has its text in English, French and German, with the same placeholders, and
every code inside an event (token, cause, reason, direction) is read through a closed word table."""

from __future__ import annotations

import ast
import string
from pathlib import Path

from bot.engine.core.dice import SeededDice
from bot.engine.dirt import narrate as narrate_module
from bot.engine.dirt import rally
from bot.engine.dirt.events import EVENT_KEYS, ev
from bot.engine.dirt.moves import DIRECTION_WORDS
from bot.engine.dirt.ruleset import DAMAGE_TOKENS
from bot.engine.dirt.state import OUT_REASONS
from bot.i18n import catalogue, render

LANGS = ("en", "fr", "de")
ENGINE = Path(rally.__file__).parent


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def emitted_kinds() -> set[str]:
    """Every kind the engine's code passes to `ev`."""
    kinds = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "ev" and node.args \
                    and isinstance(node.args[0], ast.Constant):
                kinds.add(node.args[0].value)
    return kinds


def test_every_event_kind_the_engine_emits_has_a_key_in_every_language():
    kinds = emitted_kinds()
    assert kinds and kinds <= set(EVENT_KEYS)
    assert set(EVENT_KEYS) == kinds  # no key for a kind that is never emitted
    for lang in LANGS:
        words = catalogue(lang)
        for key in EVENT_KEYS.values():
            assert key in words, (lang, key)
            assert _fields(words[key]) == _fields(catalogue("en")[key]), (lang, key)


def test_the_word_tables_cover_every_code():
    assert set(narrate_module.TOKEN_WORDS) == set(DAMAGE_TOKENS)
    assert set(narrate_module.REASON_WORDS) == set(OUT_REASONS)
    assert set(narrate_module.CAUSE_WORDS) == {"hazards", "overspeed", "jump"}
    assert set(DIRECTION_WORDS) == set(rally.DIRECTIONS)
    for lang in LANGS:
        words = catalogue(lang)
        for table in (narrate_module.TOKEN_WORDS, narrate_module.REASON_WORDS, narrate_module.CAUSE_WORDS,
                      narrate_module.DIE_WORDS, DIRECTION_WORDS):
            assert all(key in words for key in table.values()), (lang, table)


def test_an_unknown_event_kind_fails_where_it_is_made():
    try:
        ev("dirt_no_such_thing")
    except ValueError as error:
        assert "dirt_no_such_thing" in str(error)
    else:
        raise AssertionError("an unknown kind was accepted")


def test_a_whole_rally_narrates_in_every_language():
    s, events = rally.new_rally([("a", "Ann"), ("b", "Bob")], ["birch-ridge"], dice=SeededDice(5))
    seen = set()
    for _ in range(3000):
        if rally.finished(s):
            break
        seat = rally.to_act(s)
        actions = rally.legal_actions(s, seat)
        s, new = rally.apply(s, seat, actions[len(s.turn_path) % len(actions)])
        events += new
    assert rally.finished(s)
    lines = narrate_module.narrate(events, dict(s.seats))
    runs = sum(1 for e, f in zip(events, events[1:]) if e.kind == f.kind == "dirt_roll" and e.driver == f.driver)
    assert len(lines) == len(events) - runs  # a run of dice of one driver is one line
    seen = {e.kind for e in events}
    for line in lines:
        for lang in LANGS:
            text = render(line, lang)
            assert "{" not in text and text.strip(), (lang, text)
    assert {"dirt_roll", "dirt_turn_end", "dirt_finish", "dirt_stage_end", "dirt_rally_end"} <= seen


def test_a_run_of_dice_is_one_line_saying_where_the_car_got_to():
    """The AI's turn (or a time attack) rolls several dice: one line, each die with its ⚠, the
    tile the car reached; a single die says where it went too."""
    s, _ = rally.new_rally([("a", "Ann")], ["birch-ridge"], dice=SeededDice(5))
    s, events = rally.apply(s, "a", rally.parse("attack 1 2 3", s, "a"))
    lines = [render(line, "en") for line in narrate_module.narrate(events, {"a": "Ann"})]
    rolls = [line for line in lines if line.startswith("Ann plays")]
    tiles = len(s.stage.tiles)
    assert len(rolls) == 1 and "gear die 1 · gear die 2" in rolls[0] and f"of {tiles}" in rolls[0], rolls
    s2, events = rally.new_rally([("a", "Ann")], ["birch-ridge"], dice=SeededDice(5))
    s2, events = rally.apply(s2, "a", rally.parse("1", s2, "a"))
    (line,) = [render(x, "en") for x in narrate_module.narrate(events, {"a": "Ann"})]
    assert line.startswith("Ann plays gear die 1 (gear 1) → tile ") and f"of {tiles}" in line, line
