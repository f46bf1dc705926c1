"""Stage resolution at the round's end (RULES C6, C8, C10.6, C10.8): reached stages in ascending
number, each asked of every active seat at once; scoring, doubling, tile ownership, limits, the
"points or 2 cards" choice; the final stage and the end of the game."""

from __future__ import annotations

from bot.engine.roadrally.actions import Choose, StageAnswer
from bot.engine.roadrally.cards import draw, refuse
from bot.engine.roadrally.events import RoadEvent
from bot.engine.roadrally.state import RRState


def end_round(state: RRState, events: list[RoadEvent]) -> None:
    """C3.3: resolve every stage reached this round, ascending (C6.1)."""
    state.pending = sorted(state.reached)
    state.scored_this_round = 0
    next_stage(state, events)


def _remove_tile(state: RRState, stage: int) -> None:
    for space, number in list(state.stage_tiles.items()):
        if number == stage:
            del state.stage_tiles[space]


def next_stage(state: RRState, events: list[RoadEvent]) -> None:
    """Open the next stage's window, or close the round (C3.4) when none is left."""
    limit = state.preset.round_limit
    if state.pending and limit is not None and state.scored_this_round >= limit:
        for stage in state.pending:  # C6.4: discarded unscored
            _remove_tile(state, stage)
            events.append(RoadEvent("stage_bypassed", None, (stage,)))
        state.pending = []
    if state.pending:
        state.phase = "stage"
        state.answers = {}
        events.append(RoadEvent("stage_window", None, (state.pending[0],)))
        return
    for stage in state.reached:  # C3.4
        _remove_tile(state, stage)
    state.reached = set()
    if any(s.mark is not None for s in state.seats if not s.retired) or not state.active():
        final_stage(state, events)
        return
    state.round += 1
    state.order = state.race_order()  # C3.1: tile "1" to the leader ... "L" to the last
    state.turn = 0
    state.phase = "turn"
    events.append(RoadEvent("round", None, (state.round,)))


def answer(state: RRState, i: int, action: StageAnswer, events: list[RoadEvent]) -> bool:
    """One seat's answer in a stage window (C6.2, C10.8). True when every active seat has answered."""
    if action.stage != state.pending[0]:
        raise refuse("roadrally.stage_not_reached", stage=action.stage)
    if i in state.answers:
        raise refuse("roadrally.already_answered", stage=action.stage)
    seat = state.seats[i]
    if action.play and action.stage not in seat.stage_cards:
        raise refuse("roadrally.no_stage_card", stage=action.stage)
    state.answers[i] = action.play
    return all(j in state.answers for j in state.active())


def resolve(state: RRState, events: list[RoadEvent]) -> None:
    """Every seat answered: score the stage or bypass it (C6.2-C6.4)."""
    stage = state.pending[0]
    holder = next((i for i, yes in state.answers.items() if yes), None)
    state.answers = {}
    if holder is None:  # C10.8: a bypassed stage names no seat
        _remove_tile(state, stage)
        events.append(RoadEvent("stage_bypassed", None, (stage,)))
        state.pending.pop(0)
        next_stage(state, events)
        return
    seat = state.seats[holder]
    seat.stage_cards.remove(stage)
    seat.scored_cards += 1
    if seat.scored_cards >= state.card_limit():  # C6.4, C10.6: the rest go back to the box unseen
        seat.stage_cards.clear()
    state.scored_this_round += 1
    state.revealed.append((stage, holder))
    events.append(RoadEvent("stage_scored", seat.id, (stage,)))
    table = state.preset.points[str(state.players)]
    for place, i in enumerate(state.race_order()):
        points, or_cards = table[place]
        doubled = i == holder
        if or_cards:
            state.choices.append((i, points, doubled))
        else:
            state.seats[i].vp += points * (2 if doubled else 1)
            events.append(RoadEvent("vp", state.seats[i].id, (points * (2 if doubled else 1),)))
    space = next((sp for sp, n in state.stage_tiles.items() if n == stage), None)
    if space is not None:  # C6.3: the car on the tile's space with no car ahead of it there
        here = [i for i in state.active() if state.seats[i].pos == space]
        if here:
            owner = min(here, key=lambda i: state.seats[i].arrived)
            state.seats[owner].stage_tiles.append(stage)
            events.append(RoadEvent("stage_tile", state.seats[owner].id, (stage,)))
        _remove_tile(state, stage)
    if state.choices:
        state.phase = "choose"
        return
    state.pending.pop(0)
    next_stage(state, events)


def choose(state: RRState, action: Choose, events: list[RoadEvent]) -> None:
    """C6.3: points (doubled if the seat played the card) or 2 cards (never doubled)."""
    i, points, doubled = state.choices.pop(0)
    seat = state.seats[i]
    if action.take == "vp":
        seat.vp += points * (2 if doubled else 1)
        events.append(RoadEvent("vp", seat.id, (points * (2 if doubled else 1),)))
    else:
        draw(seat, state.preset.choice_cards, events)
    if state.choices:
        return
    state.pending.pop(0)
    next_stage(state, events)


def final_stage(state: RRState, events: list[RoadEvent]) -> None:
    """C8, AMB-R2: the final stage by finishing order, the table for the player count, points only,
    never doubled, not counted in the round limit (C10.6); then the game ends."""
    table = state.preset.points[str(state.players)]
    finished = sorted((i for i in state.active() if state.seats[i].mark is not None),
                      key=lambda i: state.seats[i].mark or 0)
    for place, i in enumerate(finished):
        state.seats[i].vp += table[place][0]
        events.append(RoadEvent("final_vp", state.seats[i].id, (table[place][0],)))
    state.final_scored = True
    state.phase = "over"
    events.append(RoadEvent("over"))
