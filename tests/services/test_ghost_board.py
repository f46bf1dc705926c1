"""The ghost on a run's boards, pure part (bot/services/league/ghost_board.py): which mark is "the same
turn", what a board spec gains (the place and a label, nothing else), the gap's sign, the keys."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from bot import games
from bot.engine.core.game import is_finished
from bot.engine.rallyman.ghosts import share_of
from bot.i18n import catalogue
from bot.services.errors import ServiceError
from bot.services.images import board_spec
from bot.services.league.ghost_board import (
    GAPS,
    LABELS,
    RACING,
    ghost_after,
    ghost_at,
    ghost_of,
    ghost_track,
    signed,
    time_at,
    with_ghost,
)
from bot.services.league.ghosts import ghost_choice
from bot.services.play.replay import ai_log, replay_states

TRACK = [[[0, 1], -1, 0], [[0, 2], 4, 10], [[0, 3], 9, 20], [[0, 3, 0], -2, 26]]


def test_the_ghost_at_a_turn_is_its_mark_when_play_first_reached_it_and_its_last_once_past():
    assert ghost_at(TRACK, (0, 0)) is None
    assert (ghost_at(TRACK, (0, 2)).place, ghost_at(TRACK, (0, 2)).time) == (4, 10)
    assert ghost_at(TRACK, (0, 3)).place == 9           # the start of its last turn
    assert ghost_at(TRACK, (0, 7)).place == -2          # finished sooner: over the line
    assert ghost_after(TRACK, (0, 3)).place == -2       # a run ending in turn 3: the ghost's end of it
    assert ghost_after(TRACK, (0, 2)).place == 9


@pytest.mark.parametrize("keys", [LABELS, GAPS, RACING])
def test_every_ghost_key_is_in_english_french_and_german_with_the_same_placeholders(keys):
    for key in keys.values():
        texts = {lang: catalogue(lang)[key] for lang in ("en", "fr", "de")}
        fields = {lang: sorted(re.findall(r"{(\w+)}", text)) for lang, text in texts.items()}
        assert fields["en"] == fields["fr"] == fields["de"], key
        assert len(set(texts.values())) == 3, key  # translated, not copied


def test_a_board_gains_the_ghosts_place_and_label_and_the_post_its_gap():
    game = games.get("rallyman")
    state, _ = game.rules.setup(1, [("7", "Ann")], {"stage": "pinewood-sprint", "modules": {}})
    spec = board_spec(state, game.id)
    ghost = {"kind": "leader", "name": "Bob", "track": [[[0, 1], -1, 5]]}
    board, lines = with_ghost(game, state, spec, ghost)
    assert {k: v for k, v in board["view"].items() if k != "ghost"} == spec["view"]
    assert board["view"]["ghost"] == {"place": -1, "label": {"key": "ghost.label.leader", "params": {}}}
    assert [(line.key, line.params["gap"]) for line in lines] == [("ghost.gap.leader", "\u22125")]
    assert with_ghost(game, state, spec, None) == (spec, [])
    assert with_ghost(game, state, spec, {"kind": "nonsense", "track": []}) == (spec, [])


def test_road_rally_has_no_ghosts():
    game = games.get("roadrally")
    seats = [(str(i), f"P{i}") for i in range(1, game.rules.seats.min + 1)]
    state, _ = game.rules.setup(1, seats, {"stage": game.library.stages.names()[0], "modules": {}})
    assert game.ghosts is None
    spec = board_spec(state, game.id)
    assert with_ghost(game, state, spec, {"kind": "best", "track": [[[0], 1, 1]]}) == (spec, [])


@pytest.mark.parametrize("value,expected", [(None, None), ("", None), (" OFF ", None), ("Best", "best"),
                                            ("leader", "leader")])
def test_a_ghost_choice_is_read_tolerantly(value, expected):
    assert ghost_choice(value) == expected


def test_a_rally_without_modules_races_no_ghost():
    row = SimpleNamespace(modules={"run": {"round_id": 1}})
    assert ghost_of(row) is None and ghost_of(SimpleNamespace(modules=None)) is None
    with pytest.raises(ServiceError):
        ghost_choice("ghost")


def test_the_ghosts_time_at_a_place_is_interpolated_within_its_turn():
    points = [(0.0, 0, -1), (0.2, 10, 4), (0.5, 16, 9), (1.0, 30, -2)]
    assert time_at(points, 0.2) == 10          # a mark there: its time
    assert time_at(points, 0.35) == 13         # half-way through the turn from 0.2 to 0.5: half its 6 s
    assert time_at(points, 1.0) == 30 and time_at([(0.0, 0, -1), (0.4, 8, 7)], 0.6) is None  # never got there


def test_the_drawn_ghost_and_the_posted_gap_agree_where_the_same_turn_did_not():
    """Two AI runs on pinewood-sprint (seeds 0 and 4): compared at the same turn, as before, the
    ghost was drawn ahead while the post said "−N s" (or behind with "+N s") on several boards.
    Now the gap is the driver's time minus the ghost's at the driver's place on the road, and the
    ghost is drawn on the side that gap tells, on every board."""
    game = games.get("rallyman")

    def states(seed):
        row, actions = ai_log("rallyman", ["pinewood-sprint"], drivers=1, seed=seed)
        return replay_states(row, actions)

    track = ghost_track(game, states(0), "9000")
    ghost = {"kind": "best", "name": "Ann", "track": track}
    points = [(float(d), int(t), place) for _, place, t, d in track]
    then = now = 0
    for state in states(4):
        view = game.rules.view(state, None)
        (mine,) = game.ghosts.ghost_marks(view).values()
        mark_of = ghost_after if is_finished(game.rules, state) else ghost_at
        mark = mark_of([e[:3] for e in track], game.rules.progress(view))
        if mark is not None and mark.place is not None:  # the same turn, as before
            old_gap, ahead = mine.time - mark.time, share_of(state.stage, mark.place) - mine.distance
            then += (old_gap < 0 < ahead) or (ahead < 0 < old_gap)
        board, lines = with_ghost(game, state, board_spec(state, game.id), ghost)
        gap = mine.time - time_at(points, mine.distance)
        assert [line.params["gap"] for line in lines] == [signed(round(gap))]
        drawn = share_of(state.stage, board["view"]["ghost"]["place"]) - mine.distance
        now += (gap < 0 and drawn >= 0) or (gap > 0 and drawn < 0)
    assert then > 0 and now == 0
