"""Animated replays: a rally's boards, one per turn, encoded together as one animated WebP.

Why animated WebP and not APNG ("the one with the better size for the same frames"),
measured on a 3-special classic rally of 4 AI cars (135 frames of 800 px, one palette for all):
lossless WebP (method 1, no key frame but the first) 828 KiB, APNG (the same palette, unchanged
pixels transparent, zlib 3) 1716 KiB, lossy WebP (q 75) 3031 KiB with blurred text; APNG with a
palette per frame 11 MiB (the header and the table change at the top and the bottom of every
frame, so Pillow's changed box is the whole frame). The APNG encodes faster (~1 s against ~2.5 s
for those frames on a free core), but the brief's rule is the size, and only the WebP leaves room
under 2 MiB for longer rallies (at 640 px, the width kept: 678 KiB and 2.9 s for 141 frames on one
free core, against 881 KiB and 4.1 s at 800 px, whose right-hand column was cut in `fit` mode
anyway). One format for every replay: encoding both to keep the smaller
would double the time. Discord shows animated WebP in its embeds (phone and desktop).

The frames:
- drawn at `WIDTH` px wide with the whole stage fitted (`mode="fit"`): the map stays still and only
  the cars, the dice, the header and the time table change, which is what the encoder's changed
  rectangles and its colour cache pack well (a camera view that follows the active car would move
  the whole picture every turn);
- reduced to one palette of `COLOURS` colours chosen on a few frames (first, middle, last, end), no
  dithering, and kept so (a byte a pixel) until the encoder takes them one at a time: flat areas
  stay flat and identical from frame to frame, so lossless WebP stores them once (its
  colour-indexing transform) and the replay is a pure function of the boards;
- padded to the tallest frame (each special of a rally has its own height) with the frame's own
  bottom colour;
- `FRAME_MS` each: long enough to see who moved where in a turn (300 ms was too fast to read one);
- then, for a finished rally, an end frame (`end_frame`): the last board dimmed under the name of
  the rally's winner (the whole rally's, over every special; the names on a tie), held
  `END_FRAME_MS`; an unfinished one ends on its last board, held `LAST_FRAME_MS`.

Size: one frame per turn keeps a rally's replay small: 837 KiB for a 3-special classic rally of 4
AI cars (141 turns and the end frame, `bench replay`; 678 KiB before the boards' text grew to the
phone's readable size), under the bench's 2 MiB goal and Discord's 8 MiB attachment limit; the
frame time does not change it.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from bot.render import palette as P
from bot.render.drawing import text_centered
from bot.render.fonts import BOARD_FONT_PX, fit_text, fitting_font
from bot.render.options import RenderOptions
from bot.render.words import word

FORMAT = "webp"
MIME = "image/webp"
WIDTH = 640  # px: sharp on a phone's Discord embed (about 400 px wide), and the animation stays small
FRAME_MS = 800
LAST_FRAME_MS = 4000
END_FRAME_MS = 6000
COLOURS = 255
METHOD = 1  # libwebp effort 0–6: 0 is 8× larger here, 2+ costs twice the time for < 1 % less
QUALITY = 0  # lossless: the effort within the method; 25 gives 8 % less for 45 % more time
#: key frames: none but the first (`kmin`/`kmax` above the frame count: a looping animation is never
#: sought into); 15 % smaller and faster than libwebp's default
#: what the picture depends on besides its boards (a cached replay of another style is drawn again)
STYLE = f"webp-{WIDTH}-{FRAME_MS}-{LAST_FRAME_MS}-{END_FRAME_MS}-{COLOURS}-m{METHOD}-q{QUALITY}-k-end"


def durations(count: int, end: bool = False) -> list[int]:
    """Each frame's time on screen in ms for `count` boards: `FRAME_MS`, then with `end` the end
    frame's `END_FRAME_MS` (one frame more), else the last board's `LAST_FRAME_MS`."""
    if not count:
        return []
    if end:
        return [FRAME_MS] * count + [END_FRAME_MS]
    return [FRAME_MS] * (count - 1) + [LAST_FRAME_MS]


def end_frame(last: Image.Image, winners: Sequence[str], options: RenderOptions) -> Image.Image:
    """The replay's end frame: the last board (`last`, RGB) dimmed, the winner's name (several on a
    tie; "no driver reached the finish" when none) on a dark band across its middle, in
    `options.lang`, as large as the width allows (never below BOARD_FONT_PX)."""
    frame = Image.blend(last.convert("RGB"), Image.new("RGB", last.size, P.HEADER_BG), 0.55)
    lang, px = options.lang, options.px
    if not winners:
        line = word("replay_no_winner", lang)
    elif len(winners) == 1:
        line = word("replay_winner", lang, name=winners[0])
    else:
        line = word("replay_winners", lang, names=" · ".join(winners))
    room = frame.width - 2 * px(40)
    f = fitting_font(line, px(64), px(BOARD_FONT_PX), room, bold=True)
    line = fit_text(line, f, room)
    band = px(64) * 2.2
    top = (frame.height - band) / 2
    d = ImageDraw.Draw(frame)
    d.rectangle((0, top, frame.width, top + band), fill=P.HEADER_BG)
    d.rectangle((0, top, frame.width, top + px(6)), fill=P.FINISH_YELLOW)
    d.rectangle((0, top + band - px(6), frame.width, top + band), fill=P.FINISH_YELLOW)
    text_centered(d, (frame.width / 2, top + band / 2), line, f, P.FINISH_YELLOW, cache=False)
    return frame


def shared_palette(frames: Sequence[Image.Image]) -> Image.Image:
    """A palette image of at most `COLOURS` colours chosen on `frames` (RGB, one width) together."""
    mosaic = Image.new("RGB", (frames[0].width, sum(f.height for f in frames)))
    top = 0
    for frame in frames:
        mosaic.paste(frame, (0, top))
        top += frame.height
    return mosaic.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def padded(frame: Image.Image, height: int) -> Image.Image:
    """A palette frame on a canvas `height` px tall, the rest filled with its bottom-left colour."""
    if frame.height == height:
        return frame
    canvas = Image.new("P", (frame.width, height), frame.getpixel((0, frame.height - 1)))
    canvas.putpalette(frame.getpalette() or [])
    canvas.paste(frame, (0, 0))
    return canvas


def encode(count: int, draw: Callable[[int], Image.Image],
           end: Callable[[Image.Image], Image.Image] | None = None) -> bytes:
    """The animated WebP of `count` boards (at least one), looping forever; `draw(i)` gives board
    `i` (RGB); `end(last board)`, when given, the end frame after them (`end_frame`). The frames
    are drawn one at a time and kept in the shared palette only (one byte a pixel: ~61 MB for 141
    frames of 640 × 673 rather than ~182 MB of RGB); the first, middle and last boards and the end
    frame are drawn first, to choose the palette on them."""
    if count < 1:
        raise ValueError("an animation needs at least one frame")
    samples = {i: draw(i) for i in sorted({0, count // 2, count - 1})}
    closing = end(samples[count - 1]) if end is not None else None
    palette = shared_palette(list(samples.values()) + ([closing] if closing is not None else []))
    frames = []
    for i in range(count):
        rgb = samples.pop(i) if i in samples else draw(i)
        frames.append(rgb.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE))
    if closing is not None:
        frames.append(closing.quantize(palette=palette, dither=Image.Dither.NONE))
    height = max(f.height for f in frames)
    ready = [padded(f, height) for f in frames]
    buf = io.BytesIO()
    total = len(ready)
    ready[0].save(buf, format="WEBP", save_all=True, append_images=ready[1:],
                  duration=durations(count, closing is not None), loop=0, lossless=True, method=METHOD,
                  quality=QUALITY, kmin=total, kmax=total + 1)
    return buf.getvalue()
