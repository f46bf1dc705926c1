"""Road Rally USA's pictures as outbox data: `board_data` / `results_data` built from a
view only (RULES C10.8), its pictures facet making the painter's arguments again, the results card
(C8) in EN/FR/DE, and nothing secret in the data or the PNGs."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image
from render_helpers import rr_board as render_board
from render_helpers import rr_preview as render_stage_preview
from render_helpers import rr_results as render_results

from bot.engine.roadrally import ai
from bot.engine.roadrally.actions import Retire
from bot.engine.roadrally.course import load_course
from bot.engine.roadrally.picture_data import ResultsData
from bot.engine.roadrally.pictures import PICTURES, board_data, results_data
from bot.engine.roadrally.play import apply, final_vp, new_game, ranking, to_act
from bot.engine.roadrally.view import view
from bot.render.options import RenderOptions
from bot.render.roadrally.results import table_view
from bot.render.roadrally.sample import NAMES, SEATS, ai_game
from bot.services.images import localized
from tests.render.test_rr_board import _scrambled

LANGS = ("en", "fr", "de")


def decode(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def _played(course: str, seats: int, retire_at: int | None = None, retired: str = "s2", seed: int = 3):
    """An AI game on `course` played to its end; `retired` retires (a host's action) after
    `retire_at` actions."""
    st, _ = new_game(load_course(course), SEATS[:seats], seed=seed)
    for step in range(3000):
        if st.phase == "over":
            break
        if step == retire_at:
            st, _ = apply(st, None, Retire(retired))
            continue
        seat = sorted(to_act(st))[0]
        st, _ = apply(st, seat, ai.choose(view(st, seat)))
    assert st.phase == "over"
    return st


def _moments():
    """States at every phase an AI game goes through (turn, stage window, choice, mechanic, over)."""
    seen: dict[str, object] = {}
    for actions in range(0, 600, 7):
        st = ai_game("std-7", actions=actions)
        seen.setdefault(st.phase, st)
        if st.phase == "over":
            break
    return list(seen.values())


MOMENTS = _moments()


def test_the_moments_cover_the_phases_with_secrets():
    assert {"turn", "stage", "over"} <= {st.phase for st in MOMENTS}


@pytest.mark.parametrize("st", MOMENTS, ids=lambda st: st.phase)
def test_board_data_is_json_and_the_same_from_every_seats_view(st):
    """C10.8: a seat's own view (its hand, stage cards, answer, deck top) adds nothing to the data."""
    spectator = board_data(view(st, None), NAMES)
    assert json.loads(json.dumps(spectator)) == spectator
    assert spectator["course"] == st.road.name and "road" not in spectator and "me" not in spectator
    for seat in SEATS:
        own = view(st, seat)
        assert own.me is not None
        assert board_data(own, NAMES) == spectator
        assert results_data(own, NAMES) == results_data(view(st, None), NAMES)


@pytest.mark.parametrize("st", MOMENTS, ids=lambda st: st.phase)
def test_board_picture_rebuilds_the_spectators_view_and_draws_the_same_board(st):
    spectator = view(st, None)
    road, rebuilt, names = PICTURES.board_picture(json.loads(json.dumps(board_data(view(st, "s1"), NAMES))))
    assert road == st.road and rebuilt == spectator and names == NAMES
    for lang in LANGS:
        options = RenderOptions(lang=lang)
        assert render_board(road, rebuilt, names, options) == render_board(st.road, spectator, NAMES, options)


@pytest.mark.parametrize("actions", [0, 25, 70, 2000])
def test_scrambled_secrets_change_neither_the_data_nor_the_pngs(actions):
    """C10.8: every hand, deck order, stage card and stage answer scrambled: the same data and PNGs."""
    st = ai_game("std-7", actions=actions)
    secret = _scrambled(st)
    assert any(a.hand != b.hand or a.stage_cards != b.stage_cards or a.deck != b.deck
               for a, b in zip(st.seats, secret.seats))
    board, results = board_data(view(st, None), NAMES), results_data(view(st, None), NAMES)
    assert board_data(view(secret, None), NAMES) == board
    assert results_data(view(secret, None), NAMES) == results
    for lang in LANGS:
        options = RenderOptions(lang=lang)
        for data in (board, board_data(view(secret, None), NAMES)):
            assert render_board(*PICTURES.board_picture(data), options) == \
                render_board(st.road, view(st, None), NAMES, options)
        card = render_results(PICTURES.results_picture(localized(results, lang)), options)
        assert card == render_results(PICTURES.results_picture(localized(results_data(view(secret, None), NAMES),
                                                                         lang)), options)


@pytest.mark.parametrize("course,seats", [("base", 3), ("std-7", 4), ("std-3", 5)])
def test_the_results_card_follows_the_rules_classification_with_a_retired_seat_last(course, seats):
    """C8: final VP = VP tiles + 2 per stage tile + 2 per checkpoint, best first; a retired seat
    last, unplaced."""
    st = _played(course, seats, retire_at=40)
    assert st.seats[1].retired
    data = results_data(view(st, None), NAMES)
    assert json.loads(json.dumps(data)) == data
    rows = data["rows"]
    assert [r["name"] for r in rows] == [NAMES[s] for s in ranking(st)]
    vp = final_vp(st)
    assert [r["vp"] for r in rows] == [vp[s] for s in ranking(st)]
    for r, sid in zip(rows, ranking(st)):
        seat = st.seats[st.index(sid)]
        assert (r["vp_tiles"], r["stage_tiles"], r["checkpoints"], r["mark"]) == \
            (seat.vp, len(seat.stage_tiles), seat.checkpoints, seat.mark)
        assert r["vp"] == r["vp_tiles"] + 2 * r["stage_tiles"] + 2 * r["checkpoints"]
    assert rows[-1]["name"] == NAMES["s2"] and rows[-1]["retired"] and rows[-1]["place"] is None
    assert [r["place"] for r in rows[:-1]] == list(range(1, seats))
    assert any(r["mark"] == 1 for r in rows)  # C8: the game ended because a car finished
    assert data["title"]["key"] == "roadrally.card_final"
    winner = {"name": rows[0]["name"], "vp": rows[0]["vp"]}
    assert data["subtitle"] == {"key": "roadrally.card_winner", "params": winner}


@pytest.mark.parametrize("course,seats", [("base", 3), ("std-7", 4), ("std-3", 5)])
def test_the_results_card_draws_in_every_language(course, seats, tmp_path):
    st = _played(course, seats, retire_at=40)
    data = results_data(view(st, None), NAMES)
    sizes = set()
    for lang in LANGS:
        card = PICTURES.results_picture(localized(data, lang))
        assert isinstance(card, ResultsData)
        assert "{" not in card.title + card.subtitle + card.note  # every placeholder filled
        img = decode(render_results(card, RenderOptions(lang=lang)))
        assert img.format == "PNG" and img.width == 1080
        sizes.add(img.height)
        table = table_view(card, lang)
        assert len(table.rows) == seats and table.rows[-1].muted and table.rows[-1].cells[0] == "—"
    assert min(sizes) > 300


def test_the_results_card_before_the_end_shows_the_standings_and_the_leader():
    st = ai_game("std-7", actions=70)
    assert st.phase != "over"
    data = results_data(view(st, None), NAMES)
    assert data["title"] == {"key": "roadrally.card_standings", "params": {"course": "std-7", "round": st.round}}
    assert data["subtitle"]["key"] == "roadrally.card_leader"
    assert data["rows"][0]["name"] == NAMES[ranking(st)[0]]


def test_the_results_words_differ_by_language():
    st = _played("base", 3)
    data = results_data(view(st, None), NAMES)
    titles = {lang: PICTURES.results_picture(localized(data, lang)).title for lang in LANGS}
    assert len(set(titles.values())) == 3


def test_a_preview_is_drawn_from_its_course_name():
    road = PICTURES.preview_picture("sprint-3")
    assert road == load_course("sprint-3")
    assert render_stage_preview(road) == render_stage_preview(load_course("sprint-3"))


def _board(**change):
    data = board_data(view(ai_game("std-7", actions=25), None), NAMES)
    return {**data, **change}


@pytest.mark.parametrize("change,field", [
    ({"order": ["s1", "nobody"]}, "order"),
    ({"current": "nobody"}, "current"),
    ({"phase": "lunch"}, "phase"),
    ({"seats": []}, "seats"),
    ({"hand": [[1, "green", 1]]}, "hand"),  # no field for a secret: refused, not kept
])
def test_bad_board_data_is_refused_naming_the_field(change, field):
    data = _board(**change)
    before = json.dumps(data, sort_keys=True)
    with pytest.raises(ValueError, match=field):
        PICTURES.board_picture(data)
    assert json.dumps(data, sort_keys=True) == before  # the data is left as it was


def test_a_car_beyond_the_final_space_is_refused():
    data = _board()
    data["seats"] = [{**data["seats"][0], "pos": 10_000}, *data["seats"][1:]]
    with pytest.raises(ValueError, match="beyond the final space"):
        PICTURES.board_picture(data)


def test_results_data_without_rows_is_refused():
    data = localized(results_data(view(_played("base", 3), None), NAMES))
    with pytest.raises(ValueError, match="rows"):
        PICTURES.results_picture({**data, "rows": []})
