"""The alt text of every picture the bot posts: what the picture shows, in words.

Discord reads an attachment's `description` to screen-reader users. `describe(spec, lang)` makes it
from the picture's own spec (bot.services.images): the same data the picture is drawn from, the
spectators' view only (a Road Rally USA board has no hand in its data, so none can be told here),
every word from the catalogue in `lang`. One function per picture kind:

- a board: the stage, the special and round, who plays next, then each car's place and time, or
  where it is on the road (the ghost's place too, for a run's ghost);
- a results card: its title, the podium, how many drivers and how many finished;
- a table (standings, league results, ratings, scratch): its title, then its top rows;
- a career card (`/driver`): the driver, the game, the rating and the headline figures;
- a preview: the stage's name, length, corners and special spaces (its legend's counts);
- a replay: the stage(s), the last round played, the winner(s) (`replay_about`, kept in its spec
  when the replay is owed: the spec is a reference, its frames are drawn from the log later).

Discord takes at most `MAX_CHARS` characters: parts are kept whole, in order (the head first, so
the stage and who plays next always stay), and what does not fit is counted ("and 12 more");
a single part longer than the whole is cut at a word. Pure text: no Pillow, no store.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot import games
from bot.engine.core.game import GHOST
from bot.engine.core.scores import format_time
from bot.engine.core.text import msg, to_json
from bot.i18n import DEFAULT_LANG, render
from bot.services.stage_words import length_text
from bot.spec_drawing import current, localized, table_view

log = logging.getLogger(__name__)

MAX_CHARS = 1024  # Discord's limit for an attachment's description
PODIUM = 3

Parts = list[str]
Placings = list[tuple[str, int | None, object]]  # (name, place or None when out, score as shown)


def describe(spec: Mapping[str, Any] | None, lang: str = DEFAULT_LANG) -> str | None:
    """The description of the picture of `spec` in `lang`, at most `MAX_CHARS` characters; None
    for an unknown kind or data it cannot read (the picture then goes without one: a malformed
    old row must not cost the post its picture)."""
    if not spec:
        return None
    kind = KINDS.get(str(spec.get("kind")))
    if kind is None:
        return None
    try:
        return fit(kind(dict(spec), lang), lang)
    except Exception as exc:  # a description is a help: never a reason to lose the picture
        log.warning("no description for a %s picture: %s: %s", spec.get("kind"), type(exc).__name__, exc)
        return None


def described(files: Sequence[tuple[str, bytes]], spec: Mapping[str, Any], lang: str) -> dict[str, str]:
    """A private reply's `alt` (bot.services.reply): the description of its picture of `spec`, by
    the attached file's name; empty when nothing is attached or it cannot be described."""
    text = describe(spec, lang) if files else None
    return {files[0][0]: text} if text else {}


def fit(parts: Sequence[str], lang: str = DEFAULT_LANG, limit: int = MAX_CHARS) -> str:
    """`parts` joined by spaces, whole parts only, within `limit` characters: the parts that do not
    fit are counted at the end ("and 5 more."); a first part longer than `limit` is cut at a word."""
    parts = [p.strip() for p in parts if p and p.strip()]
    if len(" ".join(parts)) <= limit:
        return " ".join(parts)
    kept: list[str] = []
    for i, part in enumerate(parts):
        rest = len(parts) - i - 1
        tail = len(" " + _t("alt.more", lang, count=rest)) if rest else 0
        if len(" ".join([*kept, part])) + tail > limit:
            break
        kept.append(part)
    dropped = len(parts) - len(kept)
    if not kept:  # the head alone is too long: cut at a word, keep room for the count of the rest
        more = " " + _t("alt.more", lang, count=dropped - 1) if dropped > 1 else ""
        return cut_words(parts[0], limit - len(more)) + more
    return " ".join(kept) + " " + _t("alt.more", lang, count=dropped)


def cut_words(text: str, limit: int) -> str:
    """`text` within `limit` characters, cut after a whole word and marked with "…"."""
    if len(text) <= limit:
        return text
    head = text[: max(limit - 1, 0)]
    if " " in head and not text[len(head)].isspace():
        head = head.rsplit(" ", 1)[0]
    return head.rstrip(" ,;:") + "…"


def _t(key: str, lang: str, **params: object) -> str:
    return render(msg(key, **params), lang)


# -- boards ----------------------------------------------------------------------------------------


def board(spec: dict[str, Any], lang: str) -> Parts:
    """The board: stage, special and round, who plays next, each car (`BOARDS`, by game)."""
    spec = current(spec)
    game = games.get(spec.get("game"))
    data = localized(spec["view"], lang)
    reader = BOARDS.get(game.id, _other_board)
    parts = reader(data, lang)
    ghost = data.get(GHOST)
    if isinstance(ghost, dict) and ghost.get("place") is not None:
        where = _where(int(ghost["place"]), lang)
        parts.insert(2, _t("alt.ghost", lang, label=str(ghost.get("label") or ""), place=where))
    return parts


def _stage_title(game_id: str | None, name: str) -> str:
    """A stage's title from its game's library; its name when the library does not know it."""
    library = games.get(game_id).library.stages
    try:
        return library.facts(name).title if library.exists(name) else name
    except Exception:  # a generated or retired stage: its name is what there is
        return name


def _where(space: int, lang: str) -> str:
    if space == -1:
        return _t("alt.at_start", lang)
    if space == -2:
        return _t("alt.at_finish", lang)
    return _t("alt.on_space", lang, space=space)


def _status(data: dict[str, Any], lang: str) -> str:
    """The board's status line (whose turn it is, or the fastest once over) as a sentence; "" when none."""
    status = str(data.get("status") or "").strip()
    return _t("alt.status", lang, status=status) if status else ""


def _classic_board(data: dict[str, Any], lang: str) -> Parts:
    stage = str(data.get("title") or data.get("stage") or "")
    if int(data.get("specials") or 0) > 1:
        head = _t("alt.board_special", lang, stage=stage, special=int(data["special"]),
                  specials=int(data["specials"]), round=int(data.get("round") or 0))
    else:
        head = _t("alt.board", lang, stage=stage, round=int(data.get("round") or 0))
    parts = [head, _status(data, lang)]
    cars = sorted(data.get("cars") or (), key=lambda c: (c.get("place") is None, c.get("place") or 0))
    for car in cars:
        name, time = str(car["name"]), format_time(int(car.get("chrono_s") or 0))
        if car.get("place") is not None and car.get("status") != "out":
            parts.append(_t("alt.car_placed", lang, name=name, place=int(car["place"]), time=time))
        elif car.get("status") in ("out", "retired", "dnf"):
            parts.append(_t("alt.car_out", lang, name=name))
        else:
            parts.append(_t("alt.car_road", lang, name=name, where=_where(int(car.get("space", -1)), lang), time=time))
    return parts


def _dirt_board(data: dict[str, Any], lang: str) -> Parts:
    stage = _stage_title("dirt", str(data["stage"]))
    head = _t("alt.board_special", lang, stage=stage, special=int(data["stage_no"]), specials=int(data["stages"]),
              round=int(data.get("round") or 0)) if int(data.get("stages") or 1) > 1 else \
        _t("alt.board", lang, stage=stage, round=int(data.get("round") or 0))
    parts = [head, _status(data, lang)]
    for car in data.get("cars") or ():
        name, time, status = str(car["name"]), format_time(int(car.get("seconds") or 0)), car.get("status")
        if status in ("out", "retired"):
            parts.append(_t("alt.car_out", lang, name=name))
        elif status == "finished":
            parts.append(_t("alt.car_finished", lang, name=name, time=time))
        elif car.get("space") is None:
            parts.append(_t("alt.car_waiting", lang, name=name))
        else:
            parts.append(_t("alt.car_road", lang, name=name, where=_t("alt.on_space", lang, space=int(car["space"])),
                            time=time))
    return parts


def _road_board(data: dict[str, Any], lang: str) -> Parts:
    """Road Rally USA: its public counts only (positions, victory points, places), never a hand."""
    stage = _stage_title("roadrally", str(data["course"]))
    names = {str(s["id"]): str(s["name"]) for s in data.get("seats") or ()}
    parts = [_t("alt.board", lang, stage=stage, round=int(data.get("round") or 0))]
    acting = [data["current"]] if data.get("current") else list(data.get("to_act") or ())
    if acting:
        parts.append(_t("alt.next", lang, names=", ".join(names.get(str(s), str(s)) for s in acting)))
    seats = sorted(data.get("seats") or (), key=lambda s: (s.get("place") is None, s.get("place") or 0,
                                                           -int(s.get("pos") or 0)))
    for seat in seats:
        name, vp = str(seat["name"]), int(seat.get("vp") or 0)
        if seat.get("retired"):
            parts.append(_t("alt.car_out", lang, name=name))
        else:  # a seat in the race has its race place (C10.8)
            parts.append(_t("alt.seat_placed", lang, name=name, place=int(seat.get("place") or 0),
                            tile=int(seat.get("pos") or 0), vp=vp))
    return parts


def _other_board(data: dict[str, Any], lang: str) -> Parts:
    """A game this module has no reader for: its stage and status, when its data has them."""
    return [_t("alt.board", lang, stage=str(data.get("title") or data.get("stage") or ""),
               round=int(data.get("round") or 0)), _status(data, lang)]


#: each game's board data (its `board`, bot.engine.<game>.pictures / picture_data), by game id
BOARDS: dict[str, Callable[[dict[str, Any], str], Parts]] = {
    "rallyman": _classic_board, "dirt": _dirt_board, "roadrally": _road_board}


# -- results cards ---------------------------------------------------------------------------------


def results(spec: dict[str, Any], lang: str) -> Parts:
    """A results card: its title, the podium, how many drivers and how many finished."""
    spec = current(spec)
    game = games.get(spec.get("game"))
    data = localized(spec["view"], lang)
    rows = PLACINGS.get(game.id, _classic_rows)(data)
    title = " — ".join(str(x) for x in (data.get("title"), data.get("subtitle")) if x)
    parts = [_t("alt.results", lang, title=title)]
    placed = sorted(((name, place, score) for name, place, score in rows if place is not None), key=lambda r: r[1])
    for name, place, score in placed[:PODIUM]:
        parts.append(_t("alt.podium", lang, place=place, name=name, score=score))
    parts.append(_t("alt.results_count", lang, drivers=len(rows), finished=len(placed)))
    return parts


def _classic_rows(data: dict[str, Any]) -> Placings:
    """(name, place, time) of a classic card: finishers by time (the tie-break first, A17)."""
    rows = data.get("rows") or ()
    done = sorted((r for r in rows if r.get("status") == "finished" and r.get("time_s") is not None),
                  key=lambda r: (int(r["time_s"]), r.get("tiebreak_s") or 0))
    out: Placings = [(str(r["name"]), i + 1, format_time(int(r["time_s"])))
                                               for i, r in enumerate(done)]
    return out + [(str(r["name"]), None, "") for r in rows if r not in done]


def _dirt_rows(data: dict[str, Any]) -> Placings:
    return [(str(r["name"]), int(r["rank"]) if r.get("rank") is not None else None,
             format_time(int(r["total"])) if r.get("total") is not None else "") for r in data.get("rows") or ()]


def _road_rows(data: dict[str, Any]) -> Placings:
    return [(str(r["name"]), int(r["place"]) if r.get("place") is not None and not r.get("retired") else None,
             msg("alt.vp", vp=int(r.get("vp") or 0))) for r in data.get("rows") or ()]


#: each game's results data as (name, place or None when out, score as shown), by game id
PLACINGS: dict[str, Callable[[dict[str, Any]], Placings]] = {
    "rallyman": _classic_rows, "dirt": _dirt_rows, "roadrally": _road_rows}


# -- tables, career cards, previews, replays ------------------------------------------------------


def table(spec: dict[str, Any], lang: str) -> Parts:
    """A league table, the standings, the ratings, the scratch: its title, then its rows from the
    top, each cell after its column's head."""
    view = table_view(spec)
    heads = [render(c.label, lang) for c in view.columns]
    title = " — ".join(x for x in (render(view.title, lang), render(view.subtitle, lang)) if x)
    parts = [_t("alt.table", lang, title=title, rows=len(view.rows))]
    for row in view.rows:
        cells = [f"{head} {render(cell, lang)}".strip() if head else render(cell, lang)
                 for head, cell in zip(heads, row.cells) if render(cell, lang)]
        parts.append(_t("alt.row", lang, cells=", ".join(cells)))
    return parts


def career(spec: dict[str, Any], lang: str) -> Parts:
    """`/driver`'s card: the driver, the game, the rating, then its figures (rallies, wins, podiums …)."""
    card = localized(spec["card"], lang)
    parts = [_t("alt.career", lang, name=str(card["name"]), game=str(card["game"]))]
    labels = card.get("labels") or {}
    if card.get("rating") is not None:
        parts.append(_t("alt.figure", lang, label=str(labels.get("rating", "")), value=int(card["rating"])))
    elif labels.get("no_rating"):
        parts.append(_t("alt.status", lang, status=str(labels["no_rating"])))
    parts += [_t("alt.figure", lang, label=str(label), value=str(value)) for label, value in card.get("stats") or ()]
    return parts


def preview(spec: dict[str, Any], lang: str) -> Parts:
    """A stage's preview: its name, length, corners (tight ones) and special spaces, as its legend counts."""
    played = games.get(spec.get("game"))
    facts = played.library.stages.facts(str(spec["stage"]))
    parts = [_t("alt.preview", lang, title=facts.title, length=length_text(facts)),
             _t("alt.preview_counts", lang, corners=facts.corners, tight=facts.tight, hazards=facts.hazards)
             if facts.corners else _t("alt.preview_hazards", lang, hazards=facts.hazards)]
    if facts.zones:
        parts.append(_t("alt.preview_zones", lang, zones=", ".join(facts.zones)))
    return parts


def replay(spec: dict[str, Any], lang: str) -> Parts:
    """An animated replay: its rally, stage(s), the last round, the winner(s) (`replay_about`)."""
    about = spec.get("about")
    if not isinstance(about, dict):  # owed before replays were described: its rally's number
        return [_t("alt.replay_plain", lang, rally=int(spec["rally_id"]))]
    title = render(localized(about.get("title", ""), lang), lang)
    parts = [_t("alt.replay", lang, rally=int(spec["rally_id"]), title=title, rounds=int(about.get("rounds") or 0))]
    winners = [str(w) for w in about.get("winners") or ()]
    if winners:
        parts.append(_t("alt.winner", lang, names=", ".join(winners)))
    return parts


def replay_about(game_id: str | None, state: Any) -> dict[str, Any]:
    """What a replay's description says of its finished rally, kept in its spec (`images.replay_spec`):
    the whole rally's title (a message), the last round its board shows, its winner(s); from the
    spectators' view, as the replay's frames are."""
    played = games.get(game_id)
    view = played.rules.view(state, None)
    data = played.pictures.board(view) if played.pictures is not None else {}
    outcome = played.rules.outcome(state)
    winners = [] if outcome is None else [
        played.narrator.seat_name(view, s.seat) or str(s.seat) for s in outcome.seats if s.rank == 1]
    return {"title": to_json(played.narrator.title(view)), "rounds": int(str(data.get("round") or 0)),
            "winners": winners}


KINDS: dict[str, Callable[[dict[str, Any], str], Parts]] = {
    "board": board, "results": results, "table": table, "career": career, "preview": preview, "replay": replay}
