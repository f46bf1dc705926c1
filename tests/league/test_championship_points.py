"""The championship arithmetic: a round's classification with penalties, DSQ, DNF,
points and the power stage; the season standings with the best-N drop and the tie-breaks."""

from __future__ import annotations

from bot.services.league.points import DEFAULT_POINTS, Entry, RoundScore, classify_round, standings


def test_a_round_ranks_by_time_plus_penalty_with_shared_positions_and_points():
    entries = [Entry(1, "Ann", "finished", 300, 100), Entry(2, "Bea", "finished", 290, 90),
               Entry(3, "Cid", "finished", 300, 95), Entry(4, "Dan", "dnf", reason="knocked_out"),
               Entry(5, "Eve", "running"), Entry(6, "Fay", "finished", 280, 80)]
    out = classify_round(entries, penalties={2: 20}, disqualified={6: "wrong car"})
    assert [(c.name, c.status, c.position, c.time_s, c.points) for c in out] == [
        ("Ann", "classified", 1, 300, 25), ("Cid", "classified", 1, 300, 25), ("Bea", "classified", 3, 310, 15),
        ("Dan", "dnf", None, None, 0), ("Eve", "dnf", None, None, 0), ("Fay", "dsq", None, None, 0)]
    assert out[2].penalty_s == 20 and out[2].gap_s == 10
    assert out[4].reason == "not_finished" and out[5].reason == "wrong car"
    assert all(c.bonus == 0 for c in out)  # no power stage in this round


def test_the_power_stage_gives_5_4_3_2_1_to_the_fastest_last_specials_of_classified_drivers():
    entries = [Entry(i, f"D{i}", "finished", 500 + i, 100 - i) for i in range(1, 8)]
    entries.append(Entry(99, "Fast but out", "dnf", None, None, "retired"))
    out = classify_round(entries, {}, {7: "dsq"}, power_stage=True)
    bonus = {c.user_id: c.bonus for c in out}
    # the fastest last special is D7's, but D7 is disqualified: D6 first
    assert bonus == {6: 5, 5: 4, 4: 3, 3: 2, 2: 1, 1: 0, 7: 0, 99: 0}


def test_a_custom_points_table_scores_nothing_beyond_its_last_place():
    entries = [Entry(i, f"D{i}", "finished", 100 + i) for i in range(1, 5)]
    out = classify_round(entries, {}, {}, points=(10, 5))
    assert [c.points for c in out] == [10, 5, 0, 0]
    assert DEFAULT_POINTS[:3] == (25, 18, 15)


def score(round_id, user, position, points, bonus=0, time_s=300):
    return RoundScore(round_id, user, f"D{user}", position, time_s if position else None, points, bonus)


def test_standings_count_only_the_best_n_rounds_when_the_league_drops():
    scores = [score(1, 1, 1, 25), score(2, 1, 10, 1), score(3, 1, 1, 25),
              score(1, 2, 2, 18), score(2, 2, 1, 25), score(3, 2, 2, 18)]
    every = standings(scores)
    best_two = standings(scores, 2)
    assert [(s.user_id, s.points) for s in every] == [(2, 61), (1, 51)]
    assert [(s.user_id, s.points, s.dropped) for s in best_two] == [(1, 50, 1), (2, 43, 1)]


def test_equal_points_are_broken_by_more_wins_then_more_seconds_then_total_time():
    by_wins = [score(1, 1, 1, 25), score(2, 1, 3, 15), score(1, 2, 2, 18), score(2, 2, 2, 18),
               score(3, 2, 4, 4)]
    assert [s.user_id for s in standings(by_wins)] == [1, 2]  # 40 each: one win beats none
    by_time = [score(1, 1, 1, 25, time_s=310), score(2, 1, 2, 18, time_s=300),
               score(1, 2, 2, 18, time_s=300), score(2, 2, 1, 25, time_s=300)]
    table = standings(by_time)
    assert [s.user_id for s in table] == [2, 1] and [s.position for s in table] == [1, 2]
    tied = standings([score(1, 1, 1, 25), score(1, 2, 1, 25)])
    assert [s.position for s in tied] == [1, 1]  # equal on everything: shared


def test_the_power_stage_bonus_counts_in_the_round_score_that_the_drop_keeps():
    scores = [score(1, 1, 2, 18, bonus=5), score(2, 1, 1, 25), score(3, 1, 3, 15, bonus=0)]
    assert standings(scores, 2)[0].points == 48  # 25 and 18+5 kept, 15 dropped


# -- a game whose result is victory points (higher is better): every sort goes the other way --------

def test_a_points_game_classifies_the_highest_score_first_and_a_penalty_takes_points_away():
    from bot.engine.core.game import POINTS

    entries = [Entry(1, "Ann", "finished", 30), Entry(2, "Bea", "finished", 42), Entry(3, "Cid", "finished", 35),
               Entry(4, "Dan", "finished", 35), Entry(5, "Eve", "dnf", reason="retired")]
    out = classify_round(entries, penalties={2: 10}, disqualified={}, points=(10, 6, 4, 3), kind=POINTS)
    assert [(c.name, c.position, c.score, c.points, c.gap_s) for c in out] == [
        ("Cid", 1, 35, 10, 0), ("Dan", 1, 35, 10, 0), ("Bea", 3, 32, 4, 3), ("Ann", 4, 30, 3, 5),
        ("Eve", None, None, 0, None)]


def test_a_points_game_breaks_a_standings_tie_by_the_higher_total_score():
    from bot.engine.core.game import POINTS, SECONDS

    scores = [score(1, 1, 1, 25, time_s=40), score(2, 1, 2, 18, time_s=30),
              score(1, 2, 2, 18, time_s=38), score(2, 2, 1, 25, time_s=35)]  # 43 points each, one win each
    assert [s.user_id for s in standings(scores, kind=POINTS)] == [2, 1]  # 73 points scored beat 70
    assert [s.user_id for s in standings(scores, kind=SECONDS)] == [1, 2]  # 70 seconds beat 73
    assert [s.user_id for s in standings(scores)] == [1, 2]  # classic's way unless told
