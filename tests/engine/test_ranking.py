"""The one ranking rule (RULES OPEN-5 default, A17): equal results share a rank, "1, 1, 3". The
classifications that call it are tested through their own suites (A17 tests, results image,
league rounds and standings, the world scratch ranking and its closing post)."""

from __future__ import annotations

from bot.engine.core.ranking import shared_ranks


def test_equal_results_share_the_rank_of_the_first_and_the_next_keeps_its_place():
    cases = [
        ((), []),
        ((160,), [1]),
        ((160, 170, 180), [1, 2, 3]),
        ((160, 160, 170), [1, 1, 3]),
        ((160, 170, 170), [1, 2, 2]),
        ((160, 160, 160), [1, 1, 1]),
        ((150, 160, 160, 160, 170, 170), [1, 2, 2, 2, 5, 5]),
        (((10, [1, 0], 300), (10, [1, 0], 300), (10, [0, 1], 300)), [1, 1, 3]),  # standings keys
    ]
    for keys, ranks in cases:
        assert shared_ranks(list(keys)) == ranks, keys


def test_a_window_of_a_longer_ranking_starts_at_its_place_or_at_the_rank_of_its_earlier_ties():
    assert shared_ranks([200, 210, 210], first_place=11) == [11, 12, 12]
    assert shared_ranks([200, 200, 210], first_place=11, first_rank=9) == [9, 9, 13]

