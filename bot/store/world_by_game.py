"""Migration step 12: a world scratch per game.

Until step 11 there was one world round per ISO week (classic's); each game with solo runs now has
its own, on its own official stage. The unique indexes that said "one world round per week" and
"one official run per driver and week" gain the game, so a driver's one attempt a week is one per
game, and the ranking's index leads with the game too. Every row written before is classic's
(step 11 gave them `game = 'rallyman'`), so the old weeks keep their round and their runs.
"""

from __future__ import annotations

STEP = 12

STATEMENTS: tuple[str, ...] = (
    "DROP INDEX rounds_world_week",
    "CREATE UNIQUE INDEX rounds_world_week ON rounds (game, week) WHERE league_id IS NULL",
    "DROP INDEX runs_official",
    "CREATE UNIQUE INDEX runs_official ON runs (game, week, user_id) WHERE week IS NOT NULL",
    "DROP INDEX runs_week_time",
    "CREATE INDEX runs_week_time ON runs (game, week, status, score, id) WHERE week IS NOT NULL",
)
