"""Road Rally USA's actions (RULES C4-C6, C10). Cards are named by their id in the seat's own deck
(`Preset.deck()`), so two green 1s are distinct."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class Play:
    """C4: play these cards. `store`: a General Store turn (C5, C10.5); `shortcut`: take the
    shortcut starting where the move ends (C5); `draw_first`: on a Gas space, draw before the
    shuffle (standard, RR-FR: AMB-R1); `normal`: on a General Store, a normal turn said so
    (C10.5: a play typed without `store` or `normal` there is the turn that draws more, so the
    normal turn that draws less is named). The move is known when the cards are chosen, so these
    choices are made with it and nothing is learnt in between."""

    cards: tuple[int, ...]
    store: bool = False
    shortcut: bool = False
    draw_first: bool = False
    normal: bool = False


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """C4 (standard): reshuffle the draw deck and discards before drawing 2 on an empty hand, or not."""

    yes: bool


@dataclass(frozen=True, slots=True)
class Order:
    """C5 Mechanic: the looked-at top cards in their new order, top first."""

    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class StageAnswer:
    """C6.2, C10.8: every seat answers for the stage being resolved: play its card, or not."""

    stage: int
    play: bool


@dataclass(frozen=True, slots=True)
class Choose:
    """C6.3: a place worth "points or 2 cards": which one."""

    take: Literal["vp", "cards"]


@dataclass(frozen=True, slots=True)
class Retire:
    """The rally (a host) retires a seat: its car leaves the road."""

    seat: str


@dataclass(frozen=True, slots=True)
class Timeout:
    """The deadline passed: every seat to act gets its default (C10.2)."""


Action = Play | Reshuffle | Order | StageAnswer | Choose | Retire | Timeout
