"""Whole specials driven by the AI: demos, previews, benchmarks and par times."""

from __future__ import annotations

from bot.engine.ai import choose_action
from bot.engine.board import board_view
from bot.engine.course import course_of
from bot.engine.game import Seat, apply, new_game
from bot.engine.stage_model import Stage
from bot.engine.state import GameState
from bot.engine.view import BoardView

AI_NAMES = ("Ada Vatanen", "Sébastien Roux", "Jürgen Kähler", "Ingrid Ødegaard")


def ai_seats(count: int) -> list[Seat]:
    return [Seat(f"ai{i + 1}", AI_NAMES[i % len(AI_NAMES)]) for i in range(count)]


def play_stage(stage: Stage | str, drivers: int = 4, seed: int = 0, max_actions: int = 5000):
    """Drive a whole special with AI drivers; returns (final state, number of actions)."""
    state = new_game(stage, ai_seats(drivers), seed=seed)
    actions = 0
    while state.turn is not None and actions < max_actions:
        state, _ = apply(state, choose_action(state))
        actions += 1
    return state, actions


def play_rally(stages: list[str], drivers: int = 4, seed: int = 0, assistance: list[bool] | None = None,
               max_actions: int = 20000, modules: dict[str, bool] | None = None) -> tuple[GameState, int]:
    """Drive a whole rally of several specials with AI drivers (RULES A2), with some rule
    `modules` on; returns (final state, number of actions). The course and its results are in
    `state.course`."""
    course = course_of(stages, assistance)
    state = new_game(stages[0], ai_seats(drivers), seed=seed, modules=modules, course=course)
    actions = 0
    while state.turn is not None and actions < max_actions:
        state, _ = apply(state, choose_action(state))
        actions += 1
    return state, actions


def board_after_turns(stage: Stage | str, seed: int, turns: int, drivers: int = 4) -> BoardView:
    """The board after `turns` AI turns (the `render --turns` preview)."""
    state = new_game(stage, ai_seats(drivers), seed=seed)
    done = 0
    while state.turn is not None and done < turns:
        state, events = apply(state, choose_action(state))
        done += sum(1 for e in events if e.kind in ("turn", "stage_over"))
    return board_view(state)
