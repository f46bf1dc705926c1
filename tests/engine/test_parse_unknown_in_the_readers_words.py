"""RULES D1: a word the drivers' grammar does not know is refused with the words it does know, the
reader's own first (a French driver reads `gaz`, `tendue`, `arrêt` before `white`, `interior`,
`stop`, which are still accepted and listed after), and every word the refusal offers is one the
grammar reads as what the refusal says it is."""

from __future__ import annotations

import re

import pytest

from bot.engine.core.errors import CannotParse
from bot.engine.rallyman.parse import _meaning, parse
from bot.i18n import render

#: per language: (the reader's word, the English word it is listed before, what both mean)
FIRST = {
    "fr": [("gaz", "white", "W"), ("blanc", "white", "W"), ("tendue", "interior", "interior"),
           ("dérapage", "skid", "skid"), ("corde", "cut", "shortcut"), ("arrêt", "stop", "stop")],
    "de": [("gas", "white", "W"), ("weiß", "white", "W"), ("ideallinie", "interior", "interior"),
           ("driften", "skid", "skid"), ("abkürzung", "cut", "shortcut"), ("stopp", "stop", "stop")],
}


def refusal(lang: str, text: str = "banane") -> str:
    with pytest.raises(CannotParse) as info:
        parse(text)
    return render(info.value.message, lang)


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_D1_an_unknown_word_is_answered_with_the_readers_words_first_then_the_english_ones(lang):
    shown = refusal(lang)
    assert "`banane`" in shown
    offered = re.findall(r"`([^`]+)`", shown)[1:]  # the first is the word typed
    for own, english, meaning in FIRST[lang]:
        assert own in offered and english in offered, (own, english, shown)
        assert offered.index(own) < offered.index(english), f"{own!r} is not before {english!r}: {shown}"
        assert _meaning(own) == _meaning(english) == meaning
    for word in offered:  # nothing offered that the grammar would refuse in turn
        assert _meaning(word.lower()) in ("W", "interior", "skid", "shortcut", "stop")


def test_D1_the_english_refusal_still_lists_the_english_words():
    offered = re.findall(r"`([^`]+)`", refusal("en"))[1:]
    assert offered[0] == "white" and "stop" in offered
    assert all(_meaning(word) in ("W", "stop") for word in offered)
