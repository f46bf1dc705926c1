"""Reading a result card, strictly: a card is hostile input, so every field is checked
for its type, its size and its form before anything uses it, and the first problem is the card's
reason to be rejected (`Rejected`, a catalogue text). `read_card` gives a `Card` whose fields are
safe to use: the game it names (omitted = classic), its labels, its dice and its claim.

What a card claims is checked elsewhere (bot/services/world/card_check.py): its labels against what was
published, its seed and stages, and its replay.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from bot import games
from bot.engine.core.dice import DICE_MODES
from bot.engine.core.game import Game
from bot.engine.core.text import msg
from bot.services.world.cards import (
    CARD_FORMAT,
    CARD_VERSION,
    OLD_VERSIONS,
    OPTIONAL_HEADER_FIELDS,
)

MAX_BYTES = 8 * 1024 * 1024  # a round of 1,000 runs is well under this
MAX_ACTIONS = 5_000  # far more than any run takes
MAX_SPECIALS = 4  # a round is 1 to 4 specials (RULES A2)
MAX_NAME = 100  # league and driver names on a card
MAX_STAGE_NAME = 64
MAX_TIME = 10**7  # seconds: no run takes 115 days
MAX_ROUND = 10**6
MAX_LEAGUE_ID = 2**63 - 1
MAX_SHOWN = 120  # characters of a hostile value or action shown in a reason

_HEX64 = re.compile(r"[0-9a-f]{64}")
_DRIVER = re.compile(r"[0-9]{1,20}")
_WEEK = re.compile(r"[0-9]{4}-W[0-9]{2}")
Entry = Any  # a logged entry: the game's action, or the rally's Start / Status

#: The fields every card of one round shares (the cards of a file must agree on them).
ROUND_FIELDS = ("league", "round", "week", "specials", "assistance", "stage_sha256", "ruleset", "modules", "dice",
                "seed", "seed_sha256")
ROUND_KEY = (*ROUND_FIELDS, *OPTIONAL_HEADER_FIELDS)  # and, when a card has them, its game and flag
CARD_FIELDS = ("format", "version", *ROUND_FIELDS, "league_id", "round_sha256", "driver", "name", "actions", "claimed")
V1_FIELDS = tuple(name for name in CARD_FIELDS if name not in ("league_id", "round_sha256"))
#: The fields of a card whose run answers the round of its file (the week's official run driven in
#: another round): version 2 names the round it counts for and the header of the one that drove
#: it; version 1 (rounds closed before version 2) names the round it counts for only.
LINKED_FIELDS = ("counts_for", "driven_sha256")
V1_LINKED_FIELDS = ("counts_for",)
VERSIONS = (*OLD_VERSIONS, CARD_VERSION)
RESULT_FIELDS = ("driver", "name", "time_s", "power_s")
SCORE_RESULT_FIELDS = ("driver", "name", "score")  # a game scored in another unit than seconds
SECONDS_CLAIM, SCORE_CLAIM = ("time_s", "power_s"), ("score",)


class Rejected(Exception):
    """A card is not genuine; the message is the user-ready reason."""


# --- reading a card, strictly ------------------------------------------------------------------


def shown_value(value: object) -> str:
    """A hostile value made safe to print on one line: printable, at most MAX_SHOWN characters."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True,
                                                          separators=(",", ":"), default=str)
    clean = "".join(ch if ch.isprintable() else "?" for ch in text)
    return clean if len(clean) <= MAX_SHOWN else clean[: MAX_SHOWN - 1] + "…"


def kind_of(value: object) -> str:
    if value is None:
        return "null"
    kinds = {bool: "verify.kind_bool", int: "verify.kind_number", float: "verify.kind_number", str: "verify.kind_text",
             list: "verify.kind_list", dict: "verify.kind_object"}
    key = kinds.get(type(value))
    return msg(key) if key else type(value).__name__


def refuse(key: str, **params: Any) -> Rejected:
    return Rejected(msg(key, **params))


def card_field(card: dict[str, Any], name: str) -> Any:
    if name not in card:
        raise refuse("verify.field_missing", field=name)
    return card[name]


def _text(card: dict[str, Any], name: str, limit: int = MAX_NAME, optional: bool = False) -> str | None:
    value = card_field(card, name)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise refuse("verify.field_type", field=name, expected=msg("verify.a_text"), got=kind_of(value))
    if not value.strip() or len(value) > limit:
        raise refuse("verify.bad_text", field=name, max=limit)
    return value


def _whole(value: object, name: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise refuse("verify.bad_number", field=name, low=low, high=high, value=shown_value(value))
    return value


def _list(card: dict[str, Any], name: str, low: int, high: int) -> list[Any]:
    value = card_field(card, name)
    if not isinstance(value, list):
        raise refuse("verify.field_type", field=name, expected=msg("verify.a_list"), got=kind_of(value))
    if not low <= len(value) <= high:
        raise refuse("verify.bad_count", field=name, low=low, high=high, count=len(value))
    return value


def hex_field(value: object, name: str) -> str:
    if not isinstance(value, str) or not _HEX64.fullmatch(value):
        raise refuse("verify.bad_hash", field=name)
    return value


@dataclass(frozen=True)
class Card:
    """A card whose every field has the right type and range (not yet replayed)."""

    league: str | None
    round: int
    week: str | None
    specials: list[str]
    assistance: list[bool]
    stage_sha256: list[str]
    ruleset: str
    modules: dict[str, bool]
    dice: str
    seed: str
    seed_sha256: str
    driver: str
    name: str
    actions: list[Any]
    time_s: int
    power_s: int | None
    counts_for: tuple[str | None, int] | None = None  # (league, round) it also counts in
    version: int = CARD_VERSION
    league_id: int | None = None
    round_sha256: str | None = None
    driven_sha256: str | None = None  # version 2, with counts_for: the header of the round that drove it
    game: str | None = None  # None: classic (a card names any other game it was driven in)
    provisional: bool | None = None  # True: its ruleset is provisional (None: it is not)

    def played(self) -> Game[Any, Any, Any, Any]:
        """The game the card's run was driven in (read_card has checked it is registered)."""
        return games.get(self.game)

    def round_key(self) -> tuple[str, ...]:
        """The round's fields, comparable between the cards of one file: the league and round
        are those it counts for, when it names them (the rest is the same stage, seed and rules)."""
        labels = {"league": self.counts_for[0], "round": self.counts_for[1]} if self.counts_for else {}
        return tuple(json.dumps(labels[name] if name in labels else getattr(self, name), sort_keys=True)
                     for name in ROUND_KEY)


def read_card(card: object) -> Card:
    """The card's fields checked for type and range; `Rejected` names the first wrong one."""
    if not isinstance(card, dict):
        raise refuse("verify.field_type", field=msg("verify.the_card"), expected=msg("verify.an_object"),
                      got=kind_of(card))
    fmt = card_field(card, "format")
    if fmt != CARD_FORMAT:
        raise refuse("verify.bad_format", value=shown_value(fmt), format=CARD_FORMAT)
    version = card_version(card_field(card, "version"))
    later = CARD_FIELDS + LINKED_FIELDS + OPTIONAL_HEADER_FIELDS  # its game and flag: when they say something
    known = later if version == CARD_VERSION else V1_FIELDS + V1_LINKED_FIELDS
    unknown = sorted(str(k) for k in card if k not in known)
    if unknown and unknown[0] in later:  # a field of a later version: the version was altered
        raise refuse("verify.not_in_version", field=unknown[0], version=version)
    if unknown:
        raise refuse("verify.field_unknown", field=shown_value(unknown[0]))
    game = _game(card)
    league_id = round_sha256 = None
    if version == CARD_VERSION:
        raw_id = card_field(card, "league_id")
        league_id = None if raw_id is None else _whole(raw_id, "league_id", 1, MAX_LEAGUE_ID)
        round_sha256 = hex_field(card_field(card, "round_sha256"), "round_sha256")
    league = _text(card, "league", optional=True)
    number = _whole(card_field(card, "round"), "round", 0, MAX_ROUND)
    week = card_field(card, "week")
    if week is not None and (not isinstance(week, str) or not _WEEK.fullmatch(week)):
        raise refuse("verify.bad_week", value=shown_value(week))
    specials = _list(card, "specials", 1, MAX_SPECIALS)
    for i, name in enumerate(specials):
        if not isinstance(name, str):
            raise refuse("verify.field_type", field=f"specials[{i}]", expected=msg("verify.a_text"), got=kind_of(name))
        if len(name) > MAX_STAGE_NAME or not game.library.stages.exists(name):
            raise refuse("verify.unknown_stage", name=shown_value(name))
    assistance = _list(card, "assistance", len(specials), len(specials))
    if not all(isinstance(flag, bool) for flag in assistance):
        raise refuse("verify.field_type", field="assistance", expected=msg("verify.flags"), got=shown_value(assistance))
    digests = [hex_field(d, f"stage_sha256[{i}]") for i, d in enumerate(_list(card, "stage_sha256", len(specials),
                                                                             len(specials)))]
    ruleset = card_field(card, "ruleset")
    if not isinstance(ruleset, str) or ruleset not in game.library.rulesets():
        raise refuse("verify.unknown_ruleset", name=shown_value(ruleset))
    provisional = _provisional(card, game, ruleset)
    modules = card_field(card, "modules")
    if not isinstance(modules, dict):
        raise refuse("verify.field_type", field="modules", expected=msg("verify.an_object"), got=kind_of(modules))
    for name, on in modules.items():
        if name not in game.library.modules or on is not True:
            raise refuse("verify.bad_module", name=shown_value(name), known=", ".join(game.library.modules))
    dice = card_field(card, "dice")
    if not isinstance(dice, str) or dice not in DICE_MODES:
        raise refuse("verify.bad_dice", value=shown_value(dice))
    seed = card_field(card, "seed")
    if not isinstance(seed, str) or not _HEX64.fullmatch(seed):
        raise refuse("verify.bad_seed")
    seed_sha256 = hex_field(card_field(card, "seed_sha256"), "seed_sha256")
    driver = card_field(card, "driver")
    if not isinstance(driver, str) or not _DRIVER.fullmatch(driver):
        raise refuse("verify.bad_driver", value=shown_value(driver))
    name = _text(card, "name")
    assert name is not None
    actions = _list(card, "actions", 1, MAX_ACTIONS)
    claimed = card_field(card, "claimed")
    if not isinstance(claimed, dict):
        raise refuse("verify.field_type", field="claimed", expected=msg("verify.an_object"), got=kind_of(claimed))
    fields = SECONDS_CLAIM if game.rules.result.unit == "s" else SCORE_CLAIM  # what its game's result is
    extra = sorted(str(k) for k in claimed if k not in fields)
    if extra:
        raise refuse("verify.field_unknown", field=shown_value(f"claimed.{extra[0]}"))
    missing = [key for key in fields if key not in claimed]
    if missing:
        raise refuse("verify.field_missing", field=f"claimed.{missing[0]}")
    time_s = _whole(claimed[fields[0]], f"claimed.{fields[0]}", 0, MAX_TIME)
    power = claimed.get("power_s")
    power_s = None if power is None else _whole(power, "claimed.power_s", 0, MAX_TIME)
    return Card(league, number, week, list(specials), list(assistance), digests, ruleset, dict(modules), dice, seed,
                seed_sha256, driver, name, actions, time_s, power_s, _counts_for(card), version, league_id,
                round_sha256, _driven_sha256(card, version), card.get("game"), provisional)


def _game(card: dict[str, Any]) -> Game[Any, Any, Any, Any]:
    """The game a card names (`game`; none: classic); one this bot does not run is refused, naming
    the games it does."""
    if "game" not in card:
        return games.get(None)
    value = card["game"]
    if not isinstance(value, str):
        raise refuse("verify.field_type", field="game", expected=msg("verify.a_text"), got=kind_of(value))
    if value not in games.ids():
        raise refuse("verify.unknown_game", game=shown_value(value), games=", ".join(games.ids()))
    return games.get(value)


def _provisional(card: dict[str, Any], game: Game[Any, Any, Any, Any], ruleset: str) -> bool | None:
    """A card's `provisional` flag: `true` exactly when its game calls its ruleset provisional
    (absent otherwise); a card that says otherwise is refused naming the field."""
    value = card.get("provisional")
    if value is not None and value is not True:
        raise refuse("verify.field_type", field="provisional", expected=msg("verify.flags"), got=shown_value(value))
    if bool(value) != game.library.provisional(ruleset):
        raise refuse("verify.label_differs", field="provisional")
    return value


def _counts_for(card: dict[str, Any]) -> tuple[str | None, int] | None:
    """The optional `counts_for` of a card: exactly a league (text or null) and a round number."""
    if "counts_for" not in card:
        return None
    value = card["counts_for"]
    if not isinstance(value, dict):
        raise refuse("verify.field_type", field="counts_for", expected=msg("verify.an_object"), got=kind_of(value))
    extra = sorted(str(k) for k in value if k not in ("league", "round"))
    if extra:
        raise refuse("verify.field_unknown", field=shown_value(f"counts_for.{extra[0]}"))
    for name in ("league", "round"):
        if name not in value:
            raise refuse("verify.field_missing", field=f"counts_for.{name}")
    league = value["league"]
    if league is not None and not isinstance(league, str):
        raise refuse("verify.field_type", field="counts_for.league", expected=msg("verify.a_text"), got=kind_of(league))
    if league is not None and (not league.strip() or len(league) > MAX_NAME):
        raise refuse("verify.bad_text", field="counts_for.league", max=MAX_NAME)
    return league, _whole(value["round"], "counts_for.round", 0, MAX_ROUND)


def _driven_sha256(card: dict[str, Any], version: int) -> str | None:
    """A version 2 linked card's `driven_sha256`: it comes with `counts_for`, and only with it."""
    if version != CARD_VERSION or ("counts_for" not in card and "driven_sha256" not in card):
        return None
    for name in LINKED_FIELDS:
        card_field(card, name)  # one without the other is missing a field
    return hex_field(card["driven_sha256"], "driven_sha256")


def card_version(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value not in VERSIONS:
        raise refuse("verify.bad_version", value=shown_value(value), version=", ".join(map(str, VERSIONS)))
    return value
