"""The toy game registered for the tests that play it, and taken away after them."""

from __future__ import annotations

import pytest

from bot import games
from tests.toy_game.game import dice_dash


@pytest.fixture
def toy():
    game = dice_dash()
    games.register(game)
    try:
        yield game
    finally:
        games.unregister(game.id)
