"""The words the images print, from the message catalogue (`render.` keys: the
shared `data/i18n/<lang>/render.json` and each game's `text/<lang>.json`).

Every word an image prints is looked up here in the language the image is drawn in
(`RenderOptions.lang`: the rally's or the league's), never fixed at import: `word("gear", lang)`,
`word("round", lang, n=3)`, `counted("fact_corners", 4, lang)` ("4 virages"). A language's words
are read once and cached. Texts that come from the services inside a view (a league table's cells,
a header's status) may be messages (`bot.engine.core.text.Msg`); `text(value, lang)` shows one in the
image's language and anything else as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from bot.i18n import DEFAULT_LANG, catalogue, plural_category, render

PREFIX = "render."


@lru_cache(maxsize=16)
def labels(lang: str = DEFAULT_LANG) -> Mapping[str, str]:
    """Every render word of `lang` by its short key (`"gear"`, `"fact_spaces.one"` ...)."""
    return {key[len(PREFIX):]: value for key, value in catalogue(lang).items() if key.startswith(PREFIX)}


def word(key: str, lang: str = DEFAULT_LANG, **params: object) -> str:
    """The word `render.<key>` of `lang`, its placeholders filled with `params`."""
    entries = labels(lang)
    if key not in entries:
        raise KeyError(f"message '{PREFIX}{key}' is not in data/i18n/{lang}/")
    try:
        return entries[key].format(**params)
    except KeyError as exc:
        raise KeyError(f"message '{PREFIX}{key}' needs parameter {exc}") from None


def die_face(face: str, lang: str = DEFAULT_LANG) -> str:
    """The letter a die shows in `lang`: a gear die its number, the white die the letter the
    reader types and reads in the texts (the catalogue's `word.white_face`: "W", FR/DE "G")."""
    return catalogue(lang)["word.white_face"] if face.upper() == "W" else face


def plural_form(n: int, lang: str = DEFAULT_LANG) -> str:
    """`one` or `other`: the catalogue's plural form of a count in `lang` (its CLDR rule: French
    "0 virage", "1 virage", "2 virages")."""
    return plural_category(n, lang)


def counted(key: str, n: int, lang: str = DEFAULT_LANG) -> str:
    """`n` followed by the word `render.<key>.one|other` of `lang`: "1 corner", "4 Kurven"."""
    return f"{n} {word(f'{key}.{plural_form(n, lang)}', lang)}"


def text(value: object, lang: str = DEFAULT_LANG) -> str:
    """A view's text as the image prints it: a message in `lang`, a plain text as it is."""
    return str(render(value, lang))
