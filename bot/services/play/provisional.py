""""provisional rules" beside every result of a provisional ruleset (RULES B13).

A game says which of its rulesets are provisional (`Game.library.provisional`: DIRT's house defaults until
its missing pages are known); every place the services show a result or a card (a rally's end
post and `/rally results`, a league round's results and standings, a world ranking, a result
card) adds the catalogue's words for it, in the reader's language, through these helpers.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot import games
from bot.engine.core.text import Listed, Msg, msg


def is_provisional(game: str | None, ruleset: str | None) -> bool:
    """Whether `game` (None: the default) calls `ruleset` provisional (None: its default ruleset)."""
    played = games.get(game)
    return played.library.provisional(ruleset if ruleset is not None else played.library.rulesets()[0])


def provisional_lines(game: str | None, ruleset: str | None) -> list[str]:
    """["provisional rules"] for a provisional ruleset, [] otherwise: a line to add to a result."""
    return [msg("game.provisional_rules")] if is_provisional(game, ruleset) else []


def any_provisional(played: Iterable[tuple[str, str]]) -> list[str]:
    """["provisional rules"] when any of the (game, ruleset) pairs is provisional (standings over
    several rounds), [] otherwise."""
    return [msg("game.provisional_rules")] if any(is_provisional(g, r) for g, r in played) else []


#: The catalogue's ways of saying "provisional rules" in a post: the result line, a DIRT turn
#: prompt's and `/rally status`'s. A post carrying any of them says it already.
PROVISIONAL_MARKS = frozenset({"game.provisional_rules", "dirt.turn_provisional", "dirt.provisional_note"})


def marks_in(value: object) -> int:
    """How many times `value` (a line, or a list of lines, with the messages inside them) says
    "provisional rules"."""
    if isinstance(value, Msg):
        return int(value.key in PROVISIONAL_MARKS) + sum(marks_in(p) for p in value.params.values())
    if isinstance(value, Listed):
        return sum(marks_in(item) for item in value.items)
    if isinstance(value, (list, tuple)):
        return sum(marks_in(item) for item in value)
    return 0


def with_provisional_mark(lines: list[str], game: str | None, ruleset: str | None) -> list[str]:
    """A post's `lines` for a rally of `game` under `ruleset`: under a provisional ruleset every
    message of the rally says so (RULES B13), once: the result line is added to a post that does
    not say it yet; other posts, and posts that say it, are left as they are."""
    if marks_in(lines) or not is_provisional(game, ruleset):
        return lines
    return [*lines, msg("game.provisional_rules")]
