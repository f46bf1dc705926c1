"""Discord's documented rules of application command registration that its schema does not encode.

From Discord's documentation (Application Commands): the name pattern
`^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$` in lowercase, for every name and every
localised name; descriptions of 1 to 100 characters; localisation keys among Discord's locales;
at most 25 options and 25 choices (names of 1 to 100 characters, string values of at most 100);
integer bounds within ±(2**53 − 1); min_length/max_length within 0-6,000; required options first;
groups hold subcommands only, one level deep; sibling names distinct in every locale; at most
4,000 characters a command and 100 global chat-input commands. A bulk overwrite with one bad value
anywhere is refused whole (400, code 50035). Each function returns what is wrong (an empty list:
nothing), for tests/discord/referee.py to report.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable
from typing import Any

LARGEST_INT = 2**53 - 1  # Discord's integers are JavaScript-safe: min_value/max_value within ±(2**53 − 1)
COMMAND_NAME = 32
COMMAND_DESCRIPTION = 100
COMMAND_OPTIONS = COMMAND_CHOICES = 25
CHOICE_NAME = CHOICE_VALUE = 100
MAX_LENGTH_BOUND = 6000
COMMAND_CHARACTERS = 4000
GLOBAL_CHAT_COMMANDS = 100
SUBCOMMAND, GROUP = 1, 2

_NAME_PUNCTUATION = frozenset("-_'")
_SCRIPTS = ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x11B00, 0x11B5F),  # Devanagari and its extensions
            (0x0E00, 0x0E7F))  # Thai


def valid_command_name(name: str) -> bool:
    """Discord's pattern for chat-input command and option names,
    `^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`, lowercase wherever a letter has a lowercase form."""
    if not 1 <= len(name) <= COMMAND_NAME or name != name.lower():
        return False
    return all(ch in _NAME_PUNCTUATION or unicodedata.category(ch)[0] in "LN"
               or any(lo <= ord(ch) <= hi for lo, hi in _SCRIPTS) for ch in name)


def command_problems(commands: list[dict], locales: frozenset[str], *, global_scope: bool = True) -> list[str]:
    """Discord's rules for a bulk overwrite of application commands, beyond its schema; `locales`:
    the localisation keys Discord accepts."""
    problems = []
    chat = [c for c in commands if c.get("type", 1) == 1]
    if global_scope and len(chat) > GLOBAL_CHAT_COMMANDS:
        problems.append(f"{len(chat)} global chat-input commands, at most {GLOBAL_CHAT_COMMANDS}")
    problems += _duplicates("commands", [(c.get("type", 1), c.get("name")) for c in commands])
    problems += _sibling_problems("commands", chat)
    for command in commands:
        where = f"/{command.get('name')}"
        if command.get("type", 1) == 1:
            problems += _named_problems(where, command, locales)
            problems += _options_problems(where, command.get("options") or [], 0, locales)
            count = command_characters(command)
            if count > COMMAND_CHARACTERS:
                problems.append(f"{where}: {count} characters (names, descriptions, choices; each in its longest "
                                f"locale), at most {COMMAND_CHARACTERS}")
    return problems


def _sibling_problems(where: str, items: list[dict]) -> list[str]:
    """Names at one level must differ in every locale too (a locale's name, or the default)."""
    locales = {loc for item in items for loc in item.get("name_localizations") or {}}
    return [problem for loc in sorted(locales)
            for problem in _duplicates(f"{where} [{loc}]",
                                       [(item.get("name_localizations") or {}).get(loc, item.get("name"))
                                        for item in items])]


def _duplicates(where: str, keys: Iterable[Any]) -> list[str]:
    counts = Counter(keys)
    return [f"{where}: {key!r} twice" for key, n in counts.items() if n > 1]


def _named_problems(where: str, item: dict, locales: frozenset[str], *, choice: bool = False) -> list[str]:
    """Name, description and their localisations of a command, option (or choice: name only)."""
    problems = []
    names = [(None, item.get("name") or ""), *(item.get("name_localizations") or {}).items()]
    for locale, name in names:
        label = f"{where} name" + (f" [{locale}]" if locale else "")
        if locale is not None and locale not in locales:
            problems.append(f"{label}: {locale!r} is not one of Discord's locales")
        if choice:
            if not 1 <= len(name) <= CHOICE_NAME:
                problems.append(f"{label} {name!r}: {len(name)} characters, 1 to {CHOICE_NAME}")
        elif not valid_command_name(name):
            problems.append(f"{label} {name!r}: not a lowercase name of 1-32 letters, digits, - _ '")
    if choice:
        return problems
    descriptions = [(None, item.get("description") or ""),
                                 *(item.get("description_localizations") or {}).items()]
    for locale, text in descriptions:
        label = f"{where} description" + (f" [{locale}]" if locale else "")
        if locale is not None and locale not in locales:
            problems.append(f"{label}: {locale!r} is not one of Discord's locales")
        if not 1 <= len(text) <= COMMAND_DESCRIPTION:
            problems.append(f"{label}: {len(text)} characters, 1 to {COMMAND_DESCRIPTION}")
    return problems


def _options_problems(where: str, options: list[dict], depth: int, locales: frozenset[str]) -> list[str]:
    problems = [f"{where}: {len(options)} options, at most {COMMAND_OPTIONS}"] if len(options) > COMMAND_OPTIONS else []
    problems += _duplicates(f"{where} options", [o.get("name") for o in options])
    problems += _sibling_problems(f"{where} options", options)
    nested = [o for o in options if o.get("type") in (SUBCOMMAND, GROUP)]
    if nested and len(nested) < len(options):
        problems.append(f"{where}: subcommands mixed with plain options")
    optional_seen = False
    for option in options:
        kind = option.get("type")
        here = f"{where} {option.get('name')}"
        problems += _named_problems(here, option, locales)
        if (kind == GROUP and depth > 0) or (kind == SUBCOMMAND and depth > 1):
            problems.append(f"{here}: a {'group' if kind == GROUP else 'subcommand'} nested {depth + 1} deep")
        if kind == GROUP and any(o.get("type") != SUBCOMMAND for o in option.get("options") or []):
            problems.append(f"{here}: a subcommand group holds something else than subcommands")
        if kind in (SUBCOMMAND, GROUP):
            problems += _options_problems(here, option.get("options") or [], depth + 1, locales)
            continue
        if option.get("required"):
            if optional_seen:
                problems.append(f"{here}: a required option after an optional one")
        else:
            optional_seen = True
        problems += _option_value_problems(here, option, locales)
    return problems


def _option_value_problems(here: str, option: dict, locales: frozenset[str]) -> list[str]:
    problems = []
    for key in ("min_value", "max_value"):
        value = option.get(key)
        if value is not None and not -LARGEST_INT <= value <= LARGEST_INT:
            problems.append(f"{here} {key} {value}: outside ±(2**53 − 1)")
    if option.get("min_value") is not None and option.get("max_value") is not None \
            and option["min_value"] > option["max_value"]:
        problems.append(f"{here}: min_value above max_value")
    for key, low in (("min_length", 0), ("max_length", 1)):
        value = option.get(key)
        if value is not None and not low <= value <= MAX_LENGTH_BOUND:
            problems.append(f"{here} {key} {value}: outside {low}-{MAX_LENGTH_BOUND}")
    choices = option.get("choices") or []
    if choices and option.get("autocomplete"):
        problems.append(f"{here}: both choices and autocomplete")
    if len(choices) > COMMAND_CHOICES:
        problems.append(f"{here}: {len(choices)} choices, at most {COMMAND_CHOICES}")
    for choice in choices:
        problems += _named_problems(f"{here} choice {choice.get('name')!r}", choice, locales, choice=True)
        value = choice.get("value")
        if isinstance(value, str) and len(value) > CHOICE_VALUE:
            problems.append(f"{here} choice value {value[:20]!r}…: {len(value)} characters, at most {CHOICE_VALUE}")
        if isinstance(value, int) and not -LARGEST_INT <= value <= LARGEST_INT:
            problems.append(f"{here} choice value {value}: outside ±(2**53 − 1)")
    return problems


def command_characters(command: dict) -> int:
    """The characters a command counts toward Discord's 4,000: the names, descriptions and choice
    names and values of the command and of everything under it, each field counted in its
    longest version (Discord's documentation: "only the longest localization for each field,
    including the default value, is counted towards the size limit")."""

    def longest(item: dict, key: str) -> int:
        return max(len(str(text)) for text in [item.get(key) or "", *(item.get(f"{key}_localizations") or {}).values()])

    total = 0
    for item in _walk(command):
        total += longest(item, "name") + longest(item, "description")
        for choice in item.get("choices") or []:
            total += longest(choice, "name") + len(str(choice.get("value", "")))
    return total


def _walk(item: dict) -> Iterable[dict]:
    yield item
    for option in item.get("options") or []:
        yield from _walk(option)


def autocomplete_problems(choices: list[dict]) -> list[str]:
    """The suggestions an autocomplete answer offers: as many, and as long, as command choices."""
    problems = [f"choices: {len(choices)}, at most {COMMAND_CHOICES}"] if len(choices) > COMMAND_CHOICES else []
    for i, choice in enumerate(choices):
        name, value = str(choice.get("name") or ""), choice.get("value")
        if not 1 <= len(name) <= CHOICE_NAME:
            problems.append(f"choices[{i}].name: {len(name)} characters, 1 to {CHOICE_NAME}")
        if isinstance(value, str) and len(value) > CHOICE_VALUE:
            problems.append(f"choices[{i}].value: {len(value)} characters, at most {CHOICE_VALUE}")
    return problems
