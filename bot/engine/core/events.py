"""What a game tells spectators happened: `Event(kind, driver, params)`, the same for every game.

`kind` is the message id suffix in the catalogue (`event.<kind>`, the game's text/); `params` fill its placeholders;
`driver` is the seat it is about (None: the rally's own news). A game's narrator (`tell`) turns its events
into message keys.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass, field


@dataclass(slots=True, init=False)
class Event:
    """Something a spectator should be told. `kind` is the message id suffix in the
    catalogue (`event.<kind>`); `params` fill its placeholders.

    Frozen like the actions, but by hand: a dataclass's `frozen=True` makes each instance through
    `object.__setattr__`, which cost 5 % of an AI action (about one event is made per die); the
    slots are set through their descriptors instead, and assigning afterwards still raises."""

    kind: str
    driver: str | None = None
    params: dict = field(default_factory=dict)

    def __init__(self, kind: str, driver: str | None = None, params: dict | None = None) -> None:
        _set_kind(self, kind)
        _set_driver(self, driver)
        _set_params(self, {} if params is None else params)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple:
        return Event, (self.kind, self.driver, self.params)  # pickle and copy make it anew

    def to_dict(self) -> dict:
        return {"kind": self.kind, "driver": self.driver, "params": dict(self.params)}


# the slots' own descriptors (`__slots__` makes one per field), which set a field under `__setattr__`
_set_kind, _set_driver, _set_params = (vars(Event)[name].__set__ for name in ("kind", "driver", "params"))
