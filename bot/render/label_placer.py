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

    def place(self, anchor: Pt, heading: float, size: tuple[float, float], distances: tuple[float, ...]) -> Pt:
        """Centre of a free box of `size` near `anchor`; sideways of `heading` first."""
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
        cx = min(max(anchor[0] + side[0] * distances[0], w / 2), self.width - w / 2)
        cy = min(max(anchor[1] + side[1] * distances[0], h / 2), self.height - h / 2)
        self.taken.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
        return cx, cy
