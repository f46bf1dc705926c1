"""Every registered game, and the tests' toy game, keeps the `Game` protocol's promises after every
action of random playthroughs over its presets and modules (tests/conformance/kit.py says which).

Run with `-s` to read the figures (games, playthroughs, actions, checks per property); the same
figures, summed, come from `python -m tests.conformance.figures`.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot import games
from bot.engine.core.game import Game
from tests.conformance.configs import CONFIGS, MAX_ACTIONS, PLAYTHROUGHS, SHORT
from tests.conformance.kit import Config, Figures, play
from tests.toy_game.game import dice_dash

TOY = dice_dash()


@pytest.fixture
def registered():
    """The toy game registered for the kit's run (the bot's replay finds a game by its id)."""
    games.register(TOY)
    try:
        yield
    finally:
        games.unregister(TOY.id)


def _game(game_id: str) -> Game[Any, Any, Any, Any]:
    return TOY if game_id == TOY.id else games.get(game_id)


def test_the_kit_covers_every_registered_game_and_the_toy():
    assert set(CONFIGS) == {*games.ids(), TOY.id}


@pytest.mark.parametrize("game_id", sorted(CONFIGS))
def test_a_game_keeps_the_protocols_promises_after_every_action(game_id: str, registered: None):
    game = _game(game_id)
    configs: list[Config] = CONFIGS[game_id]
    figures: Figures = play(game, configs, PLAYTHROUGHS, MAX_ACTIONS[game_id], SHORT[game_id])
    print(figures.line())
    assert figures.playthroughs == PLAYTHROUGHS
    assert figures.finished >= PLAYTHROUGHS // 4, figures.line()  # finished games were checked too
    assert figures.checks["log_replay"] == PLAYTHROUGHS
    assert figures.checks["reload"] == figures.actions > PLAYTHROUGHS
