"""A DIRT prompt and its buttons name each move in the reader's language (RULES D2: `gauche`,
`frein`, `links` …), and what they show is what `parse` reads back to the same move; English words
are read in every language."""

from __future__ import annotations

import re

import pytest

from bot.engine.core.game import is_finished
from bot.engine.dirt.parse import shown
from bot.engine.dirt.protocol import GAME as DIRT
from bot.engine.dirt.rules import RollStop
from bot.i18n import render

SEATS = [("11", "Ann"), ("22", "Ben")]
ENGLISH = re.compile(r"\b(left|right|slide|cut|coast|brake|land)\b")


def _states(limit: int = 120):
    """States of a rally the AI plays, each with its seat to act (a jump, slides, brakes and
    shortcuts come up on the way)."""
    state, _ = DIRT.rules.setup(3, SEATS, {"stage": "dusty-pines", "ruleset": "provisional", "modules": {}})
    for _ in range(limit):
        if is_finished(DIRT.rules, state):
            return
        (seat,) = DIRT.rules.to_act(state)
        yield state, seat
        state, _ = DIRT.rules.apply(state, seat, DIRT.coach.choose(DIRT.rules.view(state, seat), seat))


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_every_move_shown_reads_back_as_that_move_in_its_language(lang):
    seen = set()
    for state, seat in _states():
        for action in DIRT.rules.legal_actions(state, seat):
            label = DIRT.commands.label(action)
            text = render(shown(label), lang)
            assert text.startswith("`") and text.endswith("`")
            assert DIRT.commands.label(DIRT.commands.parse(text.strip("`"), state, seat)) == label
            assert DIRT.commands.label(DIRT.commands.parse(label, state, seat)) == label  # English, in every language
            seen.add(label)
            if lang != "en":
                assert not ENGLISH.search(text), text
    assert any("+brake" in label for label in seen) and any("left" in label for label in seen)


@pytest.mark.parametrize(("lang", "words"), [("fr", ("gauche", "droite")), ("de", ("links", "rechts"))])
def test_the_prompt_and_its_buttons_speak_the_readers_language(lang, words):
    state, seat = next(_states())
    prompt = DIRT.narrator.prompt(DIRT.rules.view(state, None), [])
    lines = " ".join(render(line, lang) for line in prompt.lines)
    assert all(f"`1 {word}`" in lines for word in words) and not ENGLISH.search(lines), lines
    buttons = [DIRT.commands.button(label) for label in prompt.buttons]
    assert {render(b.text, lang) for b in buttons if b} >= {f"1 {word}" for word in words}
    assert {render(b.text, "en") for b in buttons if b} >= {"1 left", "1 right"}


def test_a_roll_then_stop_is_read_in_the_readers_words():
    state, seat = next(_states())
    assert DIRT.commands.parse("1 gauche arrêt", state, seat) == DIRT.commands.parse("1 left stop", state, seat)
    assert isinstance(DIRT.commands.parse("1 links stopp", state, seat), RollStop)
