"""DIRT's official stage of each ISO week (a world scratch per game): a generated
stage `gen-SEED-TILES` named from the week alone, so every bot process names the same stage with
no shared state, as classic's (`bot.engine.core.official`) but from its own hash input, so the two
games' weeks never follow each other.

SEED and TILES come from the SHA-256 of `rallybot/dirt/official/{week}`; TILES is one of
`TILES` (a short, a middle and a long stage), all within the generator's lengths.
"""

from __future__ import annotations

import hashlib

from bot.engine.core.official import parse_week

TILES = (10, 14, 18)


def official_stage(week: str) -> str:
    """The name of DIRT's official stage of the week (`2026-W48`); ValueError for a bad week."""
    parse_week(week)
    digest = hashlib.sha256(f"rallybot/dirt/official/{week}".encode()).digest()
    seed = int.from_bytes(digest[:4], "big") % 1_000_000_000
    return f"gen-{seed}-{TILES[digest[4] % len(TILES)]}"
