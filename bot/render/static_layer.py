"""The part of a board that never changes during a rally, drawn once per stage and weather.

Drawn at `supersample`× and downscaled with LANCZOS, which antialiases every edge for the price
of one resize; then kept in memory (keyed by stage, snow zones and size) so a turn only copies it
and draws the cars. Contents: zone tints (snow-side zones whitish, RULES A20), terrain strips on
each side of the road (A11.3), every space as a quad or ring sector, corner notes (interior note
in a white disc, skid notes in an outlined square, "K4" on the brown shortcut area, A8), bumps with
their note (A10), split points (A21), the start and finish lines (A4.1, A15.1), zone names. Its
words (START, FINISH, SPLIT) are in `options.lang`, which is part of the cache key.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engine.stage_model import SpaceKind, Stage
from bot.render import palette as P
from bot.render.drawing import dashed, extend, pill, pill_size, text_centered
from bot.render.fonts import MIN_FONT_PX, font
from bot.render.frame import Frame
from bot.render.geometry import StageShapes, add, left_of, stage_fingerprint, stage_shapes, unit
from bot.render.label_placer import LabelPlacer
from bot.render.layout import MapLayout
from bot.render.options import RenderOptions
from bot.render.terrain_marks import terrain_mark
from bot.render.words import word

#: memory kept for static layers (a long stage at camera scale is ~15 MB); least recently used go first
CACHE_BYTES = 96 * 1024 * 1024


@dataclass
class CacheStats:
    """Counters of the static-layer cache, for tests and logs."""

    hits: int = 0
    misses: int = 0


_cache: OrderedDict[tuple, Image.Image] = OrderedDict()
_lock = threading.Lock()
stats = CacheStats()


def cache_clear() -> None:
    """Forget every cached layer and zero the counters."""
    with _lock:
        _cache.clear()
        stats.hits = stats.misses = 0


def static_layer(stage: Stage, layout: MapLayout, snow: frozenset[str], options: RenderOptions) -> Image.Image:
    """The cached static layer (treat it as read-only: copy before drawing on it)."""
    key = (stage_fingerprint(stage), tuple(sorted(snow)), layout.static_size, layout.frame,
           options.supersample, layout.detail, options.lang)
    with _lock:
        img = _cache.get(key)
        if img is not None:
            _cache.move_to_end(key)
            stats.hits += 1
            return img
        stats.misses += 1
    img = draw_static(stage, layout.frame, layout.static_size, snow, options, layout.detail)
    with _lock:
        _cache[key] = img
        while len(_cache) > 1 and sum(_bytes(i) for i in _cache.values()) > CACHE_BYTES:
            _cache.popitem(last=False)
    return img


def _bytes(img: Image.Image) -> int:
    return img.width * img.height * len(img.getbands())


def draw_static(stage: Stage, frame: Frame, size: tuple[int, int], snow: frozenset[str],
                options: RenderOptions, detail: bool = True) -> Image.Image:
    """Draw the static layer of `stage` at `size` (supersampled, then downscaled)."""
    k = options.supersample
    big = Image.new("RGB", (size[0] * k, size[1] * k), P.PAPER)
    _Painter(stage, frame.scaled(k), big, snow, options, k, detail).paint()
    return big if k == 1 else big.resize(size, Image.Resampling.LANCZOS)


def label_boxes(stage: Stage, layout: MapLayout, snow: frozenset[str], options: RenderOptions) -> list[MapLabel]:
    """The labels of the static layer (START, FINISH, splits, zone names) as they are placed, in
    pixels of the layer: what the tests check for fit (in the layer, no two overlapping)."""
    k = options.supersample
    painter = _Painter(stage, layout.frame.scaled(k), Image.new("RGB", (1, 1)), snow, options, k, layout.detail,
                       size=(layout.static_size[0] * k, layout.static_size[1] * k))
    return [MapLabel(label.text, (label.box[0] / k, label.box[1] / k, label.box[2] / k, label.box[3] / k),
                     label.at, label.bg, label.fg) for label in painter.placed_labels()]


@dataclass(frozen=True)
class MapLabel:
    """A label's text, its pill's box (x0, y0, x1, y1) and centre, and its colours."""

    text: str
    box: tuple[float, float, float, float]
    at: tuple[float, float]
    bg: P.RGB
    fg: P.RGB


class _Painter:
    def __init__(self, stage: Stage, frame: Frame, img: Image.Image, snow: frozenset[str],
                 options: RenderOptions, k: int, detail: bool, size: tuple[int, int] | None = None) -> None:
        self.stage, self.f, self.img, self.snow, self.k = stage, frame, img, snow, k
        self.detail, self.lang = detail, options.lang
        self.draw = ImageDraw.Draw(img)
        self.shapes: StageShapes = stage_shapes(stage)
        self.u = frame.ppu  # pixels per space unit at this (supersampled) size
        s = options.scale * k
        self.label_font = font(round(MIN_FONT_PX * s), bold=True)
        self.note_font = font(round(max(MIN_FONT_PX * s, min(0.4 * self.u, 32 * s))), bold=True)
        self.line_w = max(1, round(0.045 * self.u))
        centres = [self.f.px(sh.centre) for sh in self.shapes.spaces]
        for line, sgn in ((self.shapes.start, -1.0), (self.shapes.finish, 1.0)):  # room for cars there
            for along in (0.5, 1.2, 1.9):
                for side in (-0.3, 0.3):
                    centres.append(self.f.px(add(add(line.mid, unit(line.heading), sgn * along),
                                                 left_of(line.heading), side)))
        self.placer = LabelPlacer(centres, 0.55 * self.u, size or img.size)

    def snowy(self, zone: str) -> bool:
        return zone in self.snow

    def paint(self) -> None:
        self.zone_tints()
        self.strips()
        self.road()
        self.bumps()
        self.zone_borders()
        self.lines()
        if self.detail:
            self.notes()
        self.labels()

    # -- layers ----------------------------------------------------------------------------------
    def zone_tints(self) -> None:
        """A broad band of the zone's colour under the road; snow-side zones are whitish."""
        order = {z: i for i, z in enumerate(self.stage.zone_order)}
        w = round(4.4 * self.u)
        spaces = sorted(self.stage.spaces, key=lambda s: s.progress)
        runs: list[tuple[str, list]] = []
        for s in spaces:
            if s.kind in (SpaceKind.SKID, SpaceKind.SHORTCUT):
                continue
            p = self.f.px((s.x, s.y))
            if runs and runs[-1][0] == s.zone:
                runs[-1][1].append(p)
            else:
                if runs:
                    runs[-1][1].append(p)
                runs.append((s.zone, [p]))
        runs[0][1].insert(0, self.f.px(self.shapes.start.mid))
        runs[-1][1].append(self.f.px(self.shapes.finish.mid))
        for zone, pts in runs:
            colour = P.SNOW_TINT if self.snowy(zone) else P.ZONE_TINTS[order.get(zone, 0) % 2]
            self.draw.line(pts, fill=colour, width=w, joint="curve")
            for p in pts:  # round caps and joints; also hides hairline seams between wide segments
                self.draw.ellipse((p[0] - w / 2, p[1] - w / 2, p[0] + w / 2, p[1] + w / 2), fill=colour)

    def strips(self) -> None:
        """Terrain beside the road, each with a small mark so colour is not the only cue."""
        marks = []
        for sh in self.shapes.spaces:
            snowy = self.snowy(self.stage.spaces[sh.id].zone)
            for st in sh.strips:
                colour = P.TERRAIN[st.terrain]
                if snowy:
                    colour = P.mix(colour, P.WHITE, P.SNOW_BLEACH)
                pts = self.f.poly(st.polygon)
                self.draw.polygon(pts, fill=colour)
                centroid = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
                marks.append((st.terrain, colour, centroid))
        if self.detail:
            for terrain, colour, c in marks:
                terrain_mark(self.draw, terrain, colour, c, 0.13 * self.u)

    def road(self) -> None:
        for sh in self.shapes.spaces:
            space = self.stage.spaces[sh.id]
            snow_surface = space.surface(self.snowy(space.zone)).value == "snow"
            if sh.kind is SpaceKind.SHORTCUT:
                fill, line = P.SHORTCUT, P.mix(P.SHORTCUT, P.WHITE, 0.5)
            elif snow_surface:
                fill, line = P.SNOW_ROAD, P.SNOW_LINE
            else:
                fill, line = P.ASPHALT, P.ASPHALT_LINE
            self.draw.polygon(self.f.poly(sh.polygon), fill=fill, outline=line, width=self.line_w)

    def bumps(self) -> None:
        """A yellow speed-bump band across the bump space (RULES A10); its note is drawn with the notes."""
        for sh in self.shapes.spaces:
            if sh.kind is not SpaceKind.BUMP:
                continue
            d, n = unit(sh.heading), left_of(sh.heading)
            hw, depth = sh.half_width * 0.96, 0.17
            band = [add(add(sh.centre, n, hw), d, -depth), add(add(sh.centre, n, hw), d, depth),
                    add(add(sh.centre, n, -hw), d, depth), add(add(sh.centre, n, -hw), d, -depth)]
            self.draw.polygon(self.f.poly(band), fill=P.BUMP, outline=P.ROAD_EDGE, width=self.line_w)
            for i in range(-3, 4):  # black chevron stripes, like a painted bump
                a = add(add(sh.centre, n, i * hw / 3.5 + 0.08), d, -depth)
                b = add(add(sh.centre, n, i * hw / 3.5 - 0.08), d, depth)
                self.draw.line([self.f.px(a), self.f.px(b)], fill=P.ROAD_EDGE, width=max(1, round(0.06 * self.u)))

    def zone_borders(self) -> None:
        """Where a new zone board begins (RULES A1): a seam across road and verges, like two boards meeting."""
        prev = None
        for s in sorted(self.stage.spaces, key=lambda s: s.progress):
            if s.kind in (SpaceKind.SKID, SpaceKind.SHORTCUT):
                continue
            if prev is not None and s.zone != prev:
                sh = self.shapes.shape(s.id)
                a, b = extend(self.f.px(sh.entry[0]), self.f.px(sh.entry[1]), 1.2 * self.u)
                self.draw.line([a, b], fill=P.ROAD_EDGE, width=max(2, round(0.07 * self.u)))
            prev = s.zone

    def lines(self) -> None:
        """Start (red), finish (chequered on yellow), split points (dashed purple)."""
        w = max(2, round(0.16 * self.u))
        st = self.shapes.start
        self.draw.line([self.f.px(st.a), self.f.px(st.b)], fill=P.START_RED, width=w)
        fi = self.shapes.finish
        self._chequer(fi.a, fi.b, fi.heading)
        for sp in self.shapes.splits:
            dashed(self.draw, self.f.px(sp.a), self.f.px(sp.b), P.SPLIT, max(2, round(0.1 * self.u)), 0.16 * self.u)

    def _chequer(self, a, b, heading) -> None:
        d = unit(heading)
        n_sq = 8
        depth = 0.22
        for row in range(2):
            for i in range(n_sq):
                t0, t1 = i / n_sq, (i + 1) / n_sq
                p0 = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
                p1 = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
                o0, o1 = (row - 1) * depth, row * depth
                quad = [add(p0, d, o0), add(p1, d, o0), add(p1, d, o1), add(p0, d, o1)]
                colour = P.BLACK if (i + row) % 2 else P.WHITE
                self.draw.polygon(self.f.poly(quad), fill=colour)

    def notes(self) -> None:
        nf = self.note_font
        r = 0.26 * self.u
        shortcuts = []
        for sh in self.shapes.spaces:
            space = self.stage.spaces[sh.id]
            if space.note is None:
                continue
            c = self.f.px(sh.centre)
            text = str(space.note)
            if sh.kind is SpaceKind.INTERIOR:
                self.draw.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=P.WHITE, outline=P.ROAD_EDGE,
                                  width=self.line_w)
                text_centered(self.draw, c, text, nf, P.BLACK)
            elif sh.kind is SpaceKind.SKID:
                self.draw.rounded_rectangle((c[0] - r, c[1] - r, c[0] + r, c[1] + r), radius=r * 0.3,
                                            outline=P.WHITE, width=max(2, self.line_w))
                text_centered(self.draw, c, text, nf, P.WHITE)
            elif sh.kind is SpaceKind.SHORTCUT:
                shortcuts.append((c, f"K{text}"))
            elif sh.kind is SpaceKind.BUMP:
                self.draw.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=P.BUMP, outline=P.BLACK,
                                  width=self.line_w)
                text_centered(self.draw, c, text, nf, P.BLACK)
        for c, text in shortcuts:  # last, on a brown tag: tight hairpins squeeze the shortcut area
            pill(self.draw, c, text, nf, P.SHORTCUT, P.WHITE, 0.18 * nf.size, outline=P.WHITE, outline_w=self.k)

    def labels(self) -> None:
        """START, FINISH, SPLIT and zone names, each in a pill beside the road."""
        lf, pad = self.label_font, 0.4 * self.label_font.size
        for label in self.placed_labels():
            pill(self.draw, label.at, label.text, lf, label.bg, label.fg, pad, outline=P.ROAD_EDGE,
                 outline_w=max(1, self.k))

    def placed_labels(self) -> list[MapLabel]:
        """Where each label goes (its text and pill box); the words are in the image's language."""
        lf, pad = self.label_font, 0.4 * self.label_font.size
        dists = tuple(x * self.u for x in (1.25, 1.7, 2.3, 3.0, 3.8, 4.8))  # far ones: long words in tight spots
        st, fi = self.shapes.start, self.shapes.finish
        items = [
            (self.f.px(add(st.mid, unit(st.heading), -0.6)), st.heading, word("start", self.lang), P.START_RED,
             P.WHITE),
            (self.f.px(add(fi.mid, unit(fi.heading), 0.6)), fi.heading, word("finish_line", self.lang),
             P.FINISH_YELLOW, P.BLACK),
        ]
        for i, sp in enumerate(self.shapes.splits, 1):
            name = word("split", self.lang) if len(self.shapes.splits) == 1 else word("split_n", self.lang, n=i)
            items.append((self.f.px(sp.mid), sp.heading, name, P.SPLIT, P.WHITE))
        if self.detail or len(self.stage.zone_order) > 1:
            seen: set[str] = set()
            for s in sorted(self.stage.spaces, key=lambda s: s.progress):
                if s.zone in seen:
                    continue
                seen.add(s.zone)
                zone = self.stage.zones[s.zone]
                text = f"{zone.letter} · {zone.name}" + (" ❄" if self.snowy(s.zone) else "")
                items.append((self.f.px((s.x, s.y)), s.heading, text, P.WHITE, P.PANEL_TEXT))
        out = []
        for anchor, heading, text, bg, fg in items:
            w, h = pill_size(text, lf, pad)
            at = self.placer.place(anchor, self.f.heading(heading), (w, h), dists)
            out.append(MapLabel(text, (at[0] - w / 2, at[1] - h / 2, at[0] + w / 2, at[1] + h / 2), at, bg, fg))
        return out
