"""How hard a stage is, 1 to 5 stars, and how long: one formula for every game.

The inputs are counts every game's stage library can give (`StageFacts`): its corners, how many
of them are *tight* (the slowest line of the corner allows gear 2 or less: classic's interior
note 1–2, DIRT's inside limit 1–2), its *hazards* (jumps and shortcuts: a bump or jump symbol,
and a shortcut, each a place where a driver must choose a risk), and its length class. The
formula uses shares, not per-space rates, so that a stage measured in spaces (classic) and one
measured in hex tiles (DIRT) are rated on the same scale:

    points = 4 × tight / corners + min(1, hazards / corners) + {short: 0, medium: 0.5, long: 1}
    stars  = points rounded half up, kept within 1–5 (a stage with no corner scores only its length)

The share of tight corners weighs most (it is what makes a stage slow and crash-prone); hazards
and length add up to one star each. A short stage of fast corners and no hazard is 1 star; one
whose corners are all tight is 4 at least, 5 with hazards or length.
"""

from __future__ import annotations

from typing import Literal

LengthClass = Literal["short", "medium", "long"]
LENGTH_CLASSES: tuple[LengthClass, ...] = ("short", "medium", "long")
LENGTH_POINTS = {"short": 0.0, "medium": 0.5, "long": 1.0}
TIGHT_GEAR = 2  # a corner whose slowest line allows this gear or less is tight
MIN_STARS, MAX_STARS = 1, 5


def length_class(length: int, medium_from: int, long_from: int) -> LengthClass:
    """short, medium or long, by the game's own bounds (classic: spaces; DIRT: tiles, B2)."""
    return "short" if length < medium_from else "medium" if length < long_from else "long"


def stars(corners: int, tight: int, hazards: int, length: LengthClass) -> int:
    """The difficulty of the module docstring, 1 to 5."""
    points = LENGTH_POINTS[length]
    if corners > 0:
        points += 4.0 * min(tight, corners) / corners + min(1.0, hazards / corners)
    return max(MIN_STARS, min(MAX_STARS, int(points + 0.5)))
