"""AI opponents a host seats in a lobby (`/rally add-ai`): who they are and how boldly they drive.

An AI driver is a seat whose id is negative (-1, -2 …, unique in its rally): Discord user ids are
positive, so an AI seat can never be pinged, sent a DM, charged a missed turn or mistaken for a
person, and nothing keyed by a user id (leagues, the world scratch, careers) ever meets one. Its
name carries the 🤖 mark, so every post, board and table shows it as the bot's. Its driving style
is kept with the rally's settings (`modules["ai"]`: seat id → style), written only while the rally
is in the lobby; each style is a risk tolerance for `bot.engine.rallyman.ai.choose_action` (the exact chance
of losing control it accepts on the next die).

The AI drives its turn as soon as the turn's prompt has reached the channel: `delivery.sent`
schedules a `turn.ai` job after `RallyWork.ai_pause` (a few seconds on Discord, so the channel reads
like a person played; none in the console), and the deadline service runs it under the rally's lock.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping

from bot.services.errors import ServiceError

#: Risk tolerance of each style: the largest chance of losing control on the next die it accepts.
AI_STYLES: dict[str, float] = {"careful": 0.05, "balanced": 0.12, "bold": 0.25}
DEFAULT_STYLE = "balanced"
#: The catalogue word of each style (a closed table: no key is built from a value).
STYLE_WORDS: dict[str, str] = {"careful": "ai.style_careful", "balanced": "ai.style_balanced",
                               "bold": "ai.style_bold"}
AI_MARK = "🤖"
#: First names of the AI drivers (proper names: the same in every language).
AI_NAMES = ("Ada", "Björn", "Carla", "Dario", "Elsa", "Fynn", "Greta", "Hugo", "Ines", "Jarno", "Kalle",
            "Lena", "Marek", "Nina", "Olli", "Petra")


def is_ai(driver_id: int | str) -> bool:
    """An AI seat: a negative id (people's ids are positive Discord snowflakes)."""
    try:
        return int(driver_id) < 0
    except (TypeError, ValueError):
        return False


def style_option(value: object) -> str:
    """The `style` option: careful, balanced (the default) or bold, in any case."""
    text = str(value or "").strip().lower() or DEFAULT_STYLE
    if text not in AI_STYLES:
        raise ServiceError("ai.bad_style", styles=", ".join(AI_STYLES))
    return text


def risk_of(modules: object, driver_id: str) -> float:
    """The risk tolerance an AI seat drives with (a seat without a style, or a person whose turn
    the AI drives at a deadline: balanced)."""
    styles = modules.get("ai") if isinstance(modules, Mapping) else None
    style = styles.get(str(driver_id)) if isinstance(styles, Mapping) else None
    return AI_STYLES.get(str(style), AI_STYLES[DEFAULT_STYLE])


def new_seats(taken_ids: Iterable[int], taken_names: Iterable[str], count: int, seed: int) -> list[tuple[int, str]]:
    """`count` new AI seats (id, name): the highest free negative ids, names drawn from the rally's
    seed among those not taken (so a rally's AI names are reproducible)."""
    ids = set(taken_ids)
    names = {name.casefold() for name in taken_names}
    free_names = [f"{AI_MARK} {name}" for name in AI_NAMES if f"{AI_MARK} {name}".casefold() not in names]
    random.Random(seed).shuffle(free_names)
    seats: list[tuple[int, str]] = []
    next_id = -1
    for index in range(count):
        while next_id in ids:
            next_id -= 1
        ids.add(next_id)
        name = free_names[index] if index < len(free_names) else f"{AI_MARK} AI {-next_id}"
        seats.append((next_id, name))
    return seats
