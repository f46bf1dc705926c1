"""Classic's prompt names a move to type in the reader's words (RULES D1: `4 dérapage`, `gaz`,
`4 Driften`), and what it names reads back to the same move; English keeps `W` and `skid`."""

from __future__ import annotations

import pytest

from bot.engine.rallyman.buttons import shown
from bot.engine.rallyman.parse import parse
from bot.i18n import render

LABELS = ["4", "4 skid", "W", "W skid", "3 interior", "2 shortcut"]


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["`4`", "`4 skid`", "`W`", "`W skid`", "`3 interior`", "`2 shortcut`"]),
    ("fr", ["`4`", "`4 dérapage`", "`gaz`", "`gaz dérapage`", "`3 tendue`", "`2 corde`"]),
    ("de", ["`4`", "`4 Driften`", "`gas`", "`gas Driften`", "`3 Ideallinie`", "`2 Abkürzung`"]),
])
def test_a_move_named_for_typing_is_in_the_readers_words_and_reads_back(lang, expected):
    texts = [render(shown(label), lang) for label in LABELS]
    assert texts == expected
    assert [parse(text.strip("`")) for text in texts] == [parse(label) for label in LABELS]
