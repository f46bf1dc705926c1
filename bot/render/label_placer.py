"""Finding a free place for a label beside the road (START, FINISH, zone names, splits).

Candidates are tried round the anchor, nearest first; a candidate is free when its box keeps
clear of every space centre and of labels already placed. Pixels of the static layer throughout.
"""

from __future__ import annotations

import math

Box = tuple[float, float, float, float]
Pt = tuple[float, float]


class LabelPlacer:
    def __init__(self, obstacles: list[Pt], clearance: float, size: tuple[float, float]) -> None:
        self.obstacles = obstacles
        self.clearance = clearance
        self.width, self.height = size
        self.taken: list[Box] = []

    def _free(self, box: Box) -> bool:
        x0, y0, x1, y1 = box
        if x0 < 0 or y0 < 0 or x1 > self.width or y1 > self.height:
            return False
        c = self.clearance
        for px, py in self.obstacles:
            if x0 - c < px < x1 + c and y0 - c < py < y1 + c:
                return False
        return all(x1 <= t[0] or x0 >= t[2] or y1 <= t[1] or y0 >= t[3] for t in self.taken)

    def keep_clear(self, box: Box) -> None:
        """A box no label may cover (a tag drawn on the road, such as a shortcut's K tag)."""
        self.taken.append(box)

    def place(self, anchor: Pt, heading: float, size: tuple[float, float], distances: tuple[float, ...]) -> Pt:
        """Centre of a free box of `size` near `anchor`; sideways of `heading` first (when none is
        free, beside the anchor all the same: START, FINISH and a split are always shown)."""
        found = self.place_free(anchor, heading, size, distances)
        if found is not None:
            return found
        w, h = size
        r = math.radians(heading)
        side = (math.sin(r), -math.cos(r))
        cx = min(max(anchor[0] + side[0] * distances[0], w / 2), self.width - w / 2)
        cy = min(max(anchor[1] + side[1] * distances[0], h / 2), self.height - h / 2)
        self.taken.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
        return cx, cy

    def place_free(self, anchor: Pt, heading: float, size: tuple[float, float],
                   distances: tuple[float, ...]) -> Pt | None:
        """Centre of a free box of `size` near `anchor`, sideways of `heading` first; None when
        there is none (a label that may be left out, such as a zone's name)."""
        w, h = size
        r = math.radians(heading)
        side = (math.sin(r), -math.cos(r))
        back = (-math.cos(r), -math.sin(r))
        dirs = [side, (-side[0], -side[1]), back, (-back[0], -back[1])]
        dirs += [((side[0] + back[0]) * 0.7, (side[1] + back[1]) * 0.7),
                 ((-side[0] + back[0]) * 0.7, (-side[1] + back[1]) * 0.7)]
        for d in distances:
            for vx, vy in dirs:
                cx, cy = anchor[0] + vx * (d + abs(vx) * w / 2), anchor[1] + vy * (d + abs(vy) * h / 2)
                box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
                if self._free(box):
                    self.taken.append(box)
                    return cx, cy
        return None
