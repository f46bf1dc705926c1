"""DIRT's pictures: the board after a turn, the stage preview, the results card,
the view models they are drawn from, and the words they print (RULES B13: "provisional rules" on
every picture, in the reader's language)."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageStat
from pydantic import ValidationError
from render_helpers import dirt_board, dirt_preview, dirt_results

from bot.engine.dirt.stages.catalogue import load_stage, stage_names
from bot.engine.dirt.view import BoardView, CarView, DieView, ResultRow, ResultsView
from bot.i18n import catalogue
from bot.render import disk_cache
from bot.render.dirt import colours as C
from bot.render.dirt import static_layer
from bot.render.dirt.board import board_image, board_texts, map_frame, map_window, space_pixel, window_origin
from bot.render.dirt.labels import map_labels
from bot.render.dirt.layout import board_layout
from bot.render.dirt.marks import lowered
from bot.render.dirt.overlay import DIE_WORDS
from bot.render.dirt.painter import PAINTER as painter
from bot.render.dirt.panel import TOKEN_WORDS, panel_height
from bot.render.dirt.preview import LEGEND_WORDS, legend_texts
from bot.render.dirt.results import ordered
from bot.render.dirt.sample import sample_view
from bot.render.dirt.shapes import stage_shapes
from bot.render.fonts import MIN_FONT_PX
from bot.render.options import RenderOptions
from bot.render.palette import car_colour

LANGS = ("en", "fr", "de")
LONG = "wolf-forest"
SHORT = "dusty-pines"


def png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def colours(img: Image.Image) -> set[tuple[int, int, int]]:
    return {c for _, c in img.getcolors(1 << 20)}


def near(pixel, colour, tolerance: int = 8) -> bool:
    """A flat colour after the palette PNG's quantisation (a few levels off at most)."""
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def results_view() -> ResultsView:
    return ResultsView(title="Rally", columns=["SS1", "SS2"], rows=[
        ResultRow(name="Bea", status="finished", times=[610, 600], total=1210, gap=20, rank=2),
        ResultRow(name="Cem", status="out", times=[650, None], reason="4th damage token"),
        ResultRow(name="Ada", status="finished", times=[600, 590], total=1190, gap=0, rank=1),
    ])


# -- the board ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", [SHORT, LONG])
def test_a_board_decodes_at_the_phone_width_with_its_map_and_table(name):
    stage = load_stage(name)
    view = sample_view(stage)
    img = png(dirt_board(stage, view, RenderOptions()))
    layout = board_layout(stage, RenderOptions())
    assert img.size == (1080, layout.body_bottom + panel_height(view, RenderOptions()))


def test_a_long_stage_is_a_camera_window_with_an_overview_strip():
    stage = load_stage(LONG)
    layout = board_layout(stage, RenderOptions())
    assert layout.mode == "camera" and layout.overview_size is not None
    assert layout.static_size[0] > layout.map_size[0] or layout.static_size[1] > layout.map_size[1]


def test_the_whole_stage_is_drawn_when_asked_to_fit():
    stage = load_stage(SHORT)
    options = RenderOptions(mode="fit")
    assert board_layout(stage, options).mode == "fit"
    assert png(dirt_board(stage, sample_view(stage), options)).width == 1080


def test_the_picture_changes_where_a_car_moves():
    stage = load_stage(LONG)
    view = sample_view(stage)
    car = view.cars[2]
    assert car.space is not None
    ahead = stage.spaces[car.space].forward[0]
    moved = view.model_copy(update={"cars": [c.model_copy(update={"space": ahead}) if c.seat == car.seat else c
                                             for c in view.cars]})
    before, after = board_image(stage, view), board_image(stage, moved)
    assert before.size == after.size
    x, y = space_pixel(stage, ahead, RenderOptions(), moved)
    window = (x - 20, y - 12, x + 20, y + 12)
    assert before.crop(window).tobytes() != after.crop(window).tobytes()
    # the car's own colour lands on its new space
    assert car_colour(car.colour) in colours(after.crop(window))
    assert car_colour(car.colour) not in colours(before.crop(window))


def test_a_space_pixel_lies_in_the_map_band():
    stage = load_stage(LONG)
    view = sample_view(stage)
    layout = board_layout(stage, RenderOptions())
    acting = next(c for c in view.cars if c.to_act)
    assert acting.space is not None
    x, y = space_pixel(stage, acting.space, RenderOptions(), view)
    assert 0 <= x < 1080 and layout.map_top <= y < layout.map_top + layout.map_size[1]


def test_a_minus_one_token_lowers_the_corner_limits_of_its_tile_only():
    """B10: every corner limit of the tile −1 per token; a shortcut's own limit is unchanged."""
    stage = load_stage(LONG)
    marks = stage_shapes(stage).marks
    corner = next(m for m in marks if m.corner)
    assert lowered(corner, {corner.tile: 1}) == corner.value - 1
    assert lowered(corner, {corner.tile: 2}) == corner.value - 2
    assert lowered(corner, {corner.tile + 1: 1}) == corner.value
    shortcut = next(m for m in marks if m.kind == "shortcut")
    assert lowered(shortcut, {shortcut.tile: 1}) == shortcut.value


def test_the_lowered_limit_is_drawn_on_the_board():
    stage = load_stage(LONG)
    view = sample_view(stage)
    assert view.minus
    plain = view.model_copy(update={"minus": {}})
    tile = next(iter(view.minus))
    mark = next(m for m in stage_shapes(stage).marks if m.corner and m.tile == tile)
    layout = board_layout(stage, RenderOptions())
    x, y = map_frame(layout, window_origin(stage, layout, view)).px(mark.at)
    box = (round(x) - 30, round(y) - 30, round(x) + 30, round(y) + 30)
    with_token, without = board_image(stage, view).crop(box), board_image(stage, plain).crop(box)
    assert with_token.tobytes() != without.tobytes()
    assert C.MINUS_CHIP in colours(with_token) and C.MINUS_CHIP not in colours(without)


def test_a_hazard_die_is_marked_red():
    stage = load_stage(LONG)
    view = sample_view(stage)
    assert any(d.hazard for d in view.dice)
    calm = view.model_copy(update={"dice": [d.model_copy(update={"hazard": False}) for d in view.dice]})

    def reds(img: Image.Image) -> int:
        return dict((c, n) for n, c in img.getcolors(1 << 20)).get((220, 30, 30), 0)
    assert reds(board_image(stage, view)) > reds(board_image(stage, calm))


def test_cars_off_the_track_and_unknown_spaces_are_not_drawn_on_the_map():
    """Off the track: out of the rally (a car waiting to start is drawn behind the start line)."""
    stage = load_stage(SHORT)
    view = sample_view(stage)
    waiting = view.model_copy(update={"cars": [c.model_copy(update={"space": None, "status": "out"})
                                               for c in view.cars], "dice": [], "path": []})
    far = view.model_copy(update={"cars": [c.model_copy(update={"space": 10_000, "status": "out"}) for c in view.cars],
                                  "dice": [], "path": []})
    assert board_image(stage, waiting).tobytes() == board_image(stage, far).tobytes()


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_of_the_board_stays_in_its_cell_and_is_readable(lang):
    stage = load_stage(LONG)
    options = RenderOptions(lang=lang)
    for t in board_texts(stage, sample_view(stage), options):
        assert t.inside(), f"{t.what}: '{t.text}' leaves its cell in {lang}"
        assert t.size >= MIN_FONT_PX, f"{t.what}: {t.size} px"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", stage_names())
def test_the_map_labels_of_a_board_stay_inside_its_map(name, lang):
    """START, FINISH and a jump's gear are moved inside the camera window, never cut by it."""
    stage = load_stage(name)
    view = sample_view(stage)
    options = RenderOptions(lang=lang)
    layout = board_layout(stage, options)
    window = map_window(layout)
    for label in map_labels(stage, map_frame(layout, window_origin(stage, layout, view)), options, window):
        x0, y0, x1, y1 = label.box
        assert window[0] <= x0 and x1 <= window[2] and window[1] <= y0 and y1 <= window[3], label.text


def test_a_label_cut_by_the_camera_window_is_moved_inside_it():
    stage = load_stage(LONG)
    view = sample_view(stage)
    options = RenderOptions(lang="de")
    layout = board_layout(stage, options)
    window = map_window(layout)
    labels = map_labels(stage, map_frame(layout, window_origin(stage, layout, view)), options, window)
    jump = next(label for label in labels if label.text.startswith("Sprung"))
    assert jump.box[0] == window[0] + 2  # its jump is near the window's left edge: pushed right, whole


@pytest.mark.parametrize("lang", LANGS)
def test_the_board_says_provisional_rules_in_the_readers_language(lang):
    stage = load_stage(SHORT)
    texts = [t.text for t in board_texts(stage, sample_view(stage), RenderOptions(lang=lang))]
    assert catalogue(lang)["render.dirt_provisional"] in texts


def test_provisional_rules_is_translated():
    words = {lang: catalogue(lang)["render.dirt_provisional"] for lang in LANGS}
    assert "provisional rules" in words["en"]
    assert "règles provisoires" in words["fr"]
    assert "vorläufige Regeln" in words["de"]


@pytest.mark.parametrize("words", [DIE_WORDS, TOKEN_WORDS, LEGEND_WORDS])
def test_every_word_the_pictures_look_up_exists_in_every_language(words):
    for lang in LANGS:
        for key in words.values():
            assert f"render.{key}" in catalogue(lang), f"render.{key} missing in {lang}"


# -- the static layer and the worker's hooks ---------------------------------------------------------

@pytest.fixture
def empty_disk_cache(tmp_path, monkeypatch):
    """A disk cache folder of this test's own, empty (one layer serves every language, so another
    test's board may have stored it in the session's folder)."""
    monkeypatch.setattr(disk_cache, "_override", tmp_path)
    yield tmp_path
    disk_cache.flush()


def test_a_layer_is_drawn_once_then_kept_in_memory_and_on_disk(empty_disk_cache):
    stage = load_stage(SHORT)
    options = RenderOptions(lang="de")
    static_layer.cache_clear()
    board_image(stage, sample_view(stage), options)
    assert static_layer.stats.drawn == 1
    board_image(stage, sample_view(stage, round_no=8), options)
    assert static_layer.stats.drawn == 1 and static_layer.stats.hits >= 1
    disk_cache.flush()
    static_layer.cache_clear()  # a new worker: the layer is read from disk, not drawn
    board_image(stage, sample_view(stage), options)
    assert static_layer.stats.drawn == 0 and static_layer.stats.disk_hits == 1


def test_one_layer_serves_every_language(empty_disk_cache):
    stage = load_stage(SHORT)
    static_layer.cache_clear()
    for lang in LANGS:
        board_image(stage, sample_view(stage), RenderOptions(lang=lang))
    assert static_layer.stats.drawn == 1


def test_a_worker_draws_a_new_layer_window_first_and_names_it_to_warm(empty_disk_cache):
    stage = load_stage(LONG)
    options = RenderOptions(lang="fr")
    static_layer.cache_clear()
    try:
        painter.worker_init()
        before = painter.begin_draw()
        window_first = board_image(stage, sample_view(stage), options)
        assert static_layer.stats.windows == before + 1 and static_layer.stats.drawn == 0
        layer = painter.layer_to_warm(before, "board", {"stage": LONG})
        assert layer == LONG
        assert painter.layer_to_warm(painter.begin_draw(), "board", {"stage": LONG}) is None
        name = painter.warm(painter.layer(LONG), options)
        disk_cache.flush()
        assert disk_cache.exists(name)
        whole = board_image(stage, sample_view(stage), options)
        assert static_layer.stats.windows == before + 1  # the layer is kept now: no second window
        # the same picture either way, but for the whole layer's 256 colours (kept as a palette image)
        difference = ImageStat.Stat(ImageChops.difference(whole, window_first)).mean
        assert max(difference) < 1.5
    finally:
        static_layer.WINDOW_FIRST = False
        static_layer.cache_clear()


# -- the preview and the results card ----------------------------------------------------------------

@pytest.mark.parametrize("name", stage_names())
def test_every_shipped_stage_has_a_preview(name):
    img = png(dirt_preview(load_stage(name), RenderOptions()))
    assert img.width == 1080 and img.height > 600
    assert near(img.getpixel((5, img.height - 5)), C.PROVISIONAL_BG)  # the band at the bottom


def test_a_generated_stage_has_a_preview():
    img = png(dirt_preview(load_stage("gen-7-14"), RenderOptions(lang="de")))
    assert img.width == 1080


@pytest.mark.parametrize("lang", LANGS)
def test_the_preview_legend_fits_in_every_language(lang):
    for t in legend_texts(0, RenderOptions(lang=lang)):
        assert t.inside() and t.size >= MIN_FONT_PX, t.what


def test_the_results_card_lists_the_ranked_first_then_the_others():
    assert [r.name for r in ordered(results_view())] == ["Ada", "Bea", "Cem"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_results_card_decodes_and_carries_the_provisional_band(lang):
    img = png(dirt_results(results_view(), RenderOptions(lang=lang)))
    assert img.width == 1080
    assert near(img.getpixel((5, img.height - 5)), C.PROVISIONAL_BG)


# -- the view models refuse what they cannot draw ----------------------------------------------------

def car(**changes) -> dict:
    base = {"seat": "a", "name": "Ada", "colour": 0, "space": 3, "gear": 2, "pose": "normal", "status": "racing",
            "seconds": 40, "tokens": {}}
    return {**base, **changes}


@pytest.mark.parametrize("changes", [{"gear": 7}, {"gear": -1}, {"colour": 6}, {"space": -1}, {"pose": "spin"},
                                     {"status": "asleep"}, {"seconds": -10}, {"tokens": {"flat": 1}},
                                     {"tokens": {"ok": -1}}])
def test_a_car_view_refuses_what_it_cannot_draw(changes):
    with pytest.raises(ValidationError):
        CarView(**car(**changes))


def test_a_car_view_accepts_a_car_off_the_track():
    assert CarView(**car(space=None, status="waiting")).space is None


@pytest.mark.parametrize("die", ["0", "7", "W", "gear"])
def test_a_die_view_refuses_an_unknown_die(die):
    with pytest.raises(ValidationError):
        DieView(die=die, hazard=False, space=1)


def test_a_board_view_refuses_inconsistent_data():
    good = {"stage": SHORT, "round": 1, "stage_no": 1, "stages": 2, "cars": [car()]}
    assert BoardView(**good).stage == SHORT
    for bad in ({"stage_no": 3}, {"minus": {2: 0}}, {"minus": {-1: 1}}, {"path": [-2]},
                {"cars": [car(seat=str(i)) for i in range(7)]}):
        with pytest.raises(ValidationError):
            BoardView(**{**good, **bad})
    view = BoardView(**good)
    with pytest.raises(ValidationError):  # frozen
        view.round = 2  # type: ignore[misc]
    assert view.round == 1


def test_a_results_view_refuses_times_that_do_not_match_its_columns():
    with pytest.raises(ValidationError):
        ResultsView(title="t", columns=["SS1", "SS2"], rows=[ResultRow(name="a", status="finished", times=[1])])
    with pytest.raises(ValidationError):
        ResultRow(name="a", status="finished", times=[-5])
