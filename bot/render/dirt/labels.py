"""The word labels of a DIRT map: START and FINISH beside their lines, "Jump 4" beside a jump (B11).

They are drawn over the static layer, not in it, so that a camera window that cuts a label moves
it inside the window (a phone reader cannot scroll): a label whose line or jump is in the visible
map is drawn whole, pushed inside the map's box if it would leave it; one whose line or jump is
out of sight is not drawn. Every word is in `options.lang`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import ImageDraw

from bot.engine.dirt.stages.model import DirtStage
from bot.render import palette as P
from bot.render.dirt import colours as C
from bot.render.dirt.shapes import stage_shapes
from bot.render.drawing import draw_text, length
from bot.render.fonts import BOARD_FONT_PX, font
from bot.render.frame import Frame
from bot.render.options import RenderOptions
from bot.render.words import word

Box = tuple[float, float, float, float]
PAD = 6


@dataclass(frozen=True)
class MapLabel:
    """A label as drawn: its text, its box (background included) and its colours."""

    text: str
    box: Box
    fill: P.RGB
    anchor: tuple[float, float]  # the point it labels, in image pixels


def map_labels(stage: DirtStage, frame: Frame, options: RenderOptions, window: Box,
               avoid: Sequence[Box] = ()) -> list[MapLabel]:
    """The labels seen in `window` (the map's box in the image), each kept inside it; START and
    FINISH beyond an end of their line, the first such place clear of the boxes in `avoid` (the
    cars waiting behind the start line: a label never sits on one)."""
    shapes = stage_shapes(stage)
    f = font(max(options.px(BOARD_FONT_PX), options.px(24)), bold=True)
    wanted: list[tuple[str, list[tuple[float, float]], tuple[float, float], P.RGB]] = []
    for (a, b), key in ((shapes.start, "start"), (shapes.finish, "finish_line")):
        mid = frame.px(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        # beyond either end of the line, nearest first: a label clear of the cars waiting behind it
        spots = [frame.px((end[0] + (end[0] - other[0]) * k, end[1] + (end[1] - other[1]) * k))
                 for k in (0.55, 0.9, 1.3) for end, other in ((b, a), (a, b))]
        wanted.append((word(key, options.lang), spots, mid, P.WHITE))
    jumps = [m for m in shapes.marks if m.kind == "jump"]
    for mark, (a, b) in zip(jumps, shapes.jumps, strict=True):  # a jump's badge, labelling its bar
        wanted.append((word("dirt_jump", options.lang, gear=mark.value), [frame.px(mark.at)],
                       frame.px(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)), C.JUMP))
    out = []
    x0, y0, x1, y1 = window
    pad = options.px(PAD)
    for text, spots, anchor, fill in wanted:
        if not (x0 <= anchor[0] <= x1 and y0 <= anchor[1] <= y1):
            continue
        w, h = length(f, text) + 2 * pad, f.size + 2 * pad
        boxes = []
        for x, y in spots:
            left = min(max(x - w / 2, x0 + 2), x1 - 2 - w)
            top = min(max(y - h / 2, y0 + 2), y1 - 2 - h)
            boxes.append((left, top, left + w, top + h))
        box = next((b for b in boxes if not any(_meet(b, c) for c in avoid)), boxes[0])
        out.append(MapLabel(text, box, fill, anchor))
    return out


def _meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def draw_labels(d: ImageDraw.ImageDraw, stage: DirtStage, frame: Frame, options: RenderOptions, window: Box,
                avoid: Sequence[Box] = ()) -> None:
    f = font(max(options.px(BOARD_FONT_PX), options.px(24)), bold=True)
    for label in map_labels(stage, frame, options, window, avoid):
        x0, y0, x1, y1 = label.box
        d.rounded_rectangle(label.box, radius=options.px(PAD), fill=label.fill, outline=P.BLACK, width=2)
        draw_text(d, ((x0 + x1) / 2, (y0 + y1) / 2), label.text, f, P.BLACK, "mm")
