"""A DIRT rally as text: `/rally status`, the console, screen readers, and the classification lines
(RULES B3, B13.2, B13.8.10). Message keys only; the words are the catalogue's."""

from __future__ import annotations

from bot.engine.core.scores import format_time
from bot.engine.core.text import Listed, counted, msg
from bot.engine.dirt.classification import rally_rows
from bot.engine.dirt.out_reasons import out_reason_word
from bot.engine.dirt.pictures import stage_seconds
from bot.engine.dirt.public import Shown
from bot.engine.dirt.stages.catalogue import load_stage

#: a car's pose off the normal, in words (a closed table)
POSE_WORDS = {"drift": "dirt.word_drifting", "slide": "dirt.word_sliding"}
#: damage tokens on a dashboard, in words (B13.4; OK! tokens have no effect and are not shown)
TOKEN_WORDS = {"coast": ("dirt.tokens_coast.one", "dirt.tokens_coast.other"),
               "minus_one": ("dirt.tokens_minus_one.one", "dirt.tokens_minus_one.other"),
               "brake": ("dirt.tokens_brake.one", "dirt.tokens_brake.other")}


def car_line(state: Shown, seat: str, name: str) -> str:
    car = state.cars[seat]
    if car.status == "finished":
        return msg("dirt.status_finished", name=name, time=format_time(stage_seconds(state, seat)))
    if car.status in ("out", "retired"):
        return msg("dirt.status_out", name=name, reason=out_reason_word(car.reason or "retired"))
    if car.status == "waiting" or car.space is None:
        return msg("dirt.status_waiting", name=name)
    extra = [msg(TOKEN_WORDS[k][0 if n == 1 else 1], n=n) for k, n in car.tokens.items() if n and k in TOKEN_WORDS]
    if car.pose in POSE_WORDS:
        extra.append(msg(POSE_WORDS[car.pose]))
    if car.seconds_tokens:
        extra.append(counted("dirt.second_tokens", car.seconds_tokens))
    tile = state.stage.spaces[car.space].tile + 1
    return msg("dirt.status_racing", name=name, tile=tile, tiles=len(state.stage.tiles), gear=car.gear,
               time=format_time(stage_seconds(state, seat)),
               extra=msg("dirt.status_extra", items=Listed(extra, "comma")) if extra else "")


def status_lines(state: Shown) -> list[str]:
    lines = [msg("dirt.status_header", title=state.stage.title, n=state.stage_index + 1, count=len(state.stages),
                 round=state.round)]
    lines += [car_line(state, seat, name) for seat, name in state.seats]
    acting = state.to_act()
    if acting is not None:
        lines.append(msg("dirt.status_to_act", name=dict(state.seats)[acting]))
    lines.append(msg("dirt.provisional_note"))
    return lines


def stage_lines(state: Shown) -> list[str]:
    """The rally's classification after the stages driven so far."""
    return [msg("dirt.classification_after", n=len(next(iter(state.cars.values())).stage_times)),
            *_rows(state)]


def results_lines(state: Shown) -> list[str]:
    return [msg("dirt.results_title", title=state.stage.title if len(state.stages) == 1 else
                Listed([load_stage(name).title for name in state.stages], "comma")),
            *_rows(state)]  # the services add "provisional rules" to every result they show


def _rows(state: Shown) -> list[str]:
    lines = []
    for row in rally_rows(state):
        if row.total is not None:
            gap = "" if not row.gap else f" (+{format_time(row.gap)})"
            lines.append(msg("dirt.result_row", rank=row.rank, name=row.name, time=format_time(row.total), gap=gap))
        else:
            lines.append(msg("dirt.result_out", name=row.name, reason=out_reason_word(row.reason or "retired")))
    return lines
