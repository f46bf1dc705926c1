"""Counted messages (`key.one` / `key.other`, chosen by `n` and the language's plural rule), and
the rows owed before a message was counted: an outbox row keeps its message's key and parameters
until it is delivered, so a row written by the previous version (`count=` where the message now
takes `n`) must still read after an upgrade, never fail to render."""

from __future__ import annotations

import pytest

from bot.i18n import t


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("en", "**Rally classification — 1 special**", "**Rally classification — 2 specials**"),
    ("fr", "**Classement du rallye — 1 spéciale**", "**Classement du rallye — 2 spéciales**"),
])
def test_a_counted_message_takes_the_language_s_plural(lang, one, two):
    assert t("rally.final_classification", lang, n=1) == one
    assert t("rally.final_classification", lang, n=2) == two


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_a_row_saved_before_the_message_was_counted_still_reads(lang):
    assert t("rally.final_classification", lang, count=2) == t("rally.final_classification", lang, n=2)
    assert t("rally.final_classification", lang, count=1) == t("rally.final_classification", lang, n=1)


def test_an_unknown_message_is_still_an_error():
    with pytest.raises(KeyError, match="not in data/i18n/en/"):
        t("rally.no_such_message", "en", count=2)
