"""The toy game keeps the protocol's promises on its own, and the
registry takes it (and its texts) in and out without a change anywhere else."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import games
from bot.engine.core.errors import RallyError
from bot.engine.core.game import POINTS, Game, is_finished
from bot.engine.core.log import Start, Status, lifecycle_text
from bot.engine.core.text import msg
from bot.i18n import catalogue, render

SEATS = [("1", "Ann"), ("2", "Ben")]


def test_the_toy_is_a_game_and_the_registry_lists_it_only_while_registered(toy):
    assert isinstance(toy, Game)
    assert games.get("dicedash") is toy and "dicedash" in games.ids()
    games.unregister("dicedash")
    with pytest.raises(RallyError) as refused:
        games.get("dicedash")
    assert "rallyman" in str(refused.value)
    games.register(toy)  # the fixture takes it away again


def test_its_texts_come_with_it_in_every_language(toy):
    for lang in ("en", "fr", "de"):
        assert "toy.your_turn" in catalogue(lang)
    assert render(msg("toy.standing", name="Ann", points=7), "de") == "Ann: 7 Punkte"


def test_its_texts_leave_with_it():
    assert "toy.your_turn" not in catalogue("en")


def test_nothing_outside_its_folder_names_it():
    """Adding the toy took its folder and the registry call (`games.register`, conftest.py) alone:
    no file of the bot, its data, catalogue, benches or tools names the game or one of its keys."""
    root = Path(__file__).resolve().parents[2]
    names = ("dicedash", "DiceDash", "toy_game", '"toy.')
    files = [p for top in ("bot", "data", "bench", "tools") for p in (root / top).rglob("*")
             if p.is_file() and p.suffix in (".py", ".json", ".html", ".js", ".toml", ".md")]
    files.append(root / "pyproject.toml")
    assert len(files) > 300
    naming = [p for p in files if any(name in p.read_text(encoding="utf-8") for name in names)]
    assert [p.relative_to(root).as_posix() for p in naming] == []


def test_a_whole_dash_by_its_own_ai_ranks_by_points_higher_first(toy):
    state, events = toy.rules.setup(5, SEATS, {"stage": "dash-3"})
    assert [e.kind for e in events] == ["toy_turn"]
    while not is_finished(toy.rules, state):
        (seat,) = toy.rules.to_act(state)
        state, _ = toy.rules.apply(state, seat, toy.coach.choose(toy.rules.view(state, seat), seat, 0.1))
    outcome = toy.rules.outcome(state)
    assert outcome is not None and outcome.kind == POINTS
    scores = [r.score for r in outcome.seats]
    assert scores == sorted(scores, reverse=True) and outcome.seats[0].rank == 1


def test_refusals_change_nothing(toy):
    state, _ = toy.rules.setup(5, SEATS, {"stage": "dash-3"})
    before = toy.rules.to_json(state)
    with pytest.raises(RallyError):
        toy.rules.apply(state, "2", toy.commands.parse("roll", state, "2"))  # not Ben's turn
    with pytest.raises(RallyError):
        toy.commands.parse("fly", state, "1")
    assert toy.rules.to_json(state) == before


def test_log_entries_round_trip(toy):
    for entry in (Start(("1", "2")), Status("abandoned")):
        assert toy.rules.decode(toy.rules.encode(entry)) == entry
        assert toy.rules.encode(entry) == lifecycle_text(entry)
    state, _ = toy.rules.setup(5, SEATS, {"stage": "dash-3"})
    for action in toy.rules.legal_actions(state, "1"):
        assert toy.rules.decode(toy.rules.encode(action)) == action
