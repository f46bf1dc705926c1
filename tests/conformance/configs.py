"""The configurations the conformance kit plays for each game: its rulesets (presets), modules,
seat counts, dice sources (seeded, or a league run's named streams) and short stages or courses, so
the kit as a whole stays within about a minute on one core."""

from __future__ import annotations

from bot.engine.core.dice import stream_keys
from tests.conformance.kit import Config

PLAYTHROUGHS = 200
#: actions per playthrough at most (most end well before: the games are set up short)
MAX_ACTIONS = {"rallyman": 200, "dirt": 200, "roadrally": 250, "dicedash": 60}
#: actions of the playthroughs that stop early (three in four): the kit's time budget
SHORT = {"rallyman": 25, "dirt": 25, "roadrally": 25, "dicedash": 60}

_NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve")
_IDS = ("11", "22", "-3", "44", "-5")  # negative ids: AI seats


def _seats(n: int) -> tuple[tuple[str, str], ...]:
    return tuple(zip(_IDS[:n], _NAMES[:n]))


def _streams() -> dict[str, str]:
    own, common = stream_keys("ab" * 16, "11", "personal")
    return {"key": own, "common": common}


CONFIGS: dict[str, list[Config]] = {
    "rallyman": [
        Config(_seats(2), {"stage": "iron-sprint", "ruleset": "classic", "modules": {}}),
        Config(_seats(1), {"stage": "frozen-lakes", "ruleset": "classic", "modules": {"streams": _streams()}}),
        Config(_seats(3), {"stage": "pinewood-sprint", "ruleset": "classic-consecutive",
                           "modules": {"attack": True, "seconds": True}}),
        Config(_seats(2), {"stage": "quarry-switchbacks", "ruleset": "classic-sisu",
                           "modules": {"weather": True, "splits": True}}),
        Config(_seats(2), {"stage": "frozen-lakes", "ruleset": "classic",
                           "modules": {"course": {"specials": ["frozen-lakes", "iron-sprint"],
                                                  "assistance": [True, False]}}}),
    ],
    "dirt": [
        Config(_seats(2), {"stage": "dusty-pines", "ruleset": "provisional", "modules": {}}),
        Config(_seats(1), {"stage": "kettle-gorge", "ruleset": "provisional", "modules": {"streams": _streams()}}),
        Config(_seats(3), {"stage": "red-quarry", "ruleset": "provisional", "modules": {"sisu": True}}),
        Config(_seats(2), {"stage": "sauna-hill", "ruleset": "provisional",
                           "modules": {"course": {"specials": ["sauna-hill", "dusty-pines"], "assistance": [False]}}}),
    ],
    "roadrally": [
        Config(_seats(3), {"stage": "sprint", "ruleset": "rr-standard", "modules": {}}),
        Config(_seats(4), {"stage": "sprint", "ruleset": "rr-base", "modules": {}}),
        Config(_seats(3), {"stage": "base", "ruleset": "rr-demo-fr", "modules": {"sprint": True}}),
        Config(_seats(5), {"stage": "standard", "ruleset": "rr-standard", "modules": {"sprint": True}}),
    ],
    "dicedash": [
        Config(_seats(2), {"stage": "dash-2"}),
        Config(_seats(1), {"stage": "dash-3", "modules": {"streams": _streams()}}),
    ],
}
