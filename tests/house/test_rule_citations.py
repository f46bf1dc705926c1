"""Replies cite the article of the reader's rulebook edition (RULES.md A0), never the
specification's ids."""

from __future__ import annotations

import re

import pytest

from bot.i18n import catalogue, cite, languages, rulebook_articles, t


@pytest.mark.parametrize(("text", "lang", "shown"), [
    ("You may not (RULES A12.5).", "en", "You may not (rulebook ART.8)."),
    ("x (RULES A6.3, A18.2)", "en", "x (rulebook ART.3, ART.13)"),
    ("x (RULES A6.3, A18.2)", "de", "x (Regel ART.4, ART.5)"),
    ("x (RULES A18.1)", "fr", "x (règlement ART.14)"),
    ("a (each die once, RULES A6.3).", "en", "a (each die once, rulebook ART.3)."),
    ("y (RULES A19.2; ⚠ 2 this turn)", "en", "y (rulebook ART.14; ⚠ 2 this turn)"),
    ("w (RULES A22) end", "en", "w end"),  # the SISU card is only in the German edition
    ("w (RULES A22) end", "de", "w (Regel ART.7.5) end"),
    ("c (RULES A10.3, AMB-21)", "en", "c (rulebook ART.6)"),  # a specification id is not cited
    ("{flats} flat tire(s), RULES A9.4).", "en", "{flats} flat tire(s), rulebook ART.5)."),
    ("(a, RULES A22)", "en", "(a)"),
])
def test_a_citation_names_the_article_of_the_readers_rulebook_or_nothing(text, lang, shown):
    assert t("rules.cite", lang) == {"en": "rulebook", "fr": "règlement", "de": "Regel"}[lang]
    assert cite(text, lang) == shown


def test_no_text_shown_to_a_reader_says_rules_and_every_cited_section_is_known():
    sections = set(rulebook_articles())
    for lang in languages():
        for key, text in catalogue(lang).items():
            for ref in re.findall(r"RULES ([^)]*)", text):
                for section in re.findall(r"\bA(\d+)", ref):
                    assert f"A{section}" in sections, (lang, key, section)
            assert "RULES " not in cite(text, lang), (lang, key)
