"""PNG encoding of finished images: palette PNGs (≤ 256 colours), true colour on request.

A board is flat colours plus antialiased edges and text: 256 colours chosen for the image (Pillow's
fast octree, no dithering) keep it visually the same (mean error ~1/255 per channel, see
tests/render/test_render_palette.py) at a third of the bytes and half the encode time of RGB
(a long stage's board: ~100 KiB in ~13 ms instead of ~330 KiB in ~28 ms). No dithering also
keeps flat areas flat, so zlib packs them, and the output is a pure function of the image (the
same frame always gives the same bytes).

`compress_level` 1–6 only: level 9 and `optimize=True` cost 3–15× the time for 5–20 % less
(DESIGN §3). No alpha: Discord shows PNGs without transparency tricks.
"""

from __future__ import annotations

import io

from PIL import Image

COLOURS = 256


def quantize(image: Image.Image) -> Image.Image:
    """`image` (RGB) as a palette image of at most COLOURS colours chosen for it."""
    if image.mode != "RGB":
        image = image.convert("RGB")
    return image.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def to_png(image: Image.Image, compress_level: int = 3, palette: bool = True) -> bytes:
    """The PNG bytes of `image`: a palette PNG (`palette`, the default) or true colour RGB."""
    if not 1 <= compress_level <= 6:
        raise ValueError(f"compress_level {compress_level}: PNG level must be 1–6")
    if palette:
        image = image if image.mode == "P" else quantize(image)
    elif image.mode != "RGB":
        image = image.convert("RGB")
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=compress_level)
    return buf.getvalue()
