"""Autocomplete names the moves in the asker's Discord language (RULES D1: `gaz` for a white
die), while the value sent stays the move's label, which the parser reads in every language; an
English reader sees the labels' own words, as before."""

from __future__ import annotations

import pytest

from tests.discord.fakes import Harness, command_payload, option

BOB = (1002, "Bob")
ALICE = (1001, "Alice")


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "words.sqlite3") as harness:
        await harness.command(BOB, "rally", "create", stage="pinewood-sprint", drivers=2)
        await harness.command(BOB, "rally", "join")
        await harness.command(ALICE, "rally", "join")
        await harness.command(BOB, "rally", "start")
        await harness.command(BOB, "act", action="1")
        yield harness


async def _choices(h: Harness, name: str, focused: str, typed: str, locale: str) -> list[tuple[str, str]]:
    (call,) = await h.dispatch(command_payload(BOB, name, None, [option(focused, typed, focused=True)],
                                               autocomplete=True, locale=locale))
    return [(c["name"], c["value"]) for c in call.body["data"]["choices"]]


@pytest.mark.parametrize(("locale", "white"), [("fr", "gaz"), ("de", "gas"), ("en-US", "W")])
async def test_act_offers_the_moves_in_the_readers_words_with_their_labels_as_values(h, locale, white):
    assert await _choices(h, "act", "action", "", locale) == [("2", "2"), (white, "W"), ("stop", "stop")]


async def test_a_reader_may_start_typing_their_own_word(h):
    assert await _choices(h, "act", "action", "ga", "fr") == [("gaz", "W")]
    assert await _choices(h, "act", "action", "ga", "en-US") == [("ga", "ga")]  # no English move: sent as typed
