"""Road Rally's moves as the reader types them (RULES D3): `typed_text` shows a label in the
reader's words (`jouer v1`, `spielen gr1`), and what it shows reads back to the same action from
the seat's own view; the `/hand` hint names a move so too."""

from __future__ import annotations

import asyncio
import io
import re

import pytest

from bot.console.clock import console_service
from bot.console.loop import run_console
from bot.engine.roadrally.play import legal_actions, to_act
from bot.engine.roadrally.status_text import hand_lines
from bot.engine.roadrally.view import view
from bot.engine.roadrally.words import label, parse, typed_text
from bot.i18n import render
from bot.store import Store
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


@pytest.mark.parametrize(("lang", "picks"), [("fr", "Vous pouvez : `jouer v1`"), ("de", "`spielen gr1`")])
def test_the_consoles_hand_lists_the_moves_in_the_readers_words_and_takes_them(tmp_path, lang, picks):
    async def session() -> str:
        store = await Store.open(str(tmp_path / "rr.sqlite3"))
        out = io.StringIO()
        try:
            lines = ["alice: /rally create game:roadrally preset:rr-standard drivers:3", "alice: /rally join",
                     "alice: /rally add-ai count:2", "alice: /rally start", "alice: /hand"]
            await run_console(lines, console_service(store, seed=1), out, lang=lang)
        finally:
            await store.close()
        return out.getvalue()

    text = asyncio.run(session())
    assert picks in text, text[-1500:]
    assert "`play " not in text and "`/act play" not in text
