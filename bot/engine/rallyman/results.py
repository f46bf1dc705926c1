"""The results of a special as the results image shows them (RULES A15.2, A17)."""

from __future__ import annotations

from bot.engine.rallyman.board import initials
from bot.engine.rallyman.classify import classification
from bot.engine.rallyman.course import Course
from bot.engine.rallyman.public import Shown
from bot.engine.rallyman.rally_classification import rally_classification
from bot.engine.rallyman.stages.catalogue import load_stage
from bot.engine.rallyman.state import FINISHED
from bot.engine.rallyman.view import ResultRow, ResultsView


def results_view(state: Shown, subtitle: str = "") -> ResultsView:
    """The results image of a special; for a rally of several specials, the classification after
    the specials finished so far (per-special columns, total)."""
    if state.course is not None and state.course.results:
        done = len(state.course.results)
        title = load_stage(state.course.specials[done - 1]).title
        return rally_results_view(state.course, f"SS{done} — {title}", subtitle)
    rows = []
    for row in classification(state):
        done = row["status"] == FINISHED
        rows.append(ResultRow(driver_id=row["driver"], name=row["name"], initials=initials(row["name"]),
                              colour=row["seat"], time_s=row["time"] if done else None,
                              gap_s=row["gap"] if done else None, status="finished" if done else "dnf"))
    return ResultsView(stage=state.stage.name, title=state.stage.title, subtitle=subtitle, rows=tuple(rows))


def rally_results_view(course: Course, title: str, subtitle: str = "") -> ResultsView:
    """The (re)classification of a rally after its finished specials: one column per special,
    the total, gaps; drivers out of the rally last (A17)."""
    rows = rally_classification(course)
    return ResultsView(
        stage=course.specials[0], title=title, subtitle=subtitle,
        columns=tuple(f"SS{i + 1}" for i in range(len(course.results))),
        rows=tuple(ResultRow(driver_id=r.driver, name=r.name, initials=initials(r.name), colour=r.seat,
                             time_s=r.total, gap_s=r.gap, status="finished" if r.total is not None else "dnf",
                             times=r.times, tiebreak_s=r.times[-1] if r.times else None, reason=r.reason)
                   for r in rows))
