"""How a board image is drawn: output width, map mode, PNG compression, language.

One frozen, hashable value so it can be part of the static-layer cache key (the static layer prints
words, START and FINISH, so its language is part of the key). Defaults aim at a phone: Discord
shows an attachment at the screen's width, so the image is ~1080 px wide and every text is at
least `min_font` px high at that width.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class RenderOptions:
    """View options of the renderer (all images are pure functions of state + these)."""

    width: int = 1080
    #: "auto": the whole stage when it is readable at `width`, else a camera view + overview strip.
    mode: Literal["auto", "fit", "camera"] = "auto"
    #: pixels per space length below which "auto" switches to the camera view.
    min_ppu: float = 56.0
    #: pixels per space length of the camera view.
    camera_ppu: float = 72.0
    #: largest pixels per space length of a fitted map (a tiny stage is not blown up further).
    max_ppu: float = 110.0
    #: PNG zlib level: 1–6 only (7–9 and optimize=True cost 3–5× the time for ~the same size).
    compress_level: int = 3
    #: palette PNGs (≤ 256 colours chosen per image, see bot.render.encode); False: true colour
    palette: bool = True
    #: the static layer is drawn at this multiple and reduced with a box filter (antialiasing).
    supersample: int = 2
    #: the language of every word the image prints (the catalogue's `render.` keys)
    lang: str = "en"

    def __post_init__(self) -> None:
        if not 480 <= self.width <= 2400:
            raise ValueError(f"width {self.width}: choose 480–2400 px (phones show ~1080)")
        if not 1 <= self.compress_level <= 6:
            raise ValueError(f"compress_level {self.compress_level}: PNG level must be 1–6")
        if self.supersample not in (1, 2, 3):
            raise ValueError(f"supersample {self.supersample}: use 1, 2 or 3")
        if self.mode not in ("auto", "fit", "camera"):
            raise ValueError(f"mode '{self.mode}': auto, fit or camera")
        if not (self.lang.isascii() and self.lang.isalpha() and 2 <= len(self.lang) <= 8):
            raise ValueError(f"lang '{self.lang}': a language code such as en, fr, de")

    @property
    def scale(self) -> float:
        """Size factor of fixed UI measures (fonts, rows) relative to the 1080 px design width."""
        return self.width / 1080.0

    def px(self, value: float) -> int:
        """A design measure (given for 1080 px) at this width, rounded to whole pixels."""
        return max(1, round(value * self.scale))


DEFAULT_OPTIONS = RenderOptions()
