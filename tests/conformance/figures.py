"""The conformance kit's figures for the closing note: `python -m tests.conformance.figures` plays
what `test_conformance.py` plays and prints one line per game, then the totals (games, playthroughs,
actions, properties checked)."""

from __future__ import annotations

import time

from bot import games
from tests.conformance.configs import CONFIGS, MAX_ACTIONS, PLAYTHROUGHS, SHORT
from tests.conformance.kit import Figures, play
from tests.toy_game.game import dice_dash


def main() -> None:
    toy = dice_dash()
    games.register(toy)
    try:
        start, cpu = time.perf_counter(), time.process_time()
        runs: list[Figures] = []
        for game_id in CONFIGS:
            runs.append(play(games.get(game_id), CONFIGS[game_id], PLAYTHROUGHS, MAX_ACTIONS[game_id], SHORT[game_id]))
            print(runs[-1].line())
        seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    finally:
        games.unregister(toy.id)
    properties = sorted({name for f in runs for name in f.checks})
    print(f"conformance total: {len(runs)} games, {sum(f.playthroughs for f in runs)} playthroughs "
          f"({sum(f.finished for f in runs)} to the end), {sum(f.actions for f in runs)} actions, "
          f"{len(properties)} properties ({', '.join(properties)}), "
          f"{sum(sum(f.checks.values()) for f in runs)} checks, {cpu_seconds:.1f} s of CPU ({seconds:.1f} s wall)")


if __name__ == "__main__":
    main()
