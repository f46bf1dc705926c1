"""Where the parts of a board image go, the same record for every game drawn on a map with a
header above it: the map (the whole stage, or a window of it) and, in a camera view, the overview
strip of the whole stage under it. Each game's layout module (bot/render/*/layout.py) works the
numbers out."""

from __future__ import annotations

from dataclasses import dataclass

from bot.render.frame import Frame


@dataclass(frozen=True)
class BoardLayout:
    mode: str                            # "fit" or "camera"
    frame: Frame                         # stage units → static-layer pixels
    static_size: tuple[int, int]         # size of the static layer image
    header_h: int
    map_size: tuple[int, int]            # window of the static layer shown in the image
    overview: Frame | None = None        # stage units → overview-strip pixels
    overview_size: tuple[int, int] | None = None

    @property
    def map_top(self) -> int:
        return self.header_h

    @property
    def overview_top(self) -> int:
        return self.header_h + self.map_size[1]

    def strip(self) -> tuple[Frame, tuple[int, int]]:
        """The overview strip's frame and size: every camera layout has one, a fit layout none."""
        if self.overview is None or self.overview_size is None:
            raise AssertionError(f"a {self.mode} layout has no overview strip")
        return self.overview, self.overview_size

    @property
    def body_bottom(self) -> int:
        """y just below the map (and the overview strip, if any)."""
        return self.overview_top + (self.overview_size[1] if self.overview_size else 0)
