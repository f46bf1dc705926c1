"""Every string that reaches a service comes from a stranger: checked here, before anything else.

Discord does not enforce an option's declared range or length on what a client sends, and the
console takes free text, so the services check every value themselves: names are looked up in
a catalogue (never used as a path), numbers are parsed strictly (no `inf`, `nan`, `1e309`, no
junk), and every free text (a reason, a league name, a command line) goes through one validator,
`text_option`: trimmed, bounded, printable only (no control, zero-width or bidi-override
character, which could hide or reorder what a public post says), mentions neutralised (a text
quoted in a post never pings `@everyone` or anyone). Names that come from Discord (members,
servers) are cleaned the same way instead of refused (`display_name`). Each refusal is a
`ServiceError` naming the option and the reason, raised before any read or write, so a refused
command changes nothing; what it quotes of the value is cleaned too (`shown`).
"""

from __future__ import annotations

import math
import re
import unicodedata

from bot import games
from bot.services.errors import ServiceError

MAX_NAME = 64  # stage and ruleset names
MAX_SPECIALS = 4  # a rally is 1 to 4 specials (RULES A2: 3 in the rulebook)
MAX_COURSE_TEXT = MAX_NAME * MAX_SPECIALS + 3 * (MAX_SPECIALS - 1)
MAX_COMMAND_TEXT = 100  # `/roll` dice, `/odds` plans, a line
MAX_DISPLAY_NAME = 64
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")
_DIGITS = re.compile(r"[0-9]{1,19}")
# `@everyone`, `@here` and the `<@…>` of a user or role mention: the `@` becomes a full-width one
# (U+FF20), which reads the same and never pings.
_MENTION = re.compile(r"@(?=everyone|here)|(?<=<)@", re.IGNORECASE)
SAFE_AT = "\uff20"


def _spaced(text: str) -> str:
    """Every space separator (no-break, thin, ideographic…) as a plain space: a French `:` typed
    with its no-break space is not hostile."""
    return "".join(" " if unicodedata.category(ch) == "Zs" else ch for ch in text)


def _hidden(ch: str) -> bool:
    """A character a text may not hold: not printable (controls, line breaks, format characters
    such as zero-width spaces and joiners, bidi embeddings, overrides and isolates, the BOM;
    unassigned, private-use and surrogate code points)."""
    return not ch.isprintable()


def neutral(text: str) -> str:
    """`text` with its mentions made harmless (`@everyone`, `@here`, `<@123>`, `<@&123>`)."""
    return _MENTION.sub(SAFE_AT, text)


def refuse_hidden(option: str, text: str) -> None:
    """Refuse `text` if it holds a hidden character: named by its code point, never echoed."""
    for position, ch in enumerate(text, start=1):
        if _hidden(ch):
            raise ServiceError("input.hidden_character", option=option, code=f"U+{ord(ch):04X}", position=position)


def text_option(option: str, value: object, limit: int) -> str:
    """The one validator of free text: stripped, refused when empty, when it holds a hidden
    character (named by its code point, never echoed) or when longer than `limit` characters;
    its mentions neutralised."""
    if not isinstance(value, str):
        raise ServiceError("input.not_text", option=option)
    text = _spaced(value).strip()
    if not text:
        raise ServiceError("input.empty", option=option)
    refuse_hidden(option, text)
    if len(text) > limit:
        raise ServiceError("input.too_long", option=option, limit=limit, length=len(text))
    return neutral(text)


def shown(value: object, limit: int) -> str:
    """A value quoted in a refusal: hidden characters dropped, mentions neutralised, at most
    `limit` characters (a refusal never repeats what could hide or ping)."""
    return neutral("".join(ch for ch in _spaced(str(value)) if not _hidden(ch)).strip())[:limit]


def catalogue_name(option: str, value: object, known: list[str], missing_key: str) -> str:
    """A name that must be one of `known` (exactly): a stage name is never a path."""
    text = text_option(option, value, MAX_NAME)
    if text not in known:
        raise ServiceError(missing_key, **{option: text}, **{f"{option}s": ", ".join(known)})
    return text


def stage_name(value: object, game: str | None = None) -> str:
    """A stage of the game's library: shipped, or generated (classic: `gen-SEED[-LENGTH]`)."""
    text = text_option("stage", value, MAX_NAME)
    stages = games.get(game).library.stages
    if stages.exists(text):
        return text
    return catalogue_name("stage", text, list(stages.names()), "rally.unknown_stage")


def course(value: object, game: str | None = None) -> list[str]:
    """A rally's specials: one stage name, or up to MAX_SPECIALS separated by commas (RULES A2)."""
    text = text_option("stage", value, MAX_COURSE_TEXT)
    names = [part.strip() for part in text.split(",")]
    if not 1 <= len(names) <= MAX_SPECIALS:
        raise ServiceError("rally.too_many_specials", max=MAX_SPECIALS, count=len(names))
    return [stage_name(name, game) for name in names]


def assistance(value: object, specials: int) -> list[bool]:
    """The assistance flags of a course (A2.4): `all` (the default, as the rulebook advises
    beginners), `none`, or the numbers of the specials followed by assistance (`1,2`)."""
    text = text_option("assistance", value, MAX_NAME).lower()
    if text == "all":
        return [True] * specials
    if text == "none":
        return [False] * specials
    parts = [p.strip() for p in text.split(",")]
    if not all(_DIGITS.fullmatch(p) and 1 <= int(p) <= specials for p in parts):  # ASCII digits: `²` is none
        raise ServiceError("rally.bad_assistance", count=specials, value=text[:MAX_NAME])
    after = {int(p) for p in parts}
    return [i + 1 in after for i in range(specials)]


def rules_plus(value: object, game: str | None = None) -> list[str]:
    """The optional modules switched on for a rally, among the game's (classic's Rules+: A18 time
    attack, A19 second markers, A20 weather and tires, A21 split times): a comma-separated list,
    or `none`/empty; in the game's order."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
        return []
    text = text_option("modules", value, MAX_NAME).lower()
    names = [n.strip() for n in text.split(",") if n.strip()]
    available = list(games.get(game).library.modules)
    unknown = [n for n in names if n not in available]
    if unknown:
        raise ServiceError("rally.bad_modules", value=", ".join(unknown)[:MAX_NAME],
                           modules=", ".join(available) or "—")
    return sorted(set(names), key=available.index)


def start_order_option(value: object) -> bool:
    """The start order of SS1 (RULES A3): `joined` (the host's call: the order drivers joined)
    or `random`; True for random."""
    text = text_option("order", value, MAX_NAME).lower()
    if text not in ("joined", "random"):
        raise ServiceError("rally.bad_order", value=text[:MAX_NAME])
    return text == "random"


#: The languages a rally or a league can be written in (the catalogues of data/i18n).
LANGUAGES = ("en", "fr", "de")


def language(value: object, default: str) -> str:
    """A rally's or a league's language: `en`, `fr` or `de`; empty means `default` (the server's)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return default if default in LANGUAGES else LANGUAGES[0]
    text = text_option("language", value, MAX_NAME).lower()
    if text not in LANGUAGES:
        raise ServiceError("input.bad_language", value=text[:MAX_NAME], languages=", ".join(LANGUAGES))
    return text


def ruleset_name(value: object, game: str | None = None) -> str:
    return catalogue_name("ruleset", value, list(games.get(game).library.rulesets()), "rally.unknown_ruleset")


def number(option: str, value: object, low: float, high: float, *, whole: bool = False) -> float:
    """A finite number from `low` to `high` (a whole one if `whole`), from a number or plain
    decimal text; `inf`, `nan`, exponents, overflow and junk are refused by name."""
    if isinstance(value, bool):
        raise ServiceError("input.not_number", option=option, value=str(value))
    if isinstance(value, int):
        result = float(value) if abs(value) < 2**53 else math.inf
    elif isinstance(value, float):
        result = value
    elif isinstance(value, str) and _NUMBER.match(value.strip()) and len(value.strip()) <= 20:
        result = float(value.strip())
    else:
        if isinstance(value, str):  # `2<U+200B>4` is not 24: its hidden character is named
            refuse_hidden(option, _spaced(value).strip())
        raise ServiceError("input.not_number", option=option, value=shown(value, 20))
    if not math.isfinite(result) or not low <= result <= high:
        raise ServiceError("input.out_of_range", option=option, value=shown(value, 20), low=f"{low:g}",
                           high=f"{high:g}")
    if whole and result != int(result):
        raise ServiceError("input.not_whole", option=option, value=shown(value, 20))
    return result


#: Discord ids (snowflakes): the millisecond since Discord's epoch (2015) in the bits above the 22nd,
#: a signed 64-bit number: the smallest is 2**22, the largest 2**63 - 1.
MIN_SNOWFLAKE = 2**22
MAX_SNOWFLAKE = 2**63 - 1


def snowflake(option: str, value: object) -> int:
    """A Discord id (a role's): a whole number from 2**22 to 2**63 - 1, as an int or its ASCII
    digits (`True`, `1.5e17` or `None` read as no digits: refused)."""
    text = str(value).strip()
    if not _DIGITS.fullmatch(text) or not MIN_SNOWFLAKE <= int(text) <= MAX_SNOWFLAKE:
        raise ServiceError("input.not_snowflake", option=option, value=shown(value, 24))
    return int(text)


def display_name(name: str, limit: int = MAX_DISPLAY_NAME, empty: str = "?") -> str:
    """A name Discord gives (a member's, a server's) as shown in posts: cleaned as `shown` does
    (it is not the user's input to refuse), `empty` when nothing is left."""
    return shown(name, limit) or empty
