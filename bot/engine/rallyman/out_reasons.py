"""Why a car is out of a special (`Car.out_reason`, a special's and a run's results), and its words.

A car leaves a special retired (by its driver or the host, or left behind when it could not start,
RULES A3) or knocked out (A12.5): 3+ gears too fast into a corner (A8.6), a third flat (A9.4), its
last black die lost (A12.5, also after a finish crash with no assistance to come, A15.3/AMB-22).
`OutReason` is the closed set the engine may set (mypy checks every assignment), and each reason
has its own word (a reason without one froze rallies of several specials).
"""

from __future__ import annotations

from typing import Literal, get_args

from bot.engine.core.text import msg

OutReason = Literal["retired", "overspeed_ko", "flats_ko", "damage_ko"]
OUT_REASONS: tuple[OutReason, ...] = get_args(OutReason)

#: Each reason's word in the catalogue ("— Ada (knocked out: a third flat tire)").
OUT_REASON_WORDS: dict[str, str] = {
    "retired": "word.retired",
    "overspeed_ko": "word.overspeed_ko",
    "flats_ko": "word.flats_ko",
    "damage_ko": "word.damage_ko",
}


def out_reason_word(reason: str | None) -> str:
    """Why a car is out, in words: a reason the engine set; none is a retirement (a row stored
    before reasons were kept), and a code of no known reason reads as a knock-out (stored results
    outlive the code that wrote them: never a missing key in front of a user)."""
    return msg(OUT_REASON_WORDS.get(reason or "retired", "word.knocked_out"))
