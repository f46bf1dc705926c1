"""Animated replays: one frame per turn (not per die), a valid animated WebP whose first frame is
the rally's first board and whose last board is followed by an end frame naming the rally's winner
(the whole rally's), held longer, for every game with a board; a readable pace; a bounded size;
Road Rally USA's replay is built from spectator views only (no seat's hand in any frame's source)."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image, ImageChops, ImageStat

from bot import games
from bot.engine.core.game import is_finished
from bot.render.animation import END_FRAME_MS, FRAME_MS, LAST_FRAME_MS, WIDTH, durations, encode, end_frame
from bot.render.options import RenderOptions
from bot.services.images import PillowRenderer, draw, localized, pictures_of
from bot.services.play.replay import ai_log, iter_steps, replay_frames, turn_boards, turn_views


def replay_of(row: dict, actions: list[dict], lang: str = "en") -> Image.Image:
    data = draw(PillowRenderer(), {"kind": "replay", "log": {"rally": row, "actions": actions}}, lang)
    image = Image.open(io.BytesIO(data))
    assert image.format == "WEBP"
    return image


def board(row: dict, data: dict, lang: str = "en") -> Image.Image:
    """One board drawn on its own, as a replay's frame is (the whole stage, `WIDTH` px)."""
    game = games.get(row["game"])
    args = game.pictures.board_picture(localized(data, lang))
    return pictures_of(game.id).board(tuple(args), RenderOptions(width=WIDTH, mode="fit", lang=lang))


def frame(image: Image.Image, index: int) -> Image.Image:
    image.seek(index)
    return image.convert("RGB")


def frame_times(image: Image.Image) -> list[int]:
    """Each frame's time on screen (ms), as the WebP says (read once the frame is loaded)."""
    times = []
    for i in range(image.n_frames):
        frame(image, i)
        times.append(image.info.get("duration"))
    return times


def mean_error(a: Image.Image, b: Image.Image) -> float:
    """Mean difference per channel (0–255) of two pictures over their common top-left part (a frame
    is padded at the bottom to the tallest board of the replay)."""
    box = (0, 0, min(a.width, b.width), min(a.height, b.height))
    a, b = a.crop(box), b.crop(box)
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean) / 3


def turns_by_hand(row: dict, actions: list[dict]) -> int:
    """The turns of a log counted without `turn_views`: the start, then each entry after which
    the seats to act or the game's progress changed, the finish counted once, a turn whose
    spectators' board is the one before not counted."""
    game = games.get(row["game"])
    count, mark, done, shown = 0, None, False, None
    for state, _ in iter_steps(row, actions):
        if state is None or done:
            continue
        view = game.rules.view(state, None)
        now = (game.rules.to_act(state), game.rules.progress(view))
        if (mark is None or now != mark or is_finished(game.rules, state)) and game.pictures.board(view) != shown:
            count += 1
            shown = game.pictures.board(view)
        mark, done = now, is_finished(game.rules, state)
    return count


def test_a_classic_replay_has_one_frame_per_turn_and_starts_and_ends_on_the_rallys_boards():
    row, actions = ai_log("rallyman", ["pinewood-sprint"], drivers=2, seed=3)
    boards = turn_boards(row, actions)
    assert len(boards) == turns_by_hand(row, actions)
    assert len(actions) > len(boards) > 10  # a turn is several logged actions: fewer frames than entries
    data = draw(PillowRenderer(), {"kind": "replay", "log": {"rally": row, "actions": actions}}, "en")
    image = replay_of(row, actions)
    assert image.n_frames == len(boards) + 1  # a frame per turn, then the end frame
    assert image.width == WIDTH
    first, last = board(row, boards[0]), board(row, boards[-1])
    assert mean_error(frame(image, 0), first) < 2.0  # the same picture, but for its shared palette
    assert mean_error(frame(image, image.n_frames - 2), last) < 2.0
    assert mean_error(first, last) > 5 * mean_error(frame(image, 0), first)  # the cars moved: not the same board
    shown = frame_times(image)
    assert shown == [FRAME_MS] * len(boards) + [END_FRAME_MS]
    assert 600 <= FRAME_MS < END_FRAME_MS  # a turn stays long enough to read; the winner longer
    (_, winners) = replay_frames(row, actions)
    assert winners and len(winners) == 1
    ending = end_frame(last, winners, RenderOptions(width=WIDTH, mode="fit"))
    assert mean_error(frame(image, image.n_frames - 1), ending) < 2.0  # the end frame is the winner's
    assert mean_error(ending, last) > 10
    assert len(data) < 2 * 1024 * 1024  # bounded (the bench goal): ~0.1 MiB for this short rally


@pytest.mark.parametrize("game_id, stage", [("dirt", "birch-ridge"), ("roadrally", "standard")])
def test_every_game_with_a_board_animates_its_replay(game_id, stage):
    row, actions = ai_log(game_id, [stage], drivers=3, seed=5)
    boards = turn_boards(row, actions)
    assert is_finished(games.get(game_id).rules, list(iter_steps(row, actions))[-1][0])
    image = replay_of(row, actions, "fr")
    assert image.n_frames - 1 == len(boards) == turns_by_hand(row, actions)  # and the end frame
    assert image.n_frames > 5
    assert mean_error(frame(image, 0), board(row, boards[0], "fr")) < 2.0  # drawn in the reader's words
    assert mean_error(frame(image, image.n_frames - 2), board(row, boards[-1], "fr")) < 2.0
    _, winners = replay_frames(row, actions)
    assert winners  # every game names its winner, Road Rally USA too
    ending = end_frame(board(row, boards[-1], "fr"), winners, RenderOptions(width=WIDTH, mode="fit", lang="fr"))
    assert mean_error(frame(image, image.n_frames - 1), ending) < 2.0


def test_a_road_rally_replay_is_built_from_spectator_views_only():
    row, actions = ai_log("roadrally", ["standard"], drivers=3, seed=5)
    game = games.get("roadrally")
    views = turn_views(row, actions)
    assert views and all(v.rr.seat is None and v.rr.me is None for v in views)
    # the game does hide something: each seat's own view of the same states holds its hand
    states = [s for s, _ in iter_steps(row, actions) if s is not None]
    assert any(game.rules.view(states[len(states) // 2], seat).rr.me is not None for seat in ("9000", "9001", "9002"))
    for data in turn_boards(row, actions):
        text = json.dumps(data)
        assert '"me"' not in text and '"hand"' not in text  # hand sizes only, never the cards


def test_an_unfinished_rally_ends_on_its_last_board_held_and_a_finished_one_on_its_winner():
    """`encode` alone: without an end frame the last board is held LAST_FRAME_MS; with one, every
    board FRAME_MS and the end frame END_FRAME_MS; the end frame names the winner, or nobody."""
    boards = [Image.new("RGB", (WIDTH, 200 + 10 * i), (40 * i, 90, 120)) for i in range(3)]
    for end, expected in ((None, [FRAME_MS, FRAME_MS, LAST_FRAME_MS]),
                          (lambda last: end_frame(last, ("Ada",), RenderOptions(width=WIDTH)),
                           [FRAME_MS] * 3 + [END_FRAME_MS])):
        image = Image.open(io.BytesIO(encode(3, lambda i: boards[i], end)))
        assert image.n_frames == len(expected) and durations(3, end is not None) == expected
        shown = frame_times(image)
        assert shown == expected
    options = RenderOptions(width=WIDTH)
    winner, nobody = end_frame(boards[-1], ("Ada",), options), end_frame(boards[-1], (), options)
    assert mean_error(winner, nobody) > 1  # different words on the band
