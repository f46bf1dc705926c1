"""Slash commands in the reader's Discord language: an `app_commands.Translator` on the catalogue.

discord.py asks the tree's translator, when it builds the sync payload, for every command, group
and option name, every description and every choice name, once per Discord locale; what it
returns becomes `name_localizations` / `description_localizations` (None: Discord shows the
default, English). The words come from the message catalogue (`bot.i18n`), in the language
`language_of(locale)` finds a catalogue for (French for `fr`, German for `de`):

- descriptions are catalogue texts already (`discord.cmd.*`, `discord.opt.*`): a command's keeps
  its key (a `Msg`); an option's reaches the library as plain English text, so its key is found
  by the English text (the reverse map of those two key families);
- names: `name.<english name>` in `data/i18n/<lang>/commands.json`, or the game's `text/` for a
  name only its commands have (one word per English name, so
  `/rally join` and `/league join` say the same verb);
- choices: `choice.<value>`, so the value the bot receives stays the English one.

Discord rejects a whole sync for one bad localised name, so a name that is not a valid command
name (lowercase letters, digits, `-`, `_`, at most 32) or a description over 100 characters is
logged and left to the default instead of being sent.
"""

from __future__ import annotations

import logging
import unicodedata
from functools import cached_property

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import DEFAULT_LANG, catalogue, language_of

log = logging.getLogger(__name__)

DESCRIPTION_PREFIXES = ("discord.cmd.", "discord.opt.")
NAME_LIMIT = 32
DESCRIPTION_LIMIT = 100
CHOICE_LIMIT = 100

NAMES = (Where.command_name, Where.group_name, Where.parameter_name)
DESCRIPTIONS = (Where.command_description, Where.group_description, Where.parameter_description)


def valid_name(name: str) -> bool:
    """Discord's rule for a command, group or option name (`^[-_\\p{L}\\p{N}...]{1,32}$`, in
    lowercase where the letter has a lowercase form), for the scripts our catalogues use."""
    return (0 < len(name) <= NAME_LIMIT and name == name.lower()
            and all(ch in "-_" or unicodedata.category(ch)[0] in "LN" for ch in name))


def name_key(english: str) -> str:
    return f"name.{english}"


def choice_key(value: object) -> str:
    return f"choice.{value}"


class CatalogueTranslator(app_commands.Translator):
    """Localises the command tree from the catalogue; None where there is no translation."""

    def __init__(self) -> None:
        self._langs: dict[Locale, str] = {}

    def lang_of(self, locale: Locale) -> str:
        """The catalogue language of a Discord locale (asked about 40 times per string)."""
        if locale not in self._langs:
            self._langs[locale] = language_of(locale)
        return self._langs[locale]

    @cached_property
    def description_keys(self) -> dict[str, str]:
        """English description text → its catalogue key (the first key, in sorted order, when
        two keys read the same in English)."""
        found: dict[str, str] = {}
        for key, text in sorted(catalogue(DEFAULT_LANG).items()):
            if key.startswith(DESCRIPTION_PREFIXES):
                found.setdefault(text, key)
        return found

    def key_of(self, string: app_commands.locale_str, context: app_commands.TranslationContextTypes) -> str | None:
        """The catalogue key of a string of the tree, or None when it has none."""
        if context.location in NAMES:
            return name_key(string.message)
        if context.location in DESCRIPTIONS:
            own = getattr(string.message, "key", None)  # a Msg keeps its key
            if isinstance(own, str) and own.startswith(DESCRIPTION_PREFIXES):
                return own
            return self.description_keys.get(string.message)
        if context.location is Where.choice_name:
            return choice_key(getattr(context.data, "value", None))
        return None

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = self.lang_of(locale)
        if lang == DEFAULT_LANG:
            return None
        key = self.key_of(string, context)
        text = catalogue(lang).get(key) if key else None
        if text is None:
            return None
        if context.location in NAMES and not valid_name(text):
            log.warning("not a valid Discord name for %s in %s: %r (English used)", key, lang, text)
            return None
        limit = CHOICE_LIMIT if context.location is Where.choice_name else DESCRIPTION_LIMIT
        if len(text) > limit:
            log.warning("%s in %s is over %d characters (English used)", key, lang, limit)
            return None
        return text
