"""Road Rally USA courses: race tiles as data, their validator, and the layouts (RULES C2, C7, C9)."""

from bot.engine.roadrally.course.courses import base_course, load_course, sprint_course, standard_course
from bot.engine.roadrally.course.tiles import load_tiles, parse_tiles

__all__ = ["base_course", "load_course", "load_tiles", "parse_tiles", "sprint_course", "standard_course"]
