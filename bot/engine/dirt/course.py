"""The course of a DIRT rally: rounds and their order of play, the end of a turn, stages one after
another, and the results (RULES B2–B5, B13.2, B13.6, B13.8.1, B13.8.7–B13.8.10).

Order of play (B4, B13.8.1): fixed at the start of each round; the cars on the track by distance
(the front edge of their space), then gear, then the car on the inside lane of the current or next
corner, then the previous round's relative order (B13.6); then the drivers entering the stage, in
start order, round k admitting drivers 1…k (B5, staggered like classic A4).
"""

from __future__ import annotations

from bot.engine.core.events import Event
from bot.engine.dirt.events import ev
from bot.engine.dirt.public import Shown
from bot.engine.dirt.stages.model import DirtStage, SpaceKind
from bot.engine.dirt.state import Car, DirtState, no_tokens

ACTIVE = ("waiting", "racing")


def _position(stage: DirtStage, car: Car) -> int:
    """0 for the inside lane of the current or next corner (or a shortcut), 1 otherwise (B4.3)."""
    assert car.space is not None
    space = stage.spaces[car.space]
    if space.kind is SpaceKind.SHORTCUT:
        return 0
    if space.corner is not None:
        return 0 if space.inside else 1
    inner = stage.tables.next_inner[space.tile]
    if inner is None or len(space.lanes) != 1:
        return 0
    return 0 if space.lanes[0] == inner else 1


def round_order(state: DirtState) -> list[str]:
    """This round's order of play (B4, B5, B13.8.1). The cars on the track are sorted on a key
    that tells every two apart (the last part is the previous round's place, else after them the
    start order), so sorting (key, seat) pairs gives the order of the key alone."""
    before = {s: i for i, s in enumerate(state.previous_order)}
    stage = state.stage
    spaces = stage.spaces
    racing = []
    for i, seat in enumerate(state.start_order):
        car = state.cars[seat]
        if car.status == "racing" and car.space is not None:
            racing.append(((-spaces[car.space].front, -car.gear, _position(stage, car),
                            before.get(seat, len(before) + i)), seat))
    racing.sort()
    entering = [s for s in state.start_order[:state.round] if state.cars[s].status == "waiting"]
    return [seat for _, seat in racing] + entering


def stage_over(state: DirtState) -> bool:
    return not any(state.cars[s].status in ACTIVE for s in state.start_order)


def start_round(state: DirtState, events: list[Event]) -> None:
    """Fix the round's order; a round nobody may play (all entered drivers done) is skipped."""
    for _ in range(len(state.seats) + 1):
        state.order = round_order(state)
        state.turn = 0
        if state.order:
            events.append(ev("dirt_round", None, round=state.round, order=list(state.order)))
            events.append(ev("dirt_turn", state.order[0]))
            return
        state.round += 1
    raise AssertionError("unreachable: a stage with active drivers has a round to play")


def clear_turn(state: DirtState) -> None:
    """A new turn: no dice, no path, no ⚠, no token drawn, no SISU; nothing worked out for it."""
    state.probe = None
    state.turn_dice = []
    state.turn_path = []
    state.hazards = 0
    state.fresh = no_tokens()
    state.sisu_active = False


def end_turn(state: DirtState, seat: str, events: list[Event], *, card: bool = True) -> None:
    """The turn is over: the card of the gear it ends in (B3, B13.2), then the next driver."""
    car = state.cars[seat]
    if card:
        seconds = state.rules.card_seconds(car.gear)
        car.cards.append(seconds)
        if not state.turn_dice:
            events.append(ev("dirt_stuck", seat, seconds=seconds, gear=car.gear))  # B13.8.2
        events.append(ev("dirt_turn_end", seat, seconds=seconds, gear=car.gear, total=stage_time(car)))
    advance(state, events)


def advance(state: DirtState, events: list[Event]) -> None:
    """The next driver of the round, the next round, or the end of the stage."""
    state.last_dice, state.last_path = state.turn_dice, state.turn_path  # kept whole: `clear_turn` starts new lists
    clear_turn(state)
    state.turn += 1
    while state.turn < len(state.order) and state.cars[state.order[state.turn]].status not in ACTIVE:
        state.turn += 1
    if state.turn < len(state.order):
        events.append(ev("dirt_turn", state.order[state.turn]))
        return
    if stage_over(state):
        end_stage(state, events)
        return
    state.previous_order = list(state.order)
    state.round += 1
    start_round(state, events)


def stage_time(car: Car) -> int:
    """Sum of the cards − second tokens still held (B13.2)."""
    return sum(car.cards) - car.seconds_tokens


def end_stage(state: DirtState, events: list[Event]) -> None:
    """Record the stage times, then assistance or not (B13.6, B13.8.9), and the next stage or the
    end of the rally."""
    rules = state.rules
    for seat, _ in state.seats:
        car = state.cars[seat]
        car.stage_times.append(stage_time(car) if car.status == "finished" else None)
    events.append(ev("dirt_stage_end", None, stage=state.stage_index + 1,
                     times=[[s, state.cars[s].stage_times[-1]] for s, _ in state.seats]))
    state.minus = {}  # "−1" tokens last until the end of the stage (B13.6)
    for car in state.cars.values():
        car.seconds_tokens = 0  # B13.8.7
        car.cards = []
    going = [s for s in state.start_order if state.cars[s].status == "finished"]
    last = state.stage_index + 1 >= len(state.stages)
    if not last:
        assisted = state.stage_index < len(state.assistance) and state.assistance[state.stage_index]
        for seat in going:
            car = state.cars[seat]
            if assisted:
                car.tokens = no_tokens()
                car.spare = True
            elif car.damage() >= rules.knockout_damage_tokens:  # B13.8.9
                car.status, car.reason, car.space = "out", "damage", None
                events.append(ev("dirt_knocked_out", seat, reason="damage"))
            elif car.spare and car.tokens["coast"] > 0:  # A14.2 transposed: between stages, no minute
                car.spare = False
                car.tokens["coast"] -= 1
                events.append(ev("dirt_spare", seat, seconds=0))
        if assisted:
            events.append(ev("dirt_assistance", None, stage=state.stage_index + 1))
        going = [s for s in going if state.cars[s].status == "finished"]
    if last or not going:
        state.over = True
        clear_turn(state)
        state.order, state.turn = [], 0
        events.append(ev("dirt_rally_end", None, results=[[s, st, t, r] for s, st, t, r in results(state)]))
        return
    previous = {s: i for i, s in enumerate(state.start_order)}
    totals = {s: sum(t or 0 for t in state.cars[s].stage_times) for s in going}
    state.start_order = sorted(going, key=lambda s: (totals[s], previous[s]))  # B13.8.10
    state.stage_index += 1
    for seat in going:
        car = state.cars[seat]
        car.status, car.space, car.gear, car.pose, car.lane = "waiting", None, 0, "normal", 0
    start_stage(state, events)


def start_stage(state: DirtState, events: list[Event]) -> None:
    """A stage starts: the bag holds every token not on a racing car's dashboard (B13.8.8)."""
    rules = state.rules
    held = {kind: sum(state.cars[s].tokens[kind] for s in state.start_order) for kind in rules.damage_bag}
    state.bag = {kind: max(0, n - held[kind]) for kind, n in rules.damage_bag.items()}
    state.minus = {}
    state.someone_finished = False
    state.round = 1
    state.previous_order = []
    clear_turn(state)
    state.last_dice, state.last_path = [], []  # the board of a new stage shows no dice of the last one
    events.append(ev("dirt_stage_start", None, stage=state.stage_index + 1, stage_name=state.stages[state.stage_index],
                     order=list(state.start_order)))
    start_round(state, events)


def results(state: Shown) -> list[tuple[str, str, int | None, str | None]]:
    """(seat, status, rally seconds or None, out reason or None), classified drivers first by time,
    equal times shown by the better last stage time, then in the last start order (A17 OPEN-5:
    they still share a rank), then the others (B13.2, B13.8.10, A17)."""
    start = {s: i for i, s in enumerate(state.start_order)}
    rows: list[tuple[str, str, int | None, str | None]] = []
    for seat, _ in state.seats:
        car = state.cars[seat]
        times = car.stage_times
        done = car.status in ("finished", "waiting", "racing") and bool(times) and all(t is not None for t in times)
        total = sum(t for t in times if t is not None) if done else None
        rows.append((seat, car.status, total, car.reason))
    order = {s: i for i, (s, _) in enumerate(state.seats)}
    last = {s: (state.cars[s].stage_times[-1] or 0) if state.cars[s].stage_times else 0 for s in order}
    rows.sort(key=lambda r: (r[2] is None, r[2] or 0, last[r[0]] if r[2] is not None else 0,
                             start.get(r[0], len(start) + order[r[0]])))
    return rows
