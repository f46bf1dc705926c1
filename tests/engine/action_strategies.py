"""Hypothesis strategies for every entry the action log holds: the engine's actions (each field
anywhere in its valid range, a driver or none) and the lifecycle entries `Start` and `Status`."""

from __future__ import annotations

from hypothesis import strategies as st

from bot.engine.rallyman.action_codec import DICE, ORDER_DICE, STATUSES, TIRE_KINDS, Start, Status
from bot.engine.rallyman.actions import (
    LINES,
    Attack,
    ChooseLine,
    Order,
    Place,
    Retire,
    Roll,
    Spare,
    Stop,
    Timeout,
    Tires,
)

drivers = st.none() | st.from_regex(r"[1-9][0-9]{0,18}", fullmatch=True)
lines = st.sampled_from(LINES)
# ids as the log keeps them: Discord ids, but any text that is not blank (no comma: the old
# format joined the seats with commas)
ids = st.from_regex(r"[1-9][0-9]{0,18}", fullmatch=True) | st.text(min_size=1, max_size=12).filter(
    lambda s: s.strip() and "," not in s)


@st.composite
def _with_line(draw, dice: tuple[str, ...]) -> tuple[str | None, int]:
    line = draw(st.none() | lines)
    return line, (draw(st.integers(0, len(dice) - 1)) if line else 0)


@st.composite
def rolls(draw) -> Roll:
    dice = tuple(draw(st.lists(st.sampled_from(DICE), min_size=1, max_size=7)))
    line, at = draw(_with_line(dice))
    return Roll(dice, line, draw(st.booleans()), driver=draw(drivers), line_at=at)


@st.composite
def orders(draw) -> Order:
    if draw(st.booleans()):
        return Order(best=True, driver=draw(drivers))
    dice = tuple(draw(st.lists(st.sampled_from(ORDER_DICE), min_size=1, max_size=7)))
    line, at = draw(_with_line(dice))
    return Order(dice, line, at, driver=draw(drivers))


actions = st.one_of(
    rolls(),
    st.builds(Stop, driver=drivers),
    st.builds(Spare, driver=drivers),
    st.builds(ChooseLine, lines, driver=drivers),
    st.builds(Retire, ids, driver=drivers),
    st.builds(Timeout, driver=drivers),
    st.builds(Tires, st.sampled_from(TIRE_KINDS), driver=drivers),
    st.builds(Attack, st.lists(st.sampled_from(DICE), min_size=1, max_size=7).map(tuple), driver=drivers),
    orders(),
    st.builds(Place, st.sampled_from(DICE), st.none() | lines, driver=drivers),
)
lifecycle = st.one_of(
    st.builds(Start, st.lists(ids, min_size=1, max_size=4, unique=True).map(tuple)),
    st.builds(Status, st.sampled_from(STATUSES)),
)
entries = actions | lifecycle
