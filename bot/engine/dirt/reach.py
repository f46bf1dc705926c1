"""Where a DIRT car can go next, from compiled per-stage tables ("Speed", second pass).

The rules are those of `moves` (B7–B11, B13.5, B13.8.3–B13.8.6); this module answers the same
questions — the target a direction word names, whether it is free, where a jump lands — from
tables worked out once per stage (`DirtStage.tables`, cached on the stage: a stage never
changes) and from the cars' places gathered once per question (`Reach`). A refusal's message is
never built here: the callers fall back on `moves.choose` to say why.
"""

from __future__ import annotations

from bot.engine.dirt.moves import closed
from bot.engine.dirt.state import DirtState


class Reach:
    """What `seat` may reach from where its car is, in `state` as it is now: the stage's tables,
    the spaces of the other racing cars (gathered once) and the "−1" tokens in play. `roll_step`
    moves it along with the car (`here`, `lane`): nothing else it holds changes during a roll, nor
    during the rest of the driver's turn (only that car moves), so the state's probe keeps it for
    the turn's next steps (`probe.Probe`; the "−1" tokens are read as they are at each question)."""

    __slots__ = ("here", "lane", "others", "seat", "state", "tables", "touch")

    def __init__(self, state: DirtState, seat: str) -> None:
        self.tables = tables = state.stage.tables
        self.touch = tables.touch
        self.state, self.seat = state, seat
        car = state.cars[seat]
        self.lane = car.lane
        self.here = tables.grid_front if car.space is None else car.space  # `moves.here`
        self.others = {c.space for s, c in state.cars.items() if c.status == "racing" and s != seat}

    def free(self, target: int) -> bool:
        """`moves.free`: no other racing car on or overlapping `target`, and `target` not closed."""
        if not self.touch[target].isdisjoint(self.others):
            return False
        minus = self.state.minus
        if minus and self.tables.tile[target] in minus:  # "−1" tokens on its tile: the rules' own check
            return not closed(self.state, self.seat, self.state.stage.spaces[target])
        return target not in self.tables.closed

    def target(self, word: str) -> int | None:
        """`moves.find_target`: the free target `word` names from here, or None."""
        if word == "":
            return self._ahead()
        named = self.tables.first[self.here].get(word)
        if named is None or not self.free(named):
            return None
        return named

    def _ahead(self) -> int | None:
        """The free target no word names (`moves._named` with "", then `free`), or None: the car's
        lane when free, else the only free normal target; else the car's lane (taken: None), else
        the one-lane point ahead, or the only space ahead, when free. Each space's freedom is asked
        once."""
        tables, here = self.tables, self.here
        keep = tables.keep[here][self.lane]
        if keep and self.free(keep[0]):
            return keep[0]
        normal = [t for t in tables.normal[here] if self.free(t)]
        if len(normal) == 1:
            return normal[0]
        if keep:
            return None  # the car's lane, found taken above
        named = tables.first[here].get("")
        if named is None:  # one way on (a slide's first half, B9): no word needed (`moves._named`)
            forward = self.state.stage.spaces[here].forward
            named = forward[0] if len(forward) == 1 else None
        return named if named is not None and self.free(named) else None

    def targets(self) -> list[tuple[str, int]]:
        """Each word the car may name now with its free target, in `DIRECTIONS` order (`target`
        for each word, its common case — a named target, no "−1" token — written out)."""
        out = []
        first, touch, others, minus = self.tables.first[self.here], self.touch, self.others, self.state.minus
        for word in self.tables.words[self.here]:
            if word == "" or minus:
                target = self.target(word)
            else:
                target = first[word]
                if not touch[target].isdisjoint(others) or target in self.tables.closed:
                    continue
            if target is not None:
                out.append((word, target))
        return out

    def landing(self, jump: int, lane: int) -> int | None:
        """`moves.landing`: where a car flying off `jump` in `lane` lands, or None."""
        for spot in self.tables.landings[jump][lane]:
            if self.free(spot):
                return spot
        return None
