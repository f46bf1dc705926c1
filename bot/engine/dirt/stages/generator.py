"""A seeded generator of DIRT stages: the same seed and length always give the same stage text.

It lays tiles one by one on the hex grid (never on a used hex, never boxing itself in), a grid
tile before the start and a run-off tile after the finish, and sprinkles the features the format
knows (slides next to corners, shortcuts between straights, jumps before straights, one-lane
points). Its output is ordinary stage text, checked by the loader like any organiser's file.
"""

from __future__ import annotations

import random

from bot.engine.dirt.stages import geometry

LENGTHS = range(6, 32)  # tiles, grid and run-off included (B1: 31 tiles in the box)
_TRIES = 200


def generate(seed: int, tiles: int = 10) -> str:
    """Stage text of `tiles` tiles for this seed (B2: short 10, medium 14, long 18)."""
    if tiles not in LENGTHS:
        raise ValueError(f"a generated DIRT stage has {LENGTHS.start} to {LENGTHS.stop - 1} tiles")
    rng = random.Random(f"dirt-{seed}-{tiles}")
    for _ in range(_TRIES):
        kinds = _layout(rng, tiles)
        if kinds is not None:
            return _text(rng, seed, kinds)
    raise ValueError(f"no layout found for seed {seed}")  # pragma: no cover - 200 tries always find one


def _layout(rng: random.Random, tiles: int) -> list[tuple[str, bool]] | None:
    """(kind, sharp) per tile, laid without overlap; the first and last two are straights."""
    out: list[tuple[str, bool]] = [("straight", False), ("straight", False)]
    while len(out) < tiles:
        left_to_lay = tiles - len(out)
        previous = out[-1][0]
        if left_to_lay <= 1 or previous != "straight":
            choice = ("straight", False)  # never two corners in a row: room for slides and shortcuts
        else:
            roll = rng.random()
            side = rng.choice(("left", "right"))
            choice = ("straight", False) if roll < 0.4 else (side, roll > 0.8)
        out.append(choice)
        cells = [p.cell for p in geometry.place([geometry.turn_of(k, s) for k, s in out])]
        if len(set(cells)) != len(cells) or _boxed(cells):
            return None
    return out


def _boxed(cells: list[tuple[int, int]]) -> bool:
    """The track's head has no free hex ahead in any direction (a retry is cheaper than a search)."""
    q, r = cells[-1]
    used = set(cells)
    return all((q + dq, r + dr) in used for dq, dr in geometry.STEPS)


def _text(rng: random.Random, seed: int, kinds: list[tuple[str, bool]]) -> str:
    lines = [f"# seed {seed}, {len(kinds)} tiles"]
    last = len(kinds) - 1
    for i, (kind, sharp) in enumerate(kinds):
        if i == 1:
            lines.append("start")
        if i == last:
            lines.append("finish")
        if kind == "straight":
            words = ["straight"]
            before = kinds[i - 1][0] if i > 0 else "straight"
            after = kinds[i + 1][0] if i < last else "straight"
            if 1 <= i < last:
                if before != "straight" and rng.random() < 0.4:
                    words.append("slide 1")
                elif after != "straight" and i + 1 < last and rng.random() < 0.4:
                    words.append("slide 3")
                elif after == "straight" and rng.random() < 0.15:
                    words.append(f"jump {rng.randint(3, 5)}")
                elif before == "straight" and after == "straight" and rng.random() < 0.1:
                    words.append("narrow")
            lines.append(" ".join(words))
        else:
            inside = rng.randint(2, 3) if sharp else rng.randint(3, 4)
            outside = min(6, inside + rng.randint(1, 2))
            words = [kind] + (["sharp"] if sharp else []) + [f"{inside}/{outside}"]
            if kinds[i + 1][0] == "straight" and rng.random() < 0.3:
                words.append(f"shortcut {max(1, inside - 1)}")
            lines.append(" ".join(words))
    return "\n".join(lines) + "\n"
