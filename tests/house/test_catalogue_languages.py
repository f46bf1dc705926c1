"""Every translated catalogue matches the English one: `data/i18n/<lang>/` for each language folder
other than `en`, and each game's `text/<lang>.json` (its own words, in its package), has the same
files, the same keys in each file, the same placeholders in each text
(same names, same count; the order may change), the same rule sections cited (`(RULES A6.3)`, which
`bot.i18n.cite` turns into the reader's rulebook article), no empty text, slash-command and option
descriptions Discord accepts (at most 100 characters), and it loads with `bot.i18n.catalogue`.

The languages are the folders that exist, so a new language is checked as soon as its folder
appears; `REQUIRED` are the ones the bot ships and must not disappear.
"""

from __future__ import annotations

import json
import re
import string
from collections import Counter
from pathlib import Path

import pytest

from bot.i18n import DEFAULT_LANG, catalogue, game_texts
from bot.paths import ROOT, data_dir

I18N = data_dir() / "i18n"
REQUIRED = ("fr", "de")
DESCRIPTION_PREFIXES = ("discord.cmd.", "discord.opt.")
DESCRIPTION_LIMIT = 100  # Discord's limit for a slash command's or an option's description
RULE_SECTION = re.compile(r"\bA\d+(?:\.\d+)*\b")  # RULES.md section ids, e.g. A6.3

LANGS = sorted(p.name for p in I18N.iterdir() if p.is_dir() and p.name != DEFAULT_LANG)


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    keys = [k for k, _ in pairs]
    twice = sorted(k for k, n in Counter(keys).items() if n > 1)
    if twice:
        raise ValueError(f"key(s) written twice: {twice}")
    return dict(pairs)


def _load(path: Path) -> dict[str, str]:
    return json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_no_duplicates)


def _files(lang: str) -> dict[str, dict[str, str]]:
    """The catalogue files of `lang` by name: the shared ones (`engine.json`) and each game's
    (`bot/engine/dirt/text/`, its `<lang>.json`)."""
    found = {p.name: _load(p) for p in sorted((I18N / lang).glob("*.json"))}
    for folder in game_texts():
        if (folder / f"{lang}.json").exists():
            found[f"{folder.relative_to(ROOT).as_posix()}/"] = _load(folder / f"{lang}.json")
    return found


def _placeholders(text: str) -> Counter[str]:
    return Counter(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


ENGLISH = _files(DEFAULT_LANG)


def test_required_languages_exist():
    missing = [lang for lang in REQUIRED if not (I18N / lang).is_dir()]
    assert not missing, f"no catalogue folder data/i18n/<lang>/ for: {missing}"


def test_english_catalogue_is_not_empty():
    assert ENGLISH and all(ENGLISH.values())


@pytest.mark.parametrize("lang", LANGS)
def test_same_files(lang):
    have = set(_files(lang))
    assert not set(ENGLISH) - have, f"the {lang} catalogue misses {sorted(set(ENGLISH) - have)}"
    assert not have - set(ENGLISH), f"the {lang} catalogue has files English lacks: {sorted(have - set(ENGLISH))}"


@pytest.mark.parametrize("lang", LANGS)
def test_same_keys_per_file(lang):
    files = _files(lang)
    problems = []
    for name, english in ENGLISH.items():
        translated = files.get(name, {})
        missing = sorted(set(english) - set(translated))
        extra = sorted(set(translated) - set(english))
        if missing:
            problems.append(f"{lang}/{name} misses {missing}")
        if extra:
            problems.append(f"{lang}/{name} has keys English lacks: {extra}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_same_placeholders(lang):
    files = _files(lang)
    problems = []
    for name, english in ENGLISH.items():
        for key, text in files.get(name, {}).items():
            if key not in english or not isinstance(text, str):
                continue  # reported by the key and loading tests
            try:
                theirs = _placeholders(text)
            except ValueError as exc:
                problems.append(f"{lang}/{name} {key}: bad placeholder ({exc})")
                continue
            ours = _placeholders(english[key])
            if theirs != ours:
                problems.append(f"{lang}/{name} {key}: placeholders {dict(theirs)}, English has {dict(ours)}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_same_rule_citations(lang):
    files = _files(lang)
    problems = []
    for name, english in ENGLISH.items():
        for key, text in files.get(name, {}).items():
            if key in english and isinstance(text, str):
                ours, theirs = set(RULE_SECTION.findall(english[key])), set(RULE_SECTION.findall(text))
                if ours != theirs:
                    problems.append(f"{lang}/{name} {key}: cites {sorted(theirs)}, English cites {sorted(ours)}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_no_empty_text(lang):
    english = {k: v for texts in ENGLISH.values() for k, v in texts.items()}
    empty = [f"{name} {key}" for name, texts in _files(lang).items() for key, text in texts.items()
             if not isinstance(text, str) or not text or (not text.strip() and english.get(key, "").strip())]
    assert not empty, f"empty texts in the {lang} catalogue: {empty}"


@pytest.mark.parametrize("lang", LANGS)
def test_discord_descriptions_fit(lang):
    too_long = [f"{key} ({len(text)} characters)" for texts in _files(lang).values() for key, text in texts.items()
                if key.startswith(DESCRIPTION_PREFIXES) and isinstance(text, str) and len(text) > DESCRIPTION_LIMIT]
    assert not too_long, f"descriptions over {DESCRIPTION_LIMIT} characters in the {lang} catalogue: {too_long}"


@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_loads(lang):
    messages = catalogue(lang)  # validates: flat key → text, no key twice across files, placeholders parse
    missing = sorted(set(catalogue(DEFAULT_LANG)) - set(messages))
    assert not missing, f"{len(missing)} English key(s) missing from the {lang} catalogue, e.g. {missing[:5]}"
