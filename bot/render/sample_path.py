"""The trail behind a car on the hand-made sample boards (`bot.render.*.sample`): the spaces it
drove through, walked back from where it stands along the stage's forward links."""

from __future__ import annotations

from collections.abc import Iterable


def path_back(links: Iterable[tuple[int, Iterable[int]]], space: int, steps: int) -> list[int]:
    """The spaces a car drove through to reach `space` in `steps` dice (oldest first), from the
    stage's `links` (each space's id and the spaces it leads to); at each step back, the first
    space (in stage order) that leads to the one reached, until the start."""
    prev: dict[int, list[int]] = {}
    for sid, ahead in links:
        for n in ahead:
            prev.setdefault(n, []).append(sid)
    path = [space]
    for _ in range(steps - 1):
        options = prev.get(path[0], [])
        if not options:
            break
        path.insert(0, options[0])
    return path
