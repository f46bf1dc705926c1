"""Times as spectators read them: chrono m:ss, gaps +m:ss."""

from __future__ import annotations


def mmss(seconds: int) -> str:
    """3:40 for 220 s; minutes grow past 59 (a stage never takes hours)."""
    sign = "-" if seconds < 0 else ""
    s = abs(int(seconds))
    return f"{sign}{s // 60}:{s % 60:02d}"


def gap(seconds: int) -> str:
    """+0:20 behind the leader; the leader's own gap is shown as an em dash."""
    return "—" if seconds <= 0 else f"+{mmss(seconds)}"
