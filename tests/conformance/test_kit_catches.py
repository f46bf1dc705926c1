"""The kit's checks can fail: toy games each broken in one way the kit looks for are refused,
naming the property (a kit that passes everything would prove nothing)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bot import games
from bot.engine.core.game import Outcome
from tests.conformance.configs import CONFIGS
from tests.conformance.kit import Config, play
from tests.toy_game.game import Act, Dash, DashRules, dice_dash

TWO = CONFIGS["dicedash"][:1]


class ForgetsThePot(DashRules):
    """A snapshot that leaves out the pot: a reloaded state plays on with another one."""

    def to_json(self, s: Dash) -> str:
        data = json.loads(super().to_json(s))
        data["pot"] = 0
        return json.dumps(data, sort_keys=True, separators=(",", ":"))


class AnyoneMayBank(DashRules):
    """Takes a bank from a seat that is not to act (for the seat that is)."""

    def apply(self, state: Dash, seat: str | None, action: Act):
        return super().apply(state, None if action.kind == "bank" else seat, action)


class TiesRankedApart(DashRules):
    """Ranks the finished seats the wrong way round (the first listed last): neither as tied scores
    share a rank nor as a tie-break parts them."""

    def outcome(self, state: Dash) -> Outcome | None:
        found = super().outcome(state)
        if found is None:
            return None
        finished = sum(1 for r in found.seats if r.rank is not None)
        return replace(found, seats=tuple(replace(r, rank=finished - i if r.rank is not None else None)
                                          for i, r in enumerate(found.seats)))


class SetUpAnotherWayEachTime(DashRules):
    """A start that deals another pot than the one its log replays (the setup is not a function
    of the seed)."""

    calls = 0

    def setup(self, seed, seats, options):
        state, events = super().setup(seed, seats, options)
        SetUpAnotherWayEachTime.calls += 1
        if SetUpAnotherWayEachTime.calls % 2:
            state.points = {s: 1 for s in state.points}
        return state, events


@pytest.mark.parametrize(("broken", "configs", "failure"), [
    (dice_dash(rules=ForgetsThePot()), TWO, "the state read back"),
    (dice_dash(rules=AnyoneMayBank()), TWO, "was accepted"),
    (dice_dash(rules=TiesRankedApart()), TWO, "ranks follow neither"),
    (dice_dash(rules=SetUpAnotherWayEachTime()), [Config(TWO[0].seats, {"stage": "dash-1"})], "log replayed differs"),
])
def test_the_kit_refuses_a_game_broken_in_one_way(broken, configs, failure):
    games.register(broken)
    try:
        with pytest.raises(AssertionError, match=failure):
            play(broken, configs, 40)
    finally:
        games.unregister(broken.id)
