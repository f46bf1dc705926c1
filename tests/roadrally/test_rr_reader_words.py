"""Road Rally's moves as the reader types them (RULES D3): `typed_text` shows a label in the
reader's words (`jouer v1`, `spielen gr1`), and what it shows reads back to the same action from
the seat's own view; the `/hand` hint names a move so too."""

from __future__ import annotations

import re

import pytest

from bot.engine.roadrally.play import legal_actions, to_act
from bot.engine.roadrally.status_text import hand_lines
from bot.engine.roadrally.view import view
from bot.engine.roadrally.words import label, parse, typed_text
from bot.i18n import render
from tests.roadrally.test_rr_words import _same
from tests.roadrally.text_helpers import steps

ENGLISH_VERBS = re.compile(r"^(play|reshuffle|skip|order|reveal|pass|cards|retire)\b|\b[gy]\d\b|\b(store|draw)\b")


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_every_legal_action_shown_in_the_readers_words_reads_back(lang):
    kinds: set[str] = set()
    for n, (st, _, _) in enumerate(steps()):
        if n % 5:
            continue
        for seat in sorted(to_act(st)):
            v = view(st, seat)
            for action in legal_actions(st, seat):
                shown = render(typed_text(label(action)), lang)
                assert _same(parse(shown, v), action, v), (shown, action)
                if lang != "en":
                    assert not ENGLISH_VERBS.search(shown), shown
                kinds.add(type(action).__name__)
    assert {"Play", "Reshuffle", "StageAnswer"} <= kinds


@pytest.mark.parametrize(("lang", "verb"), [("en", "`play "), ("fr", "`jouer "), ("de", "`spielen ")])
def test_the_hands_hint_names_a_play_in_the_readers_words(lang, verb):
    for st, _, _ in steps():
        seats = sorted(to_act(st))
        lines = [render(line, lang) for line in hand_lines(view(st, seats[0]), {})] if seats else []
        if any(verb in line for line in lines):
            return
    raise AssertionError(f"no hint with {verb}")
