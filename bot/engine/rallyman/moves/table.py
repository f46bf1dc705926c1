"""Compiled transition tables: where one die takes a car, looked up instead of worked out.

What a die does (bot/engine/rallyman/moves/rules.py) depends on few things: the stage, two rule settings
(`overspeed_reference`, `bump_beyond_n2`), the dirt markers (and the count the car found in its
corner, A8.5), the car's space and line chosen ahead, the gear and kind of the die and the line
asked for; and, from one turn to the next, on which spaces have room (A13). So each stage is
compiled, once per rule settings and dirt, into a flat table: for each (space, gear, gear die or
white, line asked, line chosen ahead), the answer of the rules as a small decision tree on room,
`(space, capacity, if room, if full)`, whose leaves are the `Move` (where the die lands, the note
or bump met, the outcome) or the `Refusal` with its message. An entry is filled the first time it
is needed, by running the rules themselves with a room oracle that stops at each space not yet
decided and tries both answers: the table gives exactly what the rules give, messages included,
and a refusal's message is made once per entry, not once per refused die.

Dirt only matters near the car: a table is chosen by the markers on the corners a die from its
space may reach (`reach`), so markers far away share the clean table. One rule is not in the
table: with `spun_car_blocks_corner` (A13.4) and a spun car on the road, the rules are worked out
as written (`table_move`). Tables live as long as their stage object (each entry keeps its stage
alive, so a stage's id is never reused under it).
"""

from __future__ import annotations

from bot.engine.core.dice import CleanDice
from bot.engine.core.errors import NotAllowed
from bot.engine.rallyman.moves.model import Move, has_room, occupancy
from bot.engine.rallyman.moves.rules import rules_move
from bot.engine.rallyman.ruleset import Ruleset
from bot.engine.rallyman.stages.model import FINISH, Stage
from bot.engine.rallyman.state import Car, GameConfig, GameState


class Refusal:
    """A die the rules refuse, with the message they give (`NotAllowed`'s)."""

    __slots__ = ("allowed", "message")

    def __init__(self, message: str, allowed: tuple[str, ...]) -> None:
        self.message = message
        self.allowed = allowed

    def error(self) -> NotAllowed:
        return NotAllowed(self.message, self.allowed)


#: A table entry: a leaf, or (space, capacity, entry if the space has room, entry if it is full).
Entry = Move | Refusal | tuple
#: The key of an entry: (space, gear, gear die, line asked, line chosen ahead).
Key = tuple[int, int, bool, str | None, str | None]


class _Undecided(Exception):
    """The rules asked about room on a space the exploration has not decided yet."""

    def __init__(self, space: int) -> None:
        super().__init__(space)
        self.space = space


class Context:
    """The table of one stage under given rule settings and dirt: entries filled on demand."""

    __slots__ = ("corner_dirt", "dirt", "entries", "reaches", "rules", "stage")

    def __init__(self, stage: Stage, rules: Ruleset, dirt: dict[int, int], corner_dirt: list[int] | None) -> None:
        self.stage = stage
        self.rules = rules
        self.dirt = dirt
        self.corner_dirt = corner_dirt
        self.entries: dict[Key, Entry] = {}
        self.reaches: dict[tuple[int, str | None, tuple[str | None, ...]], frozenset[int]] = {}

    def reach(self, position: int, car_line: str | None, lines: tuple[str | None, ...]) -> frozenset[int]:
        """The spaces whose room decides where any die (gear 1 to 5, gear or white) goes from
        `position`, a line among `lines` asked for: the spaces in those entries' trees."""
        key = (position, car_line, lines)
        found = self.reaches.get(key)
        if found is None:
            spaces: set[int] = set()
            for g in range(1, 6):
                for gear_die in (True, False):
                    for line in lines:
                        _spaces_of(self.entry((position, g, gear_die, line, car_line)), spaces)
            found = self.reaches[key] = frozenset(spaces)
        return found

    def entry(self, key: Key) -> Entry:
        found = self.entries.get(key)
        if found is None:
            found = self.entries[key] = self._compile(key)
        return found

    def _compile(self, key: Key) -> Entry:
        position, g, gear_die, line, car_line = key
        # a state of its own per compilation (tables are shared by threads replaying results)
        car = Car("", "", 0, position=position, line=car_line,
                  corner_dirt=list(self.corner_dirt) if self.corner_dirt is not None else None)
        probe = GameState(self.stage, self.rules, GameConfig(self.stage.name), [car], CleanDice(), [],
                          dirt=dict(self.dirt))
        return self._explore(probe, g, line, gear_die, {})

    def _explore(self, probe: GameState, g: int, line: str | None, gear_die: bool, known: dict[int, bool]) -> Entry:
        def room(space_id: int) -> bool:
            if space_id == FINISH:
                return True
            if space_id not in known:
                raise _Undecided(space_id)
            return known[space_id]

        try:
            return rules_move(probe, 0, g, line, gear_die, room)
        except NotAllowed as exc:
            return Refusal(exc.message, exc.allowed)
        except _Undecided as undecided:
            space = undecided.space
            return (space, self.stage.spaces[space].capacity,
                    self._explore(probe, g, line, gear_die, {**known, space: True}),
                    self._explore(probe, g, line, gear_die, {**known, space: False}))


def _spaces_of(entry: Entry, into: set[int]) -> None:
    while isinstance(entry, tuple):
        into.add(entry[0])
        _spaces_of(entry[3], into)
        entry = entry[2]


class _StageTables:
    __slots__ = ("clean", "corners", "dirty", "rules", "stage")

    def __init__(self, stage: Stage, rules: Ruleset) -> None:
        self.stage = stage
        self.rules = rules
        self.clean = Context(stage, rules, {}, None)
        self.dirty: dict[tuple, Context] = {}
        self.corners: dict[int, frozenset[int]] = {}

    def corners_near(self, position: int) -> frozenset[int]:
        """The corners whose notes a die from `position` may read: those of the space and of its
        `reach` (dirt elsewhere changes nothing for it, A8.5)."""
        found = self.corners.get(position)
        if found is None:
            spaces = [self.stage.spaces[s] for s in (*reach(self.stage, position), position) if s >= 0]
            found = self.corners[position] = frozenset(s.corner for s in spaces if s.corner is not None)
        return found


#: How far (in spaces along the road) a die may look: a bump one space ahead taken at N+2 flies 3
#: spaces, and landing in a corner looks at the lines of that corner (move_rules).
REACH_DEPTH = 4
_REACH: dict[int, tuple[Stage, dict[int, frozenset[int]]]] = {}


def reach(stage: Stage, position: int) -> frozenset[int]:
    """Every space whose room or note a die from `position` may look at, whatever the cars, dirt
    and lines: REACH_DEPTH spaces along every road ahead, and the interior space a skid bails out
    to (A8.3). Memoised per stage object (the entry keeps its stage alive)."""
    entry = _REACH.get(id(stage))
    if entry is None or entry[0] is not stage:
        if len(_REACH) > 500:
            _REACH.clear()
        entry = _REACH[id(stage)] = (stage, {})
    found = entry[1].get(position)
    if found is None:
        seen: set[int] = set()
        layer = [position]
        for _ in range(REACH_DEPTH):
            layer = [s for p in layer for s in stage.successors(p) if s >= 0 and s not in seen]
            seen.update(layer)
        bailout = stage.spaces[position].bailout if position >= 0 else None
        if bailout is not None:
            seen.add(bailout)
        found = entry[1][position] = frozenset(seen)
    return found


_TABLES: dict[tuple[int, str, str], _StageTables] = {}
#: (stage, rules, clean table) of the last clean lookup, for rules without `spun_car_blocks_corner`:
#: a game asks about the same stage and rules again and again (one tuple, read and replaced whole).
_LAST: tuple[object, object, Context | None] = (None, None, None)


def context(state: GameState, car: Car) -> Context:
    """The table for `car` moving in `state` (its stage, rule settings and dirt)."""
    global _LAST
    stage, rules = state.stage, state.rules
    last_stage, last_rules, ctx = _LAST
    found = car.corner_dirt
    if ctx is not None and last_stage is stage and last_rules is rules and not state.dirt and \
            (found is None or not found[1]):
        return ctx
    key = (id(stage), rules.overspeed_reference, rules.bump_beyond_n2)
    tables = _TABLES.get(key)
    if tables is None or tables.stage is not stage:
        if len(_TABLES) > 500:
            _TABLES.clear()
        tables = _TABLES[key] = _StageTables(stage, rules)
    if not state.dirt and (found is None or not found[1]):
        if not rules.spun_car_blocks_corner:
            _LAST = (stage, rules, tables.clean)
        return tables.clean  # no dirt anywhere: every note is the printed one (A8.5)
    # only the dirt this car's die may meet: far away markers leave the table of clean notes
    near = tables.corners_near(car.position)
    dirt = tuple(sorted((corner, n) for corner, n in state.dirt.items() if corner in near))
    kept = (found[0], found[1]) if found is not None and found[0] in near else None
    if not dirt and (kept is None or not kept[1]):
        return tables.clean
    dirty = tables.dirty.get((dirt, kept))
    if dirty is None:
        if len(tables.dirty) > 200:
            tables.dirty.clear()
        dirty = tables.dirty[(dirt, kept)] = Context(stage, rules, dict(dirt), list(kept) if kept is not None else None)
    return dirty


def table_move(state: GameState, ci: int, g: int, line: str | None, gear_die: bool,
               occupied: list[int] | None = None) -> Move | Refusal:
    """What the rules (`move_rules.rules_move`) answer for this die, from the table; `occupied`,
    if given, is `occupants(state, ci)`."""
    car = state.cars[ci]
    last_stage, last_rules, ctx = _LAST
    found = car.corner_dirt
    # the commonest case, most quickly: the clean table of the stage and rules met last
    if ctx is None or last_stage is not state.stage or last_rules is not state.rules or state.dirt or \
            (found is not None and found[1]):
        if state.rules.spun_car_blocks_corner and _spun_car_elsewhere(state, ci):
            try:
                return rules_move(state, ci, g, line, gear_die, lambda space_id: has_room(state, space_id, ci))
            except NotAllowed as exc:
                return Refusal(exc.message, exc.allowed)
        ctx = context(state, car)
    key = (car.position, g, gear_die, line, car.line)
    entry = ctx.entries.get(key)
    if entry is None:
        entry = ctx.entry(key)
    while isinstance(entry, tuple):  # (space, capacity, if room, if full)
        space, capacity, if_room, if_full = entry
        taken = occupied.count(space) if occupied is not None else occupancy(state, space, ci)
        entry = if_room if taken < capacity else if_full
    return entry


def _spun_car_elsewhere(state: GameState, ci: int) -> bool:
    """A spun car on a space, other than the mover: it may close a corner (A13.4)."""
    return any(i != ci and c.pose == "spun" and c.position >= 0 for i, c in enumerate(state.cars))
