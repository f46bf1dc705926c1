""""provisional rules" beside every result of a provisional ruleset (issue 24 item 6, RULES B13).

A game says which of its rulesets are provisional (`Game.provisional`: DIRT's house defaults until
its missing pages are known); every place the services show a result or a card (a rally's end
post and `/rally results`, a league round's results and standings, a world ranking, a result
card) adds the catalogue's words for it, in the reader's language, through these helpers.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot import games
from bot.engine.core.text import msg


def is_provisional(game: str | None, ruleset: str | None) -> bool:
    """Whether `game` (None: the default) calls `ruleset` provisional (None: its default ruleset)."""
    played = games.get(game)
    return played.provisional(ruleset if ruleset is not None else played.rulesets()[0])


def provisional_lines(game: str | None, ruleset: str | None) -> list[str]:
    """["provisional rules"] for a provisional ruleset, [] otherwise: a line to add to a result."""
    return [msg("game.provisional_rules")] if is_provisional(game, ruleset) else []


def any_provisional(played: Iterable[tuple[str, str]]) -> list[str]:
    """["provisional rules"] when any of the (game, ruleset) pairs is provisional (standings over
    several rounds), [] otherwise."""
    return [msg("game.provisional_rules")] if any(is_provisional(g, r) for g, r in played) else []
