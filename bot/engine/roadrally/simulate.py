"""`python -m bot simulate --game roadrally`: a whole Road Rally USA game played by AI seats, as
plain JSON-able data for a designer checking a preset's balance.

The seats are the bot's AI seats ("-1", "-2", …: negative ids). Each decides from its own seat's
view only (`view(state, seat)` → `ai.choose`, RULES C10.8), and every seat in `to_act` is asked
in sorted order (a stage window asks several at once). The course is `base` for `rr-base` (C2)
and the seeded variable course otherwise (`std-SEED`, or `sprint-SEED` for a sprint, C7, C9);
the same arguments always give the same game (seeded dice in the state).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from bot.engine.core.errors import RallyError
from bot.engine.core.text import msg
from bot.engine.roadrally import ai
from bot.engine.roadrally.actions import Action, Choose, Play, Reshuffle
from bot.engine.roadrally.course import load_course
from bot.engine.roadrally.play import MAX_SEATS, MIN_SEATS, apply, final_vp, new_game, ranking, to_act
from bot.engine.roadrally.presets import preset
from bot.engine.roadrally.state import RRState
from bot.engine.roadrally.view import view

MAX_ACTIONS = 20_000  # far above any real game (a 5-seat game takes a few hundred actions)

#: how a seat decides: (state, seat) -> its action (the AI looks at its own view only)
Decide = Callable[[RRState, str], Action]


def ai_seats(players: int) -> list[str]:
    """The bot's AI seat ids for `players` seats: "-1", "-2", …"""
    return [f"-{i + 1}" for i in range(players)]


def ai_decide(state: RRState, seat: str) -> Action:
    """The AI's action for `seat`, from that seat's view only (C10.8)."""
    return ai.choose(view(state, seat))


def course_name(preset_name: str, seed: int, sprint: bool) -> str:
    """The default course: the fixed base layout for `rr-base`, else the seeded one (C2, C7, C9)."""
    if preset_name == "rr-base" and not sprint:
        return "base"
    return f"{'sprint' if sprint else 'std'}-{seed}"


def start(players: int, preset_name: str, seed: int, sprint: bool = False,
          course: str | None = None) -> RRState:
    """A new game of `players` AI seats; refused (RallyError) for a seat count outside 3..5, an
    unknown preset or an unknown course, before anything is played."""
    if not MIN_SEATS <= players <= MAX_SEATS:
        raise RallyError(msg("roadrally.seats", min=MIN_SEATS, max=MAX_SEATS))
    preset(preset_name)  # DataError (a RallyError) naming the known presets
    road = load_course(course if course is not None else course_name(preset_name, seed, sprint))
    state, _ = new_game(road, ai_seats(players), preset_name, seed=seed, sprint=sprint)
    return state


def run(state: RRState, decide: Decide = ai_decide) -> tuple[RRState, dict[str, Any]]:
    """Play `state` to its end, asking the seats to act in sorted order; the final state and a
    tally of the choices made (what the final state cannot tell)."""
    actions = store = shortcuts = reshuffles = 0
    plays: Counter[str] = Counter()
    cards: Counter[str] = Counter()
    choices: Counter[str] = Counter()
    while state.phase != "over":
        if actions >= MAX_ACTIONS:
            raise RuntimeError(f"Road Rally USA simulation: no end after {MAX_ACTIONS} actions")
        # every seat to act, in sorted order: in a stage window each answer only takes its own
        # seat off `to_act` until the last one resolves it (C10.8); otherwise one seat acts
        for seat in sorted(to_act(state)):
            action = decide(state, seat)
            state, _ = apply(state, seat, action)
            actions += 1
            if isinstance(action, Play):
                plays[seat] += 1
                cards[seat] += len(action.cards)
                store += action.store
                shortcuts += action.shortcut
            elif isinstance(action, Choose):
                choices[action.take] += 1
            elif isinstance(action, Reshuffle):
                reshuffles += action.yes
    tally = {"actions": actions, "plays": {s.id: plays[s.id] for s in state.seats},
             "cards_played": {s.id: cards[s.id] for s in state.seats}, "store_turns": store,
             "shortcuts": shortcuts, "choices": {"vp": choices["vp"], "cards": choices["cards"]},
             "empty_hand_reshuffles": reshuffles}
    return state, tally


def simulate(players: int, preset_name: str, seed: int, sprint: bool = False,
             course: str | None = None) -> dict[str, Any]:
    """A whole AI game as one JSON-able report: who won by how much, and where the points came
    from (VP tiles, stage tiles, checkpoints), the stage cards revealed and the AI's tally."""
    state = start(players, preset_name, seed, sprint, course)
    lineup = [state.seats[i].id for i in state.order]  # round 1's order: the random line-up (OPEN-R3)
    tiles, start_pos = len(state.stage_tiles), {s.id: s.pos for s in state.seats}
    state, tally = run(state)
    vp = final_vp(state)
    order = ranking(state)
    p = state.preset
    return {"game": "roadrally", "preset": preset_name, "players": players, "seed": seed, "sprint": sprint,
            "course": state.road.name, "spaces": len(state.road.spaces), "rounds": state.round,
            "vp": vp, "ranking": order, "margin": vp[order[0]] - vp[order[1]], "lineup": lineup,
            "vp_tiles": {s.id: s.vp for s in state.seats},
            "stage_tiles": {s.id: list(s.stage_tiles) for s in state.seats},
            "stage_tile_vp": {s.id: p.tile_vp * len(s.stage_tiles) for s in state.seats},
            "checkpoints": {s.id: s.checkpoints for s in state.seats},
            "stage_cards_revealed": [[stage, state.seats[i].id] for stage, i in state.revealed],
            "stage_cards_scored": {s.id: s.scored_cards for s in state.seats},
            "stages_bypassed": tiles - len(state.stage_tiles) - len(state.revealed),  # C6.2, C6.4
            "finish": {s.id: s.mark for s in state.seats if s.mark is not None},
            "spaces_moved": {s.id: s.pos - start_pos[s.id] for s in state.seats},
            **tally}
