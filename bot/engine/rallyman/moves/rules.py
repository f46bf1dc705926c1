"""Where one die takes a car, and whether the rules allow it (RULES A7, A8, A10, A13): the rules
as written, worked out step by step.

`rules_move` is pure: it reads the stage, three rule settings (`overspeed_reference`,
`bump_beyond_n2`, `spun_car_blocks_corner`), the car's space, line chosen ahead and the dirt it
found in its corner, the dirt markers, the spun cars (with `spun_car_blocks_corner`) and, through
`room`, whether a space has room; it returns a `Move` or raises `NotAllowed` with the reason in the
user's words. Room is asked through a function so that the compiled tables
(bot/engine/rallyman/moves/table.py) can run these very rules once per situation and remember the answer
for each way the spaces may be full; play looks the answer up (`moves.resolve`).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.core.text import Listed, msg
from bot.engine.rallyman.moves.model import CORNER_KINDS, KO, LINE_NAMES, LOC, OK, Move, effective_note, refuse
from bot.engine.rallyman.stages.model import FINISH, START, Space, SpaceKind
from bot.engine.rallyman.state import GameState

#: Whether a space has room for the moving car (A13); FINISH always has.
Room = Callable[[int], bool]


def _blocked_by_spun_car(state: GameState, space: Space, moving: int) -> bool:
    """Option `spun_car_blocks_corner` (A13.4): a spun car closes the corner's road lines."""
    if not state.rules.spun_car_blocks_corner or space.kind is SpaceKind.SHORTCUT:
        return False
    stage = state.stage
    return any(i != moving and c.pose == "spun" and c.position >= 0
               and stage.spaces[c.position].corner == space.corner for i, c in enumerate(state.cars))


def _fits(space: Space, note: int, g: int) -> bool:
    """Gear `g` is allowed on a corner space with current note `note` (A8.1, A8.2, A8.4)."""
    if note < 1:
        return False
    return g == note if space.kind is SpaceKind.SKID else g <= note


def rules_move(state: GameState, ci: int, g: int, line: str | None, gear_die: bool, room: Room) -> Move:
    """The move of a die of gear `g` for car `ci`; `line` is the trajectory asked for, if any.
    Every rule that depends on where the die goes is checked here (but the snow tires' cap on
    white dice, A20.4: see `moves.resolve`)."""
    stage = state.stage
    car = state.cars[ci]
    pos = car.position
    here = stage.spaces[pos] if pos >= 0 else None
    # Bail-out (A8.3) with the die one below the skid note, unless the driver names the skid: a
    # skid that tightens (4-4-3) goes on into a space whose note is exactly that gear (A8.2).
    if here is not None and here.kind is SpaceKind.SKID and gear_die and here.bailout is not None \
            and g == effective_note(state, here, car) - 1 and line != "skid":
        return _inside(state, ci, stage.spaces[here.bailout], g, "interior", room)
    succ = stage.successors(pos)
    if not succ:
        raise refuse("move.no_road")
    if len(succ) == 1:
        nxt = succ[0]
        if nxt == FINISH:
            return Move(FINISH)
        space = stage.spaces[nxt]
        if line and space.kind in CORNER_KINDS and LINE_NAMES[space.kind] != line and _entering(stage, pos, space):
            raise refuse("corner.no_such_line", line=line, lines=LINE_NAMES[space.kind])
        if space.kind is SpaceKind.BUMP:
            assert space.note is not None, "every bump has a note"
            if g >= space.note:
                return _jump(state, ci, space, g, line, room)
        if space.kind in CORNER_KINDS:
            return _corner(state, ci, pos, succ, space, g, line, room) if _entering(stage, pos, space) \
                else _inside(state, ci, space, g, LINE_NAMES[space.kind], room)
        _need_room(space, room)
        return Move(nxt)
    return _corner(state, ci, pos, succ, None, g, line, room)


def _entering(stage, pos: int, space: Space) -> bool:
    return pos == START or stage.spaces[pos].corner != space.corner


def _need_room(space: Space, room: Room) -> None:
    if not room(space.id):
        raise refuse("move.space_full", space=space.index or space.id, capacity=space.capacity)


def _inside(state: GameState, ci: int, space: Space, g: int, line: str, room: Room) -> Move:
    """A move inside a corner: checked against the destination's note only (A8.6, second case)."""
    note = effective_note(state, space, state.cars[ci])
    if _fits(space, note, g):
        _need_room(space, room)
        return Move(space.id, line=line)
    if space.kind is SpaceKind.SKID and g < note:
        raise refuse("corner.skid_exact", note=note, gear=g, bailout=note - 1)
    _need_room(space, room)
    over = g - max(note, 0)
    return Move(space.id, outcome=LOC if over <= 2 else KO, reason="overspeed", over=over, line=line)


def _corner(state: GameState, ci: int, pos: int, succ: tuple[int, ...], only: Space | None, g: int,
            line: str | None, room: Room) -> Move:
    """Entering a corner (A8.6, first case): against H, the highest open note enterable from here."""
    stage = state.stage
    options = _options(stage, succ)
    notes = {name: (effective_note(state, sp) if not _blocked_by_spun_car(state, sp, ci) else 0)
             for name, sp in options.items()}
    open_notes = [n for n in notes.values() if n >= 1]
    high = max(open_notes) if open_notes else 0
    car = state.cars[ci]
    wanted = line or (car.line if car.line in options else None)
    if wanted is not None and wanted not in options:
        raise refuse("corner.no_such_line", line=wanted, lines=", ".join(options))
    if wanted is None:
        for name in ("interior", "skid"):
            if name in options and _fits(options[name], notes[name], g) and room(options[name].id):
                wanted = name
                break
    if wanted is None:
        if "shortcut" in options and _fits(options["shortcut"], notes["shortcut"], g) and g <= high:
            raise refuse("corner.name_shortcut", gear=g, note=notes["shortcut"])
        if g <= high:
            raise refuse("corner.no_line_for_gear", gear=g, lines=_describe(options, notes))
        wanted = next((n for n in ("interior", "skid", "shortcut") if n in options and notes[n] >= 1),
                      next(iter(options)))
    space = options[wanted]
    note = notes[wanted]
    if note < 1 and g <= high:
        raise refuse("corner.closed", line=wanted)
    if _fits(space, note, g):
        _need_room(space, room)
        return Move(space.id, line=wanted)
    reference = high if state.rules.overspeed_reference == "highest" else note
    if g <= reference:
        raise refuse("corner.not_allowed_here", gear=g, line=wanted, note=note, lines=_describe(options, notes))
    _need_room(space, room)
    over = g - reference
    return Move(space.id, outcome=LOC if over <= 2 else KO, reason="overspeed", over=over, line=wanted)


_OPTIONS: dict[tuple[int, tuple[int, ...]], tuple[object, dict[str, Space]]] = {}


def _options(stage, succ: tuple[int, ...]) -> dict[str, Space]:
    """The trajectories a fork leads into, by name; memoised per stage object (stages never
    change; the entry keeps its stage alive so an id is never reused under it)."""
    key = (id(stage), succ)
    entry = _OPTIONS.get(key)
    if entry is None or entry[0] is not stage:
        options = {}
        for s in succ:
            if s >= 0:
                sp = stage.spaces[s]
                options[LINE_NAMES.get(sp.kind, "road")] = sp
        if len(_OPTIONS) > 20_000:
            _OPTIONS.clear()
        entry = _OPTIONS[key] = (stage, options)
    return entry[1]


def _describe(options: dict[str, Space], notes: dict[str, int]) -> str:
    parts = []
    for name, sp in options.items():
        note = notes[name]
        word = msg(f"word.{name}") if name in ("interior", "skid", "shortcut") else name
        if note < 1:
            parts.append(msg("note.closed", name=word))
        elif sp.kind is SpaceKind.SKID:
            parts.append(msg("note.exactly", name=word, note=note))
        elif sp.kind is SpaceKind.SHORTCUT:
            parts.append(msg("note.shortcut", note=note))
        else:
            parts.append(msg("note.up_to", name=word, note=note))
    return Listed(parts, "comma")


def _jump(state: GameState, ci: int, bump: Space, g: int, line: str | None, room: Room) -> Move:
    """A bump taken at its note or faster (A10): fly 1–3 spaces, land, maybe lose control."""
    stage = state.stage
    line = line or state.cars[ci].line  # a trajectory chosen ahead also steers the flight
    assert bump.note is not None, "every bump has a note"
    steps = g - bump.note
    if steps >= 3 and state.rules.bump_beyond_n2 == "knocked_out":
        return Move(bump.id, outcome=KO, reason="bump", over=steps)
    land_after = min(steps, 2) + 1
    prev, cur = bump.id, bump.id
    flew = None  # trajectory flown over where the road forks: the line asked for was used
    for _ in range(land_after):
        succ = stage.successors(cur)
        if FINISH in succ:
            return Move(FINISH, bump_risk=steps == 1, outcome=LOC if steps >= 2 else OK, reason="bump",
                        flown=land_after, line=flew)
        prev, cur = cur, _flight_choice(stage, succ, line)
        if len(succ) > 1:
            flew = LINE_NAMES.get(stage.spaces[cur].kind)
    landing = stage.spaces[cur]
    if not room(cur):
        raise refuse("bump.landing_full", space=landing.index or landing.id)
    move = Move(cur, flown=land_after - 1, line=flew)
    if landing.kind in CORNER_KINDS:
        move.line = LINE_NAMES[landing.kind]
        if _entering(stage, prev, landing):
            checked = _corner(state, ci, prev, stage.successors(prev), None, g, move.line, room)
        else:
            checked = _inside(state, ci, landing, g, move.line, room)
        move.outcome, move.reason, move.over = checked.outcome, checked.reason, checked.over
    if move.outcome == OK:
        if steps >= 2:
            move.outcome, move.reason = LOC, "bump"
        elif steps == 1:
            move.bump_risk = True
    return move


def _flight_choice(stage, succ: tuple[int, ...], line: str | None) -> int:
    if len(succ) == 1:
        return succ[0]
    by_line = {LINE_NAMES.get(stage.spaces[s].kind): s for s in succ}
    return by_line.get(line) or by_line.get("interior") or succ[0]
