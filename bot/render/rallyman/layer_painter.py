"""The painter of a classic stage's static layer: what the layer shows, shape by shape.

`Painter` draws on a canvas (the whole layer, or a part of it: a board's window or a band of the
layer, `static_layer.draw_static`) zone tints (snow-side zones whitish, RULES A20), terrain strips
on each side of the road (A11.3), every space as a quad or ring sector, corner notes (interior note
in a white disc, skid notes in an outlined square, "K4" on the brown shortcut area, A8), bumps
with their note (A10), split points (A21), the start and finish lines (A4.1, A15.1) and the zone
names, and places the labels (`MapLabel`). On a part, the shapes wholly off it are skipped
(`seen`, from each space's reach: `space_reach`), so a part costs what it shows and keeps the very
pixels of the whole layer. Its source is part of every layer file's name (bot.render.disk_cache).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engine.rallyman.stages.model import SpaceKind, Stage
from bot.render import palette as P
from bot.render.drawing import dashed, extend, outlined_polygon, pill, pill_size, text_centered
from bot.render.fonts import BOARD_FONT_PX, font
from bot.render.frame import Frame
from bot.render.label_placer import LabelPlacer
from bot.render.options import RenderOptions
from bot.render.rallyman.geometry import SpaceShape, StageShapes, add, left_of, stage_fingerprint, stage_shapes, unit
from bot.render.rallyman.terrain_marks import terrain_mark
from bot.render.words import word


@dataclass(frozen=True)
class MapLabel:
    """A label's text, its pill's box (x0, y0, x1, y1) and centre, and its colours."""

    text: str
    box: tuple[float, float, float, float]
    at: tuple[float, float]
    bg: P.RGB
    fg: P.RGB
    size: float = 0.0  # its font's size in pixels of the layer; 0: the map labels' font (a shortcut's K tag: its own)


_reaches: dict[tuple, tuple[float, ...]] = {}


def space_reach(stage: Stage) -> tuple[float, ...]:
    """For each space, in space units: how far its outline and terrain strips reach from its
    centre (computed once per stage; a turned and scaled frame keeps the proportions)."""
    key = stage_fingerprint(stage)
    found = _reaches.get(key)
    if found is None:
        if len(_reaches) >= 64:
            _reaches.clear()
        found = _reaches[key] = tuple(
            max(math.hypot(x - sh.centre[0], y - sh.centre[1])
                for x, y in (*sh.polygon, *(p for st in sh.strips for p in st.polygon)))
            for sh in stage_shapes(stage).spaces)
    return found


class _Moved:
    """`frame`'s pixels less a whole-pixel `offset`, subtracted after `frame.px` (exactly, so a
    part drawn alone gets the very coordinates of the whole layer, moved)."""

    def __init__(self, frame: Frame, offset: tuple[int, int]) -> None:
        self.frame, self.ox, self.oy = frame, offset[0], offset[1]
        self.ppu = frame.ppu

    def px(self, p: tuple[float, float]) -> tuple[float, float]:
        x, y = self.frame.px(p)
        return x - self.ox, y - self.oy

    def poly(self, pts) -> list[tuple[float, float]]:
        return [self.px(p) for p in pts]

    def heading(self, h: float) -> float:
        return self.frame.heading(h)


class Painter:
    def __init__(self, stage: Stage, frame: Frame, img: Image.Image, snow: frozenset[str],
                 options: RenderOptions, k: int, detail: bool, size: tuple[int, int] | None = None,
                 offset: tuple[int, int] = (0, 0)) -> None:
        # `frame` places labels in the whole layer; `self.f` draws on `img`, the part at `offset`
        self.stage, self.snow, self.k = stage, snow, k
        self.whole = frame
        self.detail, self.lang = detail, options.lang
        self.size = size or img.size
        self.attach(img, offset)
        self.shapes: StageShapes = stage_shapes(stage)
        self.u = frame.ppu  # pixels per space unit at this (supersampled) size
        s = options.scale * k
        self.label_font = font(round(BOARD_FONT_PX * s), bold=True)
        self.note_font = font(round(max(BOARD_FONT_PX * s, min(0.4 * self.u, 32 * s))), bold=True)
        self.line_w = max(1, round(0.045 * self.u))
        centres = [self.whole.px(sh.centre) for sh in self.shapes.spaces]
        for line, sgn in ((self.shapes.start, -1.0), (self.shapes.finish, 1.0)):  # room for cars there
            for along in (0.1, 0.5, 0.9, 1.2, 1.9):  # the rows of cars, ends of the bodies included
                for side in (-0.6, -0.3, 0.3, 0.6):
                    centres.append(self.whole.px(add(add(line.mid, unit(line.heading), sgn * along),
                                                 left_of(line.heading), side)))
        self.placer = LabelPlacer(centres, 0.55 * self.u, size or img.size)
        self._labels: list[MapLabel] | None = None
        self._reach: tuple[float, ...] | None = None

    def attach(self, img: Image.Image, offset: tuple[int, int]) -> None:
        """Draw on `img`, the part of the whole layer whose top-left corner is at `offset`."""
        self.img, self.offset = img, offset
        self.f: Frame | _Moved = _Moved(self.whole, offset) if offset != (0, 0) else self.whole
        self.draw = ImageDraw.Draw(img)
        #: a part of the layer (a board's window): shapes wholly off `img` are skipped (`seen`)
        self.part = offset != (0, 0) or img.size != self.size

    def seen(self, x0: float, y0: float, x1: float, y1: float, margin: float) -> bool:
        """Whether a shape within the box (x0, y0, x1, y1) grown by `margin` (pixels of `img`) may
        touch `img`: always, when the whole layer is drawn. A shape wholly off a part leaves every
        pixel of it as it was, so skipping it keeps the part's pixels those of the whole layer
        (and a window drawn first costs what it shows, not the whole stage)."""
        return not self.part or (x1 + margin >= 0 and y1 + margin >= 0 and x0 - margin <= self.img.width
                                 and y0 - margin <= self.img.height)

    def seen_space(self, sh: SpaceShape) -> bool:
        """Whether a space's outline or strips may touch `img` (skipped before their points are
        turned into pixels: most of a long stage lies off a board's window)."""
        if not self.part:
            return True
        if self._reach is None:
            self._reach = space_reach(self.stage)
        c = self.f.px(sh.centre)
        return self.seen(c[0], c[1], c[0], c[1], self._reach[sh.id] * self.u + 2 * self.line_w + 8)

    def seen_points(self, pts: list[tuple[float, float]], margin: float) -> bool:
        if not self.part:
            return True
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return self.seen(min(xs), min(ys), max(xs), max(ys), margin)

    def seen_pieces(self, pts: list[tuple[float, float]], margin: float) -> list[list[tuple[float, float]]]:
        """The runs of consecutive segments of the polyline `pts` that may touch `img` (`margin`: at
        least half the line's width), as polylines. Pillow draws a wide line segment by segment, so
        the pieces draw the very pixels `pts` draws on `img` (a line drawn with joints would lose
        only joints whose dropped segment, grown by `margin`, holds them: off `img` too)."""
        if not self.part:
            return [pts]
        pieces: list[list[tuple[float, float]]] = []
        current: list[tuple[float, float]] = []
        for a, b in zip(pts, pts[1:]):
            if self.seen(min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]), margin):
                if not current:
                    current = [a]
                current.append(b)
            elif current:
                pieces.append(current)
                current = []
        if current:
            pieces.append(current)
        return pieces

    def reach(self) -> int:
        """Pixels (a multiple of k) that bound the width and height of every shape drawn: the
        zone tint's widest segment (its band is 4.4 spaces wide), the label pills, and 4.5 spaces
        for the rest (spaces, strips, bumps, zone seams and notes are smaller)."""
        f = self.whole
        w = round(4.4 * self.u)
        pts = [f.px(self.shapes.start.mid)]
        pts += [f.px((s.x, s.y)) for s in sorted(self.stage.spaces, key=lambda s: s.progress)
                if s.kind not in (SpaceKind.SKID, SpaceKind.SHORTCUT)]
        pts.append(f.px(self.shapes.finish.mid))
        longest = max((abs(a[0] - b[0]) + abs(a[1] - b[1]) for a, b in zip(pts, pts[1:])), default=0.0)
        pills = [max(label.box[2] - label.box[0], label.box[3] - label.box[1]) for label in self.placed_labels()]
        reach = max(longest + w, 4.5 * self.u, *pills) + 4 * self.k
        return -(-math.ceil(reach) // self.k) * self.k

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
        margin = w / 2 + 4  # a segment's half width and more
        for zone, pts in runs:
            colour = P.SNOW_TINT if self.snowy(zone) else P.ZONE_TINTS[order.get(zone, 0) % 2]
            for piece in self.seen_pieces(pts, margin):
                # no `joint="curve"`: each joint's pie (radius w/2 - 1) and gap line lie inside the
                # disc drawn below at its point, in the same colour (the same pixels without them,
                # checked on every shipped stage; ~250 pies fewer per layer)
                self.draw.line(piece, fill=colour, width=w)
            for p in pts:  # round caps and joints; also hides hairline seams between wide segments
                if self.seen(p[0], p[1], p[0], p[1], margin):
                    self.draw.ellipse((p[0] - w / 2, p[1] - w / 2, p[0] + w / 2, p[1] + w / 2), fill=colour)

    def strips(self) -> None:
        """Terrain beside the road, each with a small mark so colour is not the only cue."""
        marks = []
        for sh in self.shapes.spaces:
            if not self.seen_space(sh):
                continue
            snowy = self.snowy(self.stage.spaces[sh.id].zone)
            for st in sh.strips:
                colour = P.TERRAIN[st.terrain]
                if snowy:
                    colour = P.mix(colour, P.WHITE, P.SNOW_BLEACH)
                pts = self.f.poly(st.polygon)
                if not self.seen_points(pts, 4):
                    continue  # wholly off this part of the layer: its mark (inside it) too
                self.draw.polygon(pts, fill=colour)
                centroid = (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
                marks.append((st.terrain, colour, centroid))
        if self.detail:
            r = 0.13 * self.u
            for terrain, colour, c in marks:
                if self.seen(c[0], c[1], c[0], c[1], 2 * r + 4):  # a mark stays within 1.2 r of its centre
                    terrain_mark(self.draw, terrain, colour, c, r)

    def road(self) -> None:
        for sh in self.shapes.spaces:
            if not self.seen_space(sh):
                continue
            space = self.stage.spaces[sh.id]
            snow_surface = space.surface(self.snowy(space.zone)).value == "snow"
            if sh.kind is SpaceKind.SHORTCUT:
                fill, line = P.SHORTCUT, P.mix(P.SHORTCUT, P.WHITE, 0.5)
            elif snow_surface:
                fill, line = P.SNOW_ROAD, P.SNOW_LINE
            else:
                fill, line = P.ASPHALT, P.ASPHALT_LINE
            outlined_polygon(self.img, self.f.poly(sh.polygon), fill, line, self.line_w)

    def bumps(self) -> None:
        """A yellow speed-bump band across the bump space (RULES A10); its note is drawn with the notes."""
        for sh in self.shapes.spaces:
            if sh.kind is not SpaceKind.BUMP:
                continue
            d, n = unit(sh.heading), left_of(sh.heading)
            hw, depth = sh.half_width * 0.96, 0.17
            band = [add(add(sh.centre, n, hw), d, -depth), add(add(sh.centre, n, hw), d, depth),
                    add(add(sh.centre, n, -hw), d, depth), add(add(sh.centre, n, -hw), d, -depth)]
            outlined_polygon(self.img, self.f.poly(band), P.BUMP, P.ROAD_EDGE, self.line_w)
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
            if not self.seen(c[0], c[1], c[0], c[1], 2 * r + nf.size * (len(text) + 3) + 8):
                continue  # its disc, square or K tag (text and padding) lies wholly off this part
            if sh.kind is SpaceKind.INTERIOR:
                self.draw.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=P.WHITE, outline=P.ROAD_EDGE,
                                  width=self.line_w)
                text_centered(self.draw, c, text, nf, P.BLACK, cache=False)
            elif sh.kind is SpaceKind.SKID:
                self.draw.rounded_rectangle((c[0] - r, c[1] - r, c[0] + r, c[1] + r), radius=r * 0.3,
                                            outline=P.WHITE, width=max(2, self.line_w))
                text_centered(self.draw, c, text, nf, P.WHITE, cache=False)
            elif sh.kind is SpaceKind.SHORTCUT:
                shortcuts.append((c, f"K{text}"))
            elif sh.kind is SpaceKind.BUMP:
                self.draw.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=P.BUMP, outline=P.BLACK,
                                  width=self.line_w)
                text_centered(self.draw, c, text, nf, P.BLACK, cache=False)
        for c, text in shortcuts:  # last, on a brown tag: tight hairpins squeeze the shortcut area
            pill(self.draw, c, text, nf, P.SHORTCUT, P.WHITE, 0.18 * nf.size, outline=P.WHITE, outline_w=self.k,
                 cache=False)

    def labels(self) -> None:
        """START, FINISH, SPLIT and zone names, each in a pill beside the road."""
        lf, pad = self.label_font, 0.4 * self.label_font.size
        ox, oy = self.offset
        for label in self.placed_labels():
            x0, y0, x1, y1 = label.box
            if not self.seen(x0 - ox, y0 - oy, x1 - ox, y1 - oy, lf.size + 2 * self.k + 8):
                continue  # its pill (box, outline and text) lies wholly off this part
            pill(self.draw, (label.at[0] - ox, label.at[1] - oy), label.text, lf, label.bg, label.fg, pad,
                 outline=P.ROAD_EDGE, outline_w=max(1, self.k), cache=False)

    def shortcut_tags(self) -> list[MapLabel]:
        """The K tags of the shortcut spaces as `notes` draws them (text, pill box, centre, colours,
        font size), in pixels of the whole layer: a camera window that cuts one draws it again."""
        nf, tags = self.note_font, []
        for sh in self.shapes.spaces:
            space = self.stage.spaces[sh.id]
            if space.note is None or sh.kind is not SpaceKind.SHORTCUT:
                continue
            c = self.whole.px(sh.centre)
            text = f"K{space.note}"
            w, h = pill_size(text, nf, 0.18 * nf.size)
            tags.append(MapLabel(text, (c[0] - w / 2, c[1] - h / 2, c[0] + w / 2, c[1] + h / 2), c, P.SHORTCUT,
                                 P.WHITE, float(nf.size)))
        return tags

    def placed_labels(self) -> list[MapLabel]:
        """Where each label goes (its text and pill box); the words are in the image's language.
        Placed once (the placer remembers what it placed)."""
        if self._labels is None:
            self._labels = self._place_labels()
        return self._labels

    def _place_labels(self) -> list[MapLabel]:
        lf, pad = self.label_font, 0.4 * self.label_font.size
        dists = tuple(x * self.u for x in (1.25, 1.7, 2.3, 3.0, 3.8, 4.8))  # far ones: long words in tight spots
        st, fi = self.shapes.start, self.shapes.finish
        items = [
            (self.whole.px(add(st.mid, unit(st.heading), -0.6)), st.heading, word("start", self.lang), P.START_RED,
             P.WHITE),
            (self.whole.px(add(fi.mid, unit(fi.heading), 0.6)), fi.heading, word("finish_line", self.lang),
             P.FINISH_YELLOW, P.BLACK),
        ]
        for i, sp in enumerate(self.shapes.splits, 1):
            name = word("split", self.lang) if len(self.shapes.splits) == 1 else word("split_n", self.lang, n=i)
            items.append((self.whole.px(sp.mid), sp.heading, name, P.SPLIT, P.WHITE))
        zones = 0
        if self.detail or len(self.stage.zone_order) > 1:
            seen: set[str] = set()
            for s in sorted(self.stage.spaces, key=lambda s: s.progress):
                if s.zone in seen:
                    continue
                seen.add(s.zone)
                zone = self.stage.zones[s.zone]
                text = f"{zone.letter} · {zone.name}" + (" ❄" if self.snowy(s.zone) else "")
                items.append((self.whole.px((s.x, s.y)), s.heading, text, P.WHITE, P.PANEL_TEXT))
                zones += 1
        for tag in self.shortcut_tags():  # drawn on the road: no label covers a K tag
            self.placer.keep_clear(tag.box)
        out = []
        for i, (anchor, heading, text, bg, fg) in enumerate(items):
            w, h = pill_size(text, lf, pad)
            if i < len(items) - zones:
                at: tuple[float, float] | None = self.placer.place(anchor, self.whole.heading(heading), (w, h), dists)
            else:  # a zone's name where there is room for it only (the preview's legend names every zone)
                at = self.placer.place_free(anchor, self.whole.heading(heading), (w, h), dists)
            if at is not None:
                out.append(MapLabel(text, (at[0] - w / 2, at[1] - h / 2, at[0] + w / 2, at[1] + h / 2), at, bg, fg))
        return out
