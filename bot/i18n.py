"""The message catalogue: every user-visible text, by key, in each language.

The bot's own words, those every game uses, are in `data/i18n/<lang>/*.json` (each part of the bot
owns one file: engine.json, services.json, discord.json, ...); each registered game brings its own
words in its package (`Game.texts`: a folder of `<lang>.json`, `bot/engine/<game>/text/`). The files
of a language merge into one catalogue: a key defined twice (a game redefining a shared key, or two
games the same key) is an error naming the file and the key, and so is a game missing a language. Texts use `str.format`
placeholders (`{gear}`); a placeholder the caller does not supply is an error naming the key, so a
missing parameter shows up in tests, not in front of a user.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from babel import Locale
from babel.numbers import format_decimal
from pydantic import RootModel, ValidationError

from bot.engine.core.errors import DataError
from bot.engine.core.text import Listed, Msg, joined, set_renderer
from bot.paths import ROOT, data_dir

DEFAULT_LANG = "en"


class _CatalogueFile(RootModel[dict[str, str]]):
    """One catalogue file: flat mapping of message key → text."""


def _data_dir() -> Path:
    return data_dir() / "i18n"


#: where a game's package keeps its own words: `bot/engine/<game>/text/<lang>.json`, read for
#: every game package there is (a game shipped with the bot needs no other line to be read)
ENGINE = Path(__file__).resolve().parent / "engine"

#: folders of the own texts of games registered from elsewhere (tests' toy games), added by the
#: registry (`bot.games.register`) from the game's `texts`
_ADDED: list[Path] = []


def add_texts(folder: Path) -> None:
    """Merge `folder/<lang>.json` into every language's catalogue from now on (a key defined twice
    is refused when the catalogue is next read, naming both files); a shipped game's folder is
    read already."""
    if folder not in _ADDED and folder.resolve() not in _shipped():
        _ADDED.append(folder)
        catalogue.cache_clear()


def remove_texts(folder: Path) -> None:
    if folder in _ADDED:
        _ADDED.remove(folder)
        catalogue.cache_clear()


def _shipped() -> list[Path]:
    return sorted(folder for folder in ENGINE.glob("*/text") if folder.is_dir())


def game_texts() -> tuple[Path, ...]:
    """The folders of the games' own texts: each game package's `text/`, then those added."""
    return (*_shipped(), *_ADDED)


@lru_cache(maxsize=8)
def catalogue(lang: str = DEFAULT_LANG) -> dict[str, str]:
    """All messages of `lang`: the shared catalogue (`data/i18n/<lang>/*.json`, the bot's own words)
    and each game's `text/<lang>.json`; validated once and cached."""
    folder = _data_dir() / lang
    if not folder.is_dir():
        raise DataError(str(folder), "language", f"no catalogue for language '{lang}'")
    files = [(path, f"data/i18n/{lang}/{path.name}") for path in sorted(folder.glob("*.json"))]
    for extra in game_texts():
        path = extra / f"{lang}.json"
        if not path.is_file():
            raise DataError(_shown_path(path), "language",
                            f"missing: a game brings its texts in every language of the catalogue ({lang} here)")
        files.append((path, _shown_path(path)))
    merged: dict[str, str] = {}
    owner: dict[str, str] = {}
    for path, source in files:
        for key, text in _entries(path, source).items():
            if key in merged:
                raise DataError(source, key, f"defined twice (also in {owner[key]})")
            try:
                list(string.Formatter().parse(text))
            except ValueError as exc:
                raise DataError(source, key, f"bad placeholder ({exc})") from None
            merged[key] = text
            owner[key] = source
    return merged


def _entries(path: Path, source: str) -> dict[str, str]:
    """One catalogue file's entries, or an error naming the file and what is wrong."""
    try:
        return _CatalogueFile.model_validate(json.loads(path.read_text(encoding="utf-8"))).root
    except json.JSONDecodeError as exc:
        raise DataError(source, f"line {exc.lineno}", f"not valid JSON ({exc.msg})") from None
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "(top)"
        raise DataError(source, field, f"{err['msg']}; every entry maps a key to a text") from None


def _shown_path(path: Path) -> str:
    """A game's text file as the checkout names it (`bot/engine/<game>/text/fr.json`)."""
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def _format(key: str, lang: str, params: Mapping[str, object]) -> str:
    messages = catalogue(lang)
    count = params.get("n")
    if count is None and isinstance(params.get("count"), int) and f"{key}.one" in messages:
        count = params["count"]  # a message saved before it was counted by `n` (an owed outbox row)
        params = {**params, "n": count}
    if key not in messages and f"{key}.one" in messages and isinstance(count, int):
        key = f"{key}.{plural_category(count, lang)}"  # a counted message: the reader's plural
    if key not in messages:
        raise KeyError(f"message '{key}' is not in data/i18n/{lang}/ nor in a game's text/{lang}.json")
    if any(type(value) is float for value in params.values()):  # numbers the reader's way: 12,5
        params = {k: _number(v, lang) if type(v) is float else v for k, v in params.items()}
    try:
        template = messages[key]
        elides = lang in ELISION and any(f"{word} {{" in template for word in ELISION[lang])
        text = _elided(template, params, lang) if elides else template.format(**params)
    except KeyError as exc:
        raise KeyError(f"message '{key}' needs parameter {exc}") from None
    return cite(text, lang) if "RULES " in text else text


def _number(value: float, lang: str) -> str:
    """A decimal number with one decimal, as the language writes it (Babel, CLDR: "12.5", "12,5")."""
    return format_decimal(value, format="#,##0.0", locale=lang)


def plural_category(n: int, lang: str = DEFAULT_LANG) -> str:
    """`one` or `other`: the plural form the catalogue has for a count `n` in `lang`, by the
    language's CLDR rule (Babel): French says "0 course" and "1 course", English "0 events"; a
    category the catalogue does not write (French "many" for millions) reads as `other`. A
    message `key.one` / `key.other` is chosen by it when a text is asked for as `key` with an
    integer `n`."""
    return "one" if Locale.parse(lang).plural_form(abs(n)) == "one" else "other"


#: languages whose short words drop their vowel before a word that starts with one ("de Alice" →
#: "d'Alice"), and the words that do, each with its elided form
ELISION: dict[str, dict[str, str]] = {"fr": {"de": "d'", "que": "qu'", "De": "D'"}}
_VOWELS = frozenset("aeiouàâäéèêëîïôöùûüœæAEIOUÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆ")


def _elided(template: str, params: Mapping[str, object], lang: str) -> str:
    """`template` filled with `params`, a short word before a value that starts with a vowel
    elided the language's way (French: "de {name}" with Alice reads "d'Alice"). Only before a
    value: the catalogue's own words are written right already."""
    words = ELISION[lang]
    out: list[str] = []
    for literal, field, spec, conversion in string.Formatter().parse(template):
        value = ""
        if field is not None:
            value = string.Formatter().format_field(
                string.Formatter().convert_field(string.Formatter().get_field(field, (), params)[0], conversion),
                spec or "")
        if field is not None and literal and value[:1] in _VOWELS:
            last = literal[:-1].rpartition(" ")[2] if literal.endswith(" ") else ""
            if last in words:  # "… de " → "… d'"
                literal = literal[:-1 - len(last)] + words[last]
        out.append(literal + value)
    return "".join(out)


class _Articles(RootModel[dict[str, dict[str, str | None]]]):
    """data/rulebook_articles.json: specification section (A6) → article per rulebook language."""


@lru_cache(maxsize=1)
def rulebook_articles() -> dict[str, dict[str, str | None]]:
    """Which article of each language's rulebook edition holds each section (RULES.md A0)."""
    path = data_dir() / "rulebook_articles.json"
    source = "data/rulebook_articles.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        raw.pop("_about", None)
        table = _Articles.model_validate(raw).root
    except json.JSONDecodeError as exc:
        raise DataError(source, f"line {exc.lineno}", f"not valid JSON ({exc.msg})") from None
    except ValidationError as exc:
        err = exc.errors()[0]
        raise DataError(source, ".".join(str(p) for p in err["loc"]), err["msg"]) from None
    for section, by_lang in table.items():
        if not _SECTION.fullmatch(section) or set(by_lang) != {"en", "fr", "de"}:
            raise DataError(source, section, "a section like A6 with an article (or null) for en, fr and de")
    return table


_SECTION = re.compile(r"A\d+")
_REF = r"(?:A\d+(?:\.\d+)*|AMB-\d+|OPEN-\d+)"
_RULES = re.compile(rf"RULES ({_REF}(?:,\s*{_REF})*)")
_SECTION_OF = re.compile(r"A(\d+)")


def cite(text: str, lang: str) -> str:
    """Rule citations as a player can use them: `RULES A12.5` in a catalogue text becomes the
    article of the reader's rulebook edition, `(rulebook ART.8)` / `(règlement ART.8)` …; a
    section that edition does not have (and a specification id, AMB-/OPEN-) is left out, and a
    parenthesis left empty goes."""
    articles = rulebook_articles()
    edition = lang if lang in ("en", "fr", "de") else "en"
    word = catalogue(lang).get("rules.cite", "rulebook")

    def refs(match: re.Match[str]) -> str:
        found: list[str] = []
        for ref in re.split(r",\s*", match.group(1)):
            section = _SECTION_OF.match(ref)
            article = articles.get(f"A{section.group(1)}", {}).get(edition) if section else None
            if article is not None and article not in found:
                found.append(article)
        return f"{word} {', '.join(found)}" if found else ""

    gone = "\0"  # a citation with no article in this edition: taken out with its separator
    text = _RULES.sub(lambda match: refs(match) or gone, text)
    text = re.sub(r" ?\(\0\)", "", text)
    text = re.sub(r"\s*[,;]\s*\0", "", text)
    text = re.sub(r"\0\s*[,;]\s*", "", text)
    return text.replace(gone, "")


_COMMAND = re.compile(r"`/([^`]+)`")


def localize_commands(text: str, lang: str) -> str:
    """Slash commands named in a text (`/rally create stage:x`) as a Discord client in `lang`
    shows them (`/course créer spéciale:x`): the command, group and option names of
    `commands.json`; values stay as typed. For what Discord shows only: the console reads the
    commands as they are typed there."""
    if lang == DEFAULT_LANG or "`/" not in text:
        return text
    names = catalogue(lang)

    def one(match: re.Match[str]) -> str:
        words = match.group(1).split(" ")
        if f"name.{words[0]}" not in names:
            return match.group(0)
        shown = []
        path = True
        for word in words:
            key, colon, value = word.partition(":")
            if colon:
                shown.append(names.get(f"name.{key}", key) + ":" + value)
            elif path and re.fullmatch(r"[a-z_]+", word) and len(shown) < 3:
                shown.append(names.get(f"name.{word}", word))
            else:
                path = False
                shown.append(word)
        return "`/" + " ".join(shown) + "`"

    return _COMMAND.sub(one, text)


def t(key: str, lang: str = DEFAULT_LANG, **params: object) -> str:
    """`key` with `params`: in the default language a `Msg` (a text that keeps its key, so the
    boundary can show it again in its reader's language), in another language its plain text."""
    if lang == DEFAULT_LANG:
        return Msg(key, **params)
    return _format(key, lang, {k: _shown(v, lang) for k, v in params.items()})


def render(value: object, lang: str = DEFAULT_LANG) -> str:
    """A text for a reader of `lang`: a `Msg` (and the messages in its params) from that
    language's catalogue, a `Listed` joined the language's way, anything else as it is."""
    if isinstance(value, Msg):
        return _format(value.key, lang, {k: _shown(v, lang) for k, v in value.params.items()})
    if isinstance(value, Listed):
        messages = catalogue(lang)
        separators = {how: messages[f"list.{how}"] for how in ("or", "and", "comma", "dot", "space")}
        return joined([render(item, lang) for item in value.items], value.how, separators)
    return str(value)


def _shown(value: object, lang: str) -> object:
    """A param for `lang`: a message or a list rendered, a number left for `_format` to write."""
    return render(value, lang) if isinstance(value, (Msg, Listed)) else value


def languages() -> tuple[str, ...]:
    """The languages with a catalogue (folders of data/i18n), the default first."""
    found = sorted(p.name for p in _data_dir().iterdir() if p.is_dir() and (p / "engine.json").exists())
    return (DEFAULT_LANG, *[lang for lang in found if lang != DEFAULT_LANG])


def language_of(locale: object) -> str:
    """The catalogue language for a Discord locale (`fr`, `de`, `en-US`, `pt-BR` …): its
    language when there is a catalogue for it, else the default."""
    code = str(getattr(locale, "value", locale) or "").split("-")[0].lower()
    return code if code in languages() else DEFAULT_LANG


def _default_text(message: Msg) -> str:
    return _format(message.key, DEFAULT_LANG, message.params)


set_renderer(_default_text)


def placeholders(key: str, lang: str = DEFAULT_LANG) -> set[str]:
    """Names a message expects, for tests that check every caller supplies them."""
    return {name for _, name, _, _ in string.Formatter().parse(catalogue(lang)[key]) if name}
