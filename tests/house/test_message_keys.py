"""Texts are message keys until shown: `Msg` and `Listed` keep their keys through
JSON and the cache, and read in each language at the boundary."""

from __future__ import annotations

import json

from bot.engine.core.errors import NotAllowed
from bot.engine.core.text import Listed, Msg, from_json, msg, to_json
from bot.engine.rallyman.words import allowed_words, gear_name
from bot.i18n import render, t


def test_a_message_reads_english_as_a_str_and_each_language_when_rendered():
    message = msg("turn.not_your_turn", name="Bob")
    assert isinstance(message, Msg) and message == t("turn.not_your_turn", name="Bob")
    assert render(message, "fr") == t("turn.not_your_turn", "fr", name="Bob") != str(message)
    assert render(message, "de") == t("turn.not_your_turn", "de", name="Bob")


def test_messages_inside_messages_and_lists_read_in_the_readers_language():
    allowed = allowed_words(["2", "3", "W"])
    assert allowed == "2, 3 or white"
    assert render(allowed, "fr") == f"2, 3{t('list.or', 'fr')}{t('word.white', 'fr')}"
    refusal = NotAllowed(msg("roll.or_stop", allowed=allowed))
    assert render(str(refusal), "de").startswith("2, 3")
    assert t("word.white", "de") in render(str(refusal), "de")
    assert render(gear_name(3), "fr") == t("gear.3", "fr")


def test_a_message_survives_json_with_its_key_and_params():
    message = msg("event.by_driver", name="Ann", text=msg("word.spin"))
    back = from_json(json.loads(json.dumps(to_json([message, "plain", Listed(["1", msg("word.white")], "dot")]))))
    assert back == [message, "plain", "1 · white"]
    assert render(back[0], "fr") == render(message, "fr")
    assert render(back[2], "de") == f"1{t('list.dot', 'de')}{t('word.white', 'de')}"


def test_the_cache_never_mixes_two_messages_that_read_the_same_in_english():
    as_word = msg("odds.result", plan=msg("word.white"), percent="1%")
    as_text = msg("odds.result", plan="white", percent="1%")
    assert as_word == as_text  # the same English text...
    assert render(as_word, "fr") != render(as_text, "fr")  # ...but not the same message
    assert msg("odds.result", plan=msg("word.white"), percent="1%") is as_word  # made once
