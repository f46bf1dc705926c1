"""The reader's language: `?lang=` when it names one of the bot's languages, else the first of
`Accept-Language` the bot speaks, else English. An unknown value is ignored, never an error."""

from __future__ import annotations

from functools import lru_cache

from bot.i18n import DEFAULT_LANG, languages

MAX_HEADER = 200  # characters of Accept-Language read (a longer header is cut, not refused)


@lru_cache(maxsize=1)
def spoken() -> tuple[str, ...]:
    """The bot's languages (read once: the catalogue folders do not change while it runs)."""
    return languages()


def pick_language(asked: str | None, accept: str | None) -> str:
    spoken_ = spoken()
    if asked is not None and asked.strip().lower() in spoken_:
        return asked.strip().lower()
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept or "")[:MAX_HEADER].split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                weight = float(params[2:])
            except ValueError:
                weight = 0.0
        code = tag.strip().lower().split("-")[0]
        if code in spoken_ and weight > 0:
            ranked.append((-weight, index, code))
    return min(ranked)[2] if ranked else DEFAULT_LANG
