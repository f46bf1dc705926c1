"""Static layers: bounded in memory, kept on disk by stage hash and weather, drawn by parts when new."""

from __future__ import annotations

import logging
import threading

import pytest
from PIL import Image
from render_helpers import classic_board as render_board

from bot.engine.rallyman.stages.catalogue import load_stage
from bot.render import disk_cache
from bot.render.cache import ByteLRU, image_bytes
from bot.render.options import DEFAULT_OPTIONS, RenderOptions
from bot.render.rallyman import static_layer as layers
from bot.render.rallyman.board import snow_of
from bot.render.rallyman.layout import board_layout
from bot.render.rallyman.sample import sample_view
from bot.render.rallyman.static_layer import cache_bytes, stats


@pytest.fixture
def disk(tmp_path, fresh_cache, monkeypatch):
    """An empty disk cache folder of its own."""
    monkeypatch.setattr(disk_cache, "_override", tmp_path)
    yield tmp_path
    disk_cache.flush()


def _files(folder) -> list[str]:
    disk_cache.flush()
    static = folder / "static"
    return sorted(p.name for p in static.iterdir()) if static.exists() else []


def _layer(stage, snow=frozenset(), options=DEFAULT_OPTIONS):
    return layers.static_layer(stage, board_layout(stage, options), snow, options)


def test_byte_lru_keeps_the_most_recent_within_its_bound():
    lru: ByteLRU[str] = ByteLRU(100)
    lru.put("a", "A", 40)
    lru.put("b", "B", 40)
    assert lru.get("a") == "A"  # a is now the most recent
    lru.put("c", "C", 40)  # 120 > 100: b, the least recently used, goes
    assert (lru.get("a"), lru.get("b"), lru.get("c")) == ("A", None, "C") and lru.bytes == 80
    lru.put("big", "X", 500)  # alone over the bound: kept, everything else goes
    assert len(lru) == 1 and lru.get("big") == "X"
    assert image_bytes(Image.new("P", (10, 10))) == 100 and image_bytes(Image.new("RGB", (10, 10))) == 400


def test_the_layer_cache_is_bounded_in_bytes(hill, disk, monkeypatch):
    """Its bound (CACHE_BYTES, per process) holds whatever the number of stages and weathers."""
    one = image_bytes(_layer(hill))
    layers.cache_clear()
    monkeypatch.setattr(layers, "_cache", ByteLRU(2 * one + 1))
    for snow in (frozenset(), frozenset({"Z"}), frozenset(), frozenset({"Z"})):
        for width in (1080, 720):
            _layer(hill, snow, RenderOptions(width=width))
            assert cache_bytes() <= 2 * one + 1
    assert len(layers._cache) < 4  # of the 4 layers (2 weathers × 2 widths) some had to go


def test_a_layer_is_kept_on_disk_by_stage_hash_and_weather_and_read_back_the_same(hill, disk):
    first_layer = _layer(hill)
    assert first_layer.mode == "P" and (stats.drawn, stats.disk_hits) == (1, 0)
    files = _files(disk)
    assert len(files) == 1 and files[0].startswith(disk_cache.stage_hash(hill)[:24] + "-dry-")
    layers.cache_clear()  # a restart, or another worker: memory empty, disk kept
    again = _layer(hill)
    assert (stats.misses, stats.disk_hits, stats.drawn) == (1, 1, 0)
    assert again.tobytes() == first_layer.tobytes() and again.getpalette() == first_layer.getpalette()
    _layer(hill, frozenset({"Z"}))
    _layer(hill, options=RenderOptions(lang="fr"))
    names = _files(disk)
    assert len(names) == 3 and sum("-snow-" in n for n in names) == 1
    assert not [n for n in names if n.startswith(".tmp")]  # written atomically: nothing half-written left


def test_the_name_changes_with_the_stage_the_weather_the_options_and_the_drawing_code(hill, monkeypatch):
    layout = board_layout(hill, DEFAULT_OPTIONS)
    name = disk_cache.layer_name(hill, frozenset(), layers._variant(layout, DEFAULT_OPTIONS))
    assert disk_cache.layer_name(hill, frozenset({"Z"}), layers._variant(layout, DEFAULT_OPTIONS)) != name
    other = RenderOptions(supersample=3)
    assert disk_cache.layer_name(hill, frozenset(), layers._variant(layout, other)) != name
    greystone = load_stage("greystone-col")
    assert disk_cache.stage_hash(greystone) != disk_cache.stage_hash(hill)
    monkeypatch.setattr(disk_cache, "_code_hash", "another version of the drawing code")
    assert disk_cache.layer_name(hill, frozenset(), layers._variant(layout, DEFAULT_OPTIONS)) != name


def test_a_damaged_file_is_drawn_again_and_rewritten(hill, disk, caplog):
    good = _layer(hill)
    (name,) = _files(disk)
    (disk / "static" / name).write_bytes(b"\x89PNG\r\n\x1a\n and then nothing")
    layers.cache_clear()
    with caplog.at_level(logging.WARNING, logger="bot.render.disk_cache"):
        again = _layer(hill)
    assert stats.drawn == 1 and "unreadable" in caplog.text
    assert again.tobytes() == good.tobytes()
    disk_cache.flush()
    layers.cache_clear()
    assert _layer(hill).tobytes() == good.tobytes() and stats.disk_hits == 1


def test_several_writers_of_one_layer_leave_one_whole_file(hill, disk):
    img = _layer(hill)
    (name,) = _files(disk)
    threads = [threading.Thread(target=disk_cache._write, args=(disk / "static" / name, img)) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert _files(disk) == [name]
    assert disk_cache.load(name).tobytes() == img.tobytes()


def test_the_disk_cache_can_be_turned_off(hill, fresh_cache, tmp_path, monkeypatch):
    monkeypatch.setattr(disk_cache, "_override", disk_cache._UNSET)  # as RALLYBOT_CACHE says
    monkeypatch.setenv("RALLYBOT_CACHE", "off")
    assert disk_cache.cache_dir() is None
    _layer(hill)
    monkeypatch.setenv("RALLYBOT_CACHE", str(tmp_path))
    assert disk_cache.cache_dir() == tmp_path and not (tmp_path / "static").exists()


@pytest.mark.parametrize("name", ["greystone-col", "gen-7"])
def test_a_new_layer_drawn_window_first_gives_the_very_same_board(name, disk, monkeypatch):
    """A render worker draws only the window of a layer it has nowhere (WINDOW_FIRST): the board
    is byte for byte the one drawn from the whole layer (so output never depends on the caches)."""
    stage = load_stage(name)
    view = sample_view(stage)
    monkeypatch.setattr(layers, "WINDOW_FIRST", True)
    window_first = render_board(stage, view)
    assert (stats.windows, stats.drawn) == (1, 0) and _files(disk) == []
    layout = board_layout(stage, DEFAULT_OPTIONS)
    assert layers.warm_layer(stage, layout, snow_of(stage, view), DEFAULT_OPTIONS) == "drawn"
    assert render_board(stage, view) == window_first and stats.windows == 1
    assert layers.warm_layer(stage, layout, snow_of(stage, view), DEFAULT_OPTIONS) == "memory"
    disk_cache.flush()  # the layer is written in the background: wait for it (a loaded machine is slow)
    layers.cache_clear()
    assert layers.warm_layer(stage, layout, snow_of(stage, view), DEFAULT_OPTIONS) == "disk"
    moved = view.model_copy(update={"cars": view.cars[1:]})  # another window of the same layer
    assert render_board(stage, moved) == render_board(stage, moved)


def test_a_part_of_a_layer_has_the_pixels_of_the_whole_layer():
    """Parts anywhere (edges included): shapes cut by a part's top or left edge are drawn whole."""
    stage = load_stage("ridge-and-moor")
    layout = board_layout(stage, DEFAULT_OPTIONS)
    snow = frozenset(stage.zone_order[:1])
    whole = layers.draw_static(stage, layout.frame, layout.static_size, snow, DEFAULT_OPTIONS, layout.detail)
    w, h = layout.static_size
    for box in ((0, 0, 1080, 600), (w - 1080, h - 600, w, h), (517, 303, 1597, 903), (1, 1, 300, 200)):
        part = layers.draw_static(stage, layout.frame, layout.static_size, snow, DEFAULT_OPTIONS, layout.detail, box)
        assert part.tobytes() == whole.crop(box).tobytes(), box


@pytest.mark.parametrize("name", ["pinewood-sprint", "greystone-col", "frozen-lakes", "gen-3"])
def test_every_pixel_of_a_board_is_painted(name, monkeypatch):
    """The board's canvas is not cleared first: drawn on a magenta canvas, it is the same board."""
    stage = load_stage(name)
    views = [sample_view(stage), sample_view(stage).model_copy(update={"cars": (), "path": ()})]
    normal = [render_board(stage, view) for view in views]
    new = Image.new

    def magenta(mode, size, color=0):
        return new(mode, size, (255, 0, 255) if color is None and mode == "RGB" else color)

    monkeypatch.setattr(Image, "new", magenta)
    assert [render_board(stage, view) for view in views] == normal


def test_a_layer_read_from_disk_brings_its_labels_and_places_none_again(disk, monkeypatch):
    """What the painter placed (labels, K tags) is kept in the layer's PNG, so a worker that reads
    the layer from disk has the labels a camera window redraws without placing them again."""
    stage = load_stage("frozen-lakes")
    layout = board_layout(stage, DEFAULT_OPTIONS)
    _layer(stage)
    placed = layers.label_boxes(stage, layout, frozenset(), DEFAULT_OPTIONS)
    assert any(label.text == "K4" for label in placed) and any(label.text == "SPLIT" for label in placed)
    _files(disk)
    layers.cache_clear()  # a restart: memory empty, disk kept

    def no_placing(*args, **kwargs):
        raise AssertionError("the labels were placed again")

    monkeypatch.setattr(layers, "_place_labels", no_placing)
    _layer(stage)
    assert stats.disk_hits == 1
    assert layers.label_boxes(stage, layout, frozenset(), DEFAULT_OPTIONS) == placed


def test_the_layers_on_disk_are_bounded_the_least_recently_used_deleted_first(disk, monkeypatch):
    """Each write prunes `static/` to `LAYERS_DISK_MB`: a stream of new layers never fills the
    disk; a layer read meanwhile counts as used and stays, the oldest unused goes."""
    import os

    layer = Image.new("P", (400, 400))
    layer.putdata([(x * 7 + x // 400) % 256 for x in range(400 * 400)])
    disk_cache.store("first.png", layer)
    disk_cache.flush()
    size = (disk / "static" / "first.png").stat().st_size
    monkeypatch.setattr(disk_cache, "LAYERS_DISK_MB", 3.5 * size / disk_cache.MB)  # room for three
    os.utime(disk / "static" / "first.png", (1, 1))  # written long ago …
    for n, name in enumerate(("second.png", "third.png")):
        disk_cache.store(name, layer)
        disk_cache.flush()
        os.utime(disk / "static" / name, (2 + n, 2 + n))
    assert disk_cache.load("first.png") is not None  # … but read now: the most recently used
    for n in range(4, 10):
        disk_cache.store(f"new-{n}.png", layer)
        disk_cache.flush()
        os.utime(disk / "static" / f"new-{n}.png", (n, n))
        assert len(_files(disk)) <= 3
    assert _files(disk) == ["first.png", "new-8.png", "new-9.png"]  # the one read stayed, the oldest went
    total = sum(p.stat().st_size for p in (disk / "static").iterdir())
    assert total <= disk_cache.LAYERS_DISK_MB * disk_cache.MB
