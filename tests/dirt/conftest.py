"""DIRT tests: the hand-written stages of `rally_kit` load by their test names."""

from __future__ import annotations

import pytest

from bot.engine.dirt import rally
from bot.engine.dirt import state as state_module
from bot.engine.dirt.stages import catalogue
from tests.dirt.rally_kit import load_test_stage


@pytest.fixture(autouse=True)
def dirt_test_stages(monkeypatch: pytest.MonkeyPatch) -> None:
    load = load_test_stage(catalogue.load_stage)
    monkeypatch.setattr(state_module, "load_stage", load)
    monkeypatch.setattr(rally, "load_stage", load)
