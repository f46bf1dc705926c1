"""Per-stage lookup tables for DIRT's hot paths (issue 24, speed): what a step needs to know about
the track, worked out once per stage name from the stage's data alone (never from a game state),
so caching them can change no outcome.

For each space: the direction word that names it as a target (`moves.word_of`), the distinct
words of its forward neighbours in `DIRECTIONS` order (what `legal_rolls` tries), and the spaces
it overlaps as a frozenset (B7, B13.8.3).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from bot.engine.dirt.actions import DIRECTIONS
from bot.engine.dirt.stages.catalogue import load_stage
from bot.engine.dirt.stages.model import DirtSpace, SpaceKind


@dataclass(frozen=True)
class StageTables:
    """Read-only facts of one stage's spaces, indexed by space id."""

    words: tuple[str, ...]
    forward_words: tuple[tuple[str, ...], ...]
    overlaps: tuple[frozenset[int], ...]


def word_of(space: DirtSpace) -> str:
    """The direction word that names `space` as a target."""
    if space.kind is SpaceKind.SLIDE:
        return "slide"
    if space.kind is SpaceKind.SHORTCUT:
        return "cut"
    if len(space.lanes) == 1:
        return "left" if space.lanes[0] == 0 else "right"
    return ""


@lru_cache(maxsize=64)
def stage_tables(name: str) -> StageTables:
    """The tables of the stage `name` (cached: stages never change)."""
    spaces = load_stage(name).spaces
    words = tuple(word_of(space) for space in spaces)
    forward_words = tuple(tuple(sorted({words[t] for t in space.forward}, key=DIRECTIONS.index)) for space in spaces)
    return StageTables(words, forward_words, tuple(frozenset(space.overlaps) for space in spaces))
