"""The results of a special as the results image shows them (RULES A15.2, A17)."""

from __future__ import annotations

from bot.engine.board import initials
from bot.engine.classify import classification
from bot.engine.state import FINISHED, GameState
from bot.engine.view import ResultRow, ResultsView


def results_view(state: GameState, subtitle: str = "") -> ResultsView:
    rows = []
    for row in classification(state):
        done = row["status"] == FINISHED
        rows.append(ResultRow(driver_id=row["driver"], name=row["name"], initials=initials(row["name"]),
                              colour=row["seat"], time_s=row["time"] if done else None,
                              gap_s=row["gap"] if done else None, status="finished" if done else "dnf"))
    return ResultsView(stage=state.stage.name, title=state.stage.title, subtitle=subtitle, rows=tuple(rows))
