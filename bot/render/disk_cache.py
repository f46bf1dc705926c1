"""Static layers kept on disk, so a restart (or another render worker) does not draw them again.

The folder is `RALLYBOT_CACHE` (`off` turns the disk cache off), else `data/cache/` at the top of
the checkout; a render worker is told its folder when it starts (`set_cache_dir`). A layer is a
palette PNG (mode P, the layer's own ≤ 256 colours, zlib level 1: ~0.2 MB for the longest shipped
stage, written in ~20 ms and read in ~15 ms) in `static/`, named

    <stage hash>-<weather>-<variant>.png

- stage hash: SHA-256 of the stage's content (`Stage` as JSON, without its weather), so an edited
  stage file or another generated stage never reads a stale layer;
- weather: `dry`, or `snow-` and a hash of the zones on their snow side (RULES A20);
- variant: a hash of everything else the picture depends on: the layout (frame, size, detail),
  the supersampling, the language and its words, the Pillow version and the source of the modules
  that draw the layer (`CODE`), so a change to the drawing code never serves an old picture.

Writes are atomic (a temporary file in the same folder, then `os.replace`): several worker
processes may write the same layer at once, each writes the same bytes, and a reader sees a whole
file or none. A file that cannot be read is drawn again and rewritten. Writes happen in a
background thread of the process (`flush()` waits for them), so a board does not wait for its
layer to reach the disk. The layers are bounded: after each write the least recently used go
until `static/` holds at most `LAYERS_DISK_MB` (a layer read from disk counts as used: `load`
touches its file), so no stream of new stages fills the disk; a layer deleted is drawn again
when asked. Replays (bot.services.images, `replays/`, ~0.7 MB each) are bounded the same way
(`prune`).
"""

from __future__ import annotations

import hashlib
import logging
import os
import tempfile
import threading
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol

import PIL
from PIL import Image, PngImagePlugin

from bot.paths import ROOT

log = logging.getLogger(__name__)

ENV = "RALLYBOT_CACHE"
OFF = "off"
#: the modules whose code draws a static layer (their source is part of every file's name)
CODE = ("rallyman/static_layer.py", "rallyman/layer_painter.py", "drawing.py", "palette.py", "rallyman/geometry.py",
        "label_placer.py", "rallyman/terrain_marks.py", "fonts.py", "frame.py", "rallyman/layout.py", "words.py",
        "disk_cache.py")

#: the static layers kept on disk, in MB (~0.1–0.3 MB a layer: every shipped stage in every
#: language and both layouts, and a few hundred generated ones, fit)
LAYERS_DISK_MB = 200
MB = 1024 * 1024

_UNSET = object()
_override: object = _UNSET
_writer: ThreadPoolExecutor | None = None
_pending: set[Future] = set()
_lock = threading.Lock()
_code_hash: str | None = None
class Stage(Protocol):
    """What a layer's file name reads of a game's stage: its name, its spaces (their count) and its
    content as JSON (pydantic's `model_dump_json`, as classic's `Stage` gives it)."""

    name: str

    @property
    def spaces(self) -> Sequence[Any]: ...

    def model_dump_json(self, *, exclude: set[str]) -> str: ...


_stage_hashes: dict[tuple, tuple[Stage, str]] = {}


def set_cache_dir(path: Path | str | None) -> None:
    """Use `path` (None: no disk cache) in this process, whatever `RALLYBOT_CACHE` says."""
    global _override
    _override = Path(path) if path is not None else None


def reset_cache_dir() -> None:
    """Read `RALLYBOT_CACHE` again (undoes `set_cache_dir`)."""
    global _override
    _override = _UNSET


def cache_dir() -> Path | None:
    """The cache folder, or None when the disk cache is off."""
    if _override is not _UNSET:
        return _override  # type: ignore[return-value]
    env = os.environ.get(ENV, "").strip()
    if env.lower() == OFF:
        return None
    return Path(env) if env else ROOT / "data" / "cache"


def code_hash() -> str:
    """SHA-256 of the drawing code (the `CODE` modules) and the Pillow version."""
    global _code_hash
    if _code_hash is None:
        h = hashlib.sha256(PIL.__version__.encode())
        here = Path(__file__).resolve().parent
        for name in CODE:
            h.update(name.encode())
            try:
                h.update((here / name).read_bytes())
            except OSError:  # no source shipped: the Pillow version and the names only
                pass
        _code_hash = h.hexdigest()
    return _code_hash


def stage_hash(stage: Stage) -> str:
    """SHA-256 of the stage's content without its weather (computed once per stage object; the
    memo keeps its stage alive, so an id is never reused for another stage while it is kept)."""
    key = (id(stage), stage.name, len(stage.spaces))
    entry = _stage_hashes.get(key)
    if entry is None or entry[0] is not stage:
        if len(_stage_hashes) >= 64:
            _stage_hashes.clear()
        digest = hashlib.sha256(stage.model_dump_json(exclude={"snow_zones"}).encode()).hexdigest()
        entry = _stage_hashes[key] = (stage, digest)
    return entry[1]


def weather_tag(snow: frozenset[str]) -> str:
    if not snow:
        return "dry"
    return "snow-" + hashlib.sha256("\n".join(sorted(snow)).encode()).hexdigest()[:10]


def layer_name(stage: Stage, snow: frozenset[str], variant: object) -> str:
    """The file name of a layer: stage hash, weather, and a hash of `variant` and the code."""
    v = hashlib.sha256(f"{code_hash()}|{variant!r}".encode()).hexdigest()[:16]
    return f"{stage_hash(stage)[:24]}-{weather_tag(snow)}-{v}.png"


def _path(name: str) -> Path | None:
    folder = cache_dir()
    return None if folder is None else folder / "static" / name


def load(name: str) -> Image.Image | None:
    """The layer stored under `name`, or None (no such file, disk cache off, unreadable file)."""
    path = _path(name)
    if path is None:
        return None
    try:
        with Image.open(path) as img:
            img.load()
            if img.mode != "P":
                raise ValueError(f"mode {img.mode}")
        _touch(path)
        return img
    except FileNotFoundError:
        return None
    except Exception as exc:  # a damaged file: draw the layer again (and rewrite it)
        log.warning("static layer %s unreadable (%s): drawing it again", path, exc)
        return None


def _touch(path: Path) -> None:
    """Mark a layer used now (`prune` deletes the least recently used first)."""
    try:
        os.utime(path)
    except OSError:  # pruned meanwhile, or a read-only folder: it stays as it is
        pass


def exists(name: str) -> bool:
    """Whether a layer is stored under `name` (without reading it)."""
    path = _path(name)
    return path is not None and path.is_file()


#: The PNG text chunk that keeps what was placed on a layer (its labels' boxes, as JSON), so a layer
#: read from disk needs no second placement.
LABELS_CHUNK = "rallybot-labels"


def store(name: str, img: Image.Image, labels: str | None = None) -> None:
    """Write the layer under `name` in the background (atomically), with `labels` (JSON text) in its
    `LABELS_CHUNK`; errors are logged, not raised."""
    path = _path(name)
    if path is None:
        return
    global _writer
    with _lock:
        if _writer is None:
            _writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="layer-writer")
        future = _writer.submit(_write, path, img, labels)
        _pending.add(future)
    future.add_done_callback(_done)


def _done(future: Future) -> None:
    with _lock:
        _pending.discard(future)


def _write(path: Path, img: Image.Image, labels: str | None = None) -> None:
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".png", dir=path.parent)
        info = None
        if labels is not None:
            info = PngImagePlugin.PngInfo()
            info.add_text(LABELS_CHUNK, labels)
        with os.fdopen(fd, "wb") as out:
            img.save(out, format="PNG", compress_level=1, pnginfo=info)
        os.replace(tmp, path)
        tmp = None
        prune(path.parent, LAYERS_DISK_MB * MB, "*.png")
    except Exception as exc:
        log.warning("could not keep the static layer %s on disk: %s", path, exc)
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def prune(folder: Path, keep_bytes: int, pattern: str = "*") -> int:
    """Delete the least recently written files of `folder` matching `pattern` until they hold at
    most `keep_bytes` (files only, never a temporary one being written: `.tmp-`, `.replay-`);
    the bytes deleted. A file gone meanwhile (another process pruned it) is skipped."""
    found = []
    for path in folder.glob(pattern):
        if path.name.startswith("."):
            continue
        try:
            stat = path.stat()
        except OSError:
            continue
        if path.is_file():
            found.append((stat.st_mtime, path.name, stat.st_size, path))
    total = sum(size for _, _, size, _ in found)
    freed = 0
    for _, _, size, path in sorted(found):
        if total - freed <= keep_bytes:
            break
        try:
            path.unlink()
        except OSError:
            continue
        freed += size
    return freed


def flush() -> None:
    """Wait until every layer handed to `store` is on disk."""
    with _lock:
        pending = list(_pending)
    for future in pending:
        future.result()
