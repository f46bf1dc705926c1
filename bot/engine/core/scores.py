"""Scores shown as people read them: seconds as `m:ss` (a stage or rally time), victory points as
a number. Shared by every game and every table (leagues, world scratch, result cards)."""

from __future__ import annotations

from bot.engine.core.game import ResultKind


def format_time(seconds: int) -> str:
    """`83` → `1:23`."""
    return f"{seconds // 60}:{seconds % 60:02d}"


def format_score(kind: ResultKind, score: int) -> str:
    """A score in its unit: a time for seconds, the number for victory points."""
    return format_time(score) if kind.unit == "s" else str(score)
