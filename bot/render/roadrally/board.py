"""Road Rally USA's pictures: the board after a move and the course preview.

The board is drawn from the spectators' view only (`view(state, None)`, RULES C10.8): a picture is
posted in a channel every seat reads, so it never shows a hand, a stage card or an answer; a view
with a `me` is refused. Top to bottom: the header (course, round, whose turn it is or the stage
window being asked), the course with its cars, the panel of public counts (the legend is the
preview's).
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image

from bot.engine.roadrally.road import Road
from bot.engine.roadrally.view import RRView
from bot.render import palette as P
from bot.render.fonts import BOARD_FONT_PX
from bot.render.header import draw_header
from bot.render.options import RenderOptions
from bot.render.painter import Header, board_canvas
from bot.render.roadrally.cars import CarSpot, car_spots, chip_radius, draw_cars, initials
from bot.render.roadrally.course import GROUND, draw_course, final_marks, mark_line, mark_radius
from bot.render.roadrally.layout import CourseLayout, course_layout
from bot.render.roadrally.legend import draw_legend, legend_height
from bot.render.roadrally.panel import draw_panel, panel_height
from bot.render.words import word

HEADER = 112  # design px of the header band
#: the tallest board, in widths: a phone shows it whole without scrolling past a screen and a half
#: (the course is shrunk to fit; the legend is the preview's, posted before the game)
MAX_RATIO = 1.6


def seat_names(view: RRView, names: Mapping[str, str] | None) -> dict[str, str]:
    """Each seat's shown name: the caller's (a player's display name), else its seat id."""
    return {s.id: (names or {}).get(s.id, s.id) for s in view.seats}


def status(view: RRView, names: Mapping[str, str], lang: str) -> str:
    """The header's status line: whose turn it is, the stage window asked, a choice, or the end."""
    if view.phase == "over":
        return word("rr_status_over", lang)
    if view.window is not None:
        return word("rr_status_window", lang, stage=view.window)
    if view.choice is not None:
        return word("rr_status_choice", lang, name=names[view.choice[0]], points=view.choice[1])
    if view.current is None:
        return ""
    key = {"reshuffle": "rr_status_reshuffle", "mechanic": "rr_status_mechanic"}.get(view.phase, "rr_status_turn")
    return word(key, lang, name=names[view.current])


def map_layout(road: Road, view: RRView, options: RenderOptions) -> CourseLayout:
    """Where the course lands on the board: fitted to the width, shrunk so the whole board is at
    most `MAX_RATIO` widths tall."""
    header = options.px(HEADER)
    room = MAX_RATIO * options.width - header - panel_height(view, options)
    return course_layout(road, options, top=header, room=room)


def chip_size(lay: CourseLayout, options: RenderOptions) -> int:
    """The font size of the initials on a car's chip on the course."""
    return max(options.px(BOARD_FONT_PX), round(lay.ppu * 0.42))


def on_course(view: RRView) -> list[tuple[str, int, int, int | None]]:
    """(seat, space, race place, finish mark) of every car still in the game (`draw_cars`)."""
    return [(s.id, s.pos, s.place or 99, s.mark) for s in view.seats if not s.retired]


def finish_marks(road: Road, lay: CourseLayout, options: RenderOptions, seats: int) -> list[tuple[float, float]]:
    """The course points of the final space's numbered marks, one per seat, as drawn."""
    return final_marks(road, seats, *mark_line(road, lay, options, seats))


def chips(road: Road, view: RRView, options: RenderOptions) -> tuple[list[CarSpot], float]:
    """The cars' chips on the board (`car_spots`) and their radius, as drawn (for the tests)."""
    lay = map_layout(road, view, options)
    radius = chip_radius(lay.ppu, chip_size(lay, options))
    return car_spots(road, lay, on_course(view), radius, finish_marks(road, lay, options, len(view.seats)),
                     mark_radius(lay, options)[0]), radius


def board_image(road: Road, view: RRView, options: RenderOptions,
                names: Mapping[str, str] | None = None) -> Image.Image:
    """The board of `view`, a spectators' view (`view.me` is None)."""
    if view.me is not None:
        raise ValueError("a board is drawn from the spectators' view only: view(state, None)")
    shown = seat_names(view, names)
    colours = {s.id: P.car_colour(i) for i, s in enumerate(view.seats)}
    labels = {s.id: initials(shown[s.id]) for s in view.seats}
    header = options.px(HEADER)
    lay = map_layout(road, view, options)

    def paint_map(img: Image.Image) -> None:
        draw_course(img, road, lay, options, view.stage_tiles, view.checkpoint_tiles, len(view.seats))
        draw_cars(img, road, lay, on_course(view), colours, labels, view.current, chip_size(lay, options),
                  finish_marks(road, lay, options, len(view.seats)), mark_radius(lay, options)[0])

    def paint_panel(img: Image.Image, top: int) -> None:
        draw_panel(img, top, view, shown, colours, labels, options)

    return board_canvas(options, Header(word("rr_title", options.lang, course=road.name), view.round,
                                        status(view, shown, options.lang)),
                        header, lay.height, lay.height + panel_height(view, options), paint_map, paint_panel, GROUND)


def preview_image(road: Road, options: RenderOptions) -> Image.Image:
    """The course alone and its legend: the Diner sites empty (which stage tiles go on them depends
    on the preset and the sprint variant, C2/C9: the board shows them once a game is set up), the
    checkpoint sites with their flags, the final space with five marks."""
    header = options.px(HEADER)
    lay = course_layout(road, options, top=header)
    legend_top = lay.height
    img = Image.new("RGB", (options.width, legend_top + legend_height(options)), GROUND)
    diners = road.diners()
    draw_course(img, road, lay, options, (), road.checkpoints(), 5)
    draw_legend(img, legend_top, options)
    counts = word("rr_preview_status", options.lang, spaces=len(road.spaces), stages=len(diners),
                  checkpoints=len(road.checkpoints()))
    draw_header(img, word("rr_title", options.lang, course=road.name), 0, counts, header, options)
    return img

