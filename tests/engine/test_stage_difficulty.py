"""The stage difficulty and length classes every game's `StageFacts` show (bot/engine/core/difficulty.py)."""

from __future__ import annotations

from bot import games
from bot.engine.core.difficulty import length_class, stars
from bot.engine.core.game import StageFacts


def test_length_class_by_the_games_bounds():
    assert [length_class(n, 30, 60) for n in (19, 29, 30, 59, 60, 112)] == [
        "short", "short", "medium", "medium", "long", "long"]


def test_tight_corners_weigh_most_then_hazards_then_length():
    assert stars(6, 0, 0, "short") == 1
    assert stars(6, 6, 0, "short") == 4
    assert stars(6, 6, 6, "short") == 5
    assert stars(6, 3, 0, "short") < stars(6, 3, 6, "short") < stars(6, 3, 6, "long")
    assert stars(6, 3, 0, "short") < stars(6, 6, 0, "short")


def test_stars_stay_within_one_to_five():
    assert stars(0, 0, 0, "short") == 1  # no corner: the length alone
    assert stars(4, 9, 9, "long") == 5   # counts beyond the corners are capped


def test_facts_difficulty_is_the_formula_of_its_counts():
    facts = StageFacts("x", "X", 40, 8, length_class="medium", tight=2, hazards=4)
    assert facts.difficulty == stars(8, 2, 4, "medium") == 2  # 4·2/8 + 4/8 + 0.5 = 2.0


def test_classic_facts_give_length_class_zones_and_counts():
    library = games.get("rallyman").library.stages
    for name in library.names():
        facts = library.facts(name)
        assert facts.unit == "spaces" and facts.zones
        assert facts.length_class == length_class(facts.length, 30, 60)
        assert 0 <= facts.tight <= facts.corners and 1 <= facts.difficulty <= 5
    ratings = {library.facts(name).difficulty for name in library.names()}
    assert len(ratings) >= 3, "the shipped stages spread over the scale"
