"""The drivers' grammar: `3 white 4`, `3 w 4`, `2 gaz`, `4 weiss skid`, `stop`, `spare`, `cut`,
`tires snow` (`pneus neige`, `Winterreifen`, `tires asphalt`, RULES A20.2 / D1).

English, French and German words for the white die, the lines and stopping (RULES D1), unique
prefixes (`sk` = skid), and three kinds of error: cannot parse, not allowed now (saying what is
allowed), ambiguous. `parse` checks the grammar and the first die against the dice rules;
`apply` checks the road.

A line word (interior, skid, shortcut) belongs to the die written right before it: in
`3 W 4 cut` the 4 takes the shortcut, in `3 cut W 4` the 3 does; written before every die
(`cut 3`) it belongs to the first die. So `4 skid` and `3 cut` mean what they always meant. That
die must be the one that takes the line (enters that trajectory of a corner, goes on skidding,
or flies over it from a bump): otherwise `apply` refuses the roll before any die is rolled,
naming the die that does reach the corner and how to write it (`3 shortcut W 4`). One line word
per roll; a line for a later corner is chosen ahead with the line word alone (`skid`).

Rules+ commands (time attack `attack 3 4 W` / `order 4 3 W` / `order best`, second markers
`place 4`) are read by `bot.engine.rallyman.parse_plus`, which documents their words.
"""

from __future__ import annotations

import re

from bot.engine.core.errors import Ambiguous, CannotParse, NotAllowed
from bot.engine.core.text import msg
from bot.engine.rallyman.actions import Action, ChooseLine, Roll, Spare, Stop, Tires
from bot.engine.rallyman.dice_rules import check_die
from bot.engine.rallyman.parse_plus import parse_plus
from bot.engine.rallyman.state import GameState

WORDS: dict[str, tuple[str, ...]] = {
    "W": ("w", "white", "whites", "blanc", "blanche", "gaz", "g", "weiss", "weiß", "gas", "gaswurfel", "gaswürfel"),
    "interior": ("interior", "inside", "inner", "int", "i", "in", "ideal", "ideallinie", "tendue", "innen",
                 "intérieur", "interieur", "innenbahn"),
    "skid": ("skid", "drift", "driften", "derapage", "dérapage", "outside", "out", "außenbahn", "aussenbahn"),
    "shortcut": ("shortcut", "cut", "k", "corde", "abkurzung", "abkürzung"),
    "stop": ("stop", "end", "done", "fin", "halt", "ende", "arrêt", "arret", "stopp", "."),
    "spare": ("spare", "tire", "tyre", "roue", "reserverad", "reserve", "secours"),
}
#: Tire choice (A20.2), EN/FR/DE words of RULES D1: `tires snow`, `pneus neige`, `Winterreifen`.
TIRE_WORDS = ("tires", "tyres", "tire", "tyre", "pneus", "pneu", "reifen")
TIRE_KINDS: dict[str, tuple[str, ...]] = {
    "snow": ("snow", "neige", "winter", "schnee", "winterreifen"),
    "asphalt": ("asphalt", "asphalte", "tarmac", "asphaltreifen"),
}
_TIRE_KIND = {alias: kind for kind, aliases in TIRE_KINDS.items() for alias in aliases}
_EXACT = {alias: meaning for meaning, aliases in WORDS.items() for alias in aliases}
_SPLIT = re.compile(r"[\s,;+>→]+|(?<=\d)-|-(?=\d)|(?<=\d)(?=[a-z])|(?<=[a-z])(?=\d)")
_PREFIX = re.compile(r"^/?(roll|r|rouler|würfeln|wurfeln)\s+", re.IGNORECASE)
MAX_DICE = 7
_DICE = ("1", "2", "3", "4", "5", "W")


def _meaning(word: str) -> str:
    if re.fullmatch(r"[1-5]", word):
        return word
    if word in _EXACT:
        return _EXACT[word]
    hits = sorted({m for alias, m in _EXACT.items() if len(alias) >= 3 and alias.startswith(word)})
    if len(hits) > 1:
        raise Ambiguous(msg("parse.ambiguous", word=word, options=" or ".join(hits)), tuple(hits))
    if len(hits) == 1 and len(word) >= 2:  # one letter is too short to guess a single meaning
        return hits[0]
    raise CannotParse(msg("parse.unknown", word=word))


def tokens(text: str) -> list[str]:
    body = _PREFIX.sub("", text.strip().lower())
    words = [w for w in _SPLIT.split(body) if w]
    if len(words) > 1 and words[0] == "line":  # `line skid`, the canonical text of ChooseLine
        words = words[1:]
    return words


def parse(text: str, state: GameState | None = None, driver: str | None = None) -> Action:
    """Read a driver's command. With a state, also refuse a first die the dice rules forbid now."""
    words = tokens(text)
    if not words:
        raise CannotParse(msg("parse.empty"))
    plus = parse_plus(words, _meaning, driver)  # A18 / A19 commands (modules); checked by `apply`
    if plus is not None:
        return plus
    tires = _tires(words)
    if tires is not None:
        return Tires(tires, driver=driver)
    meanings = [_meaning(w) for w in words]
    dice = tuple(m for m in meanings if m in _DICE)
    lines = [m for m in meanings if m in ("interior", "skid", "shortcut")]
    if len(lines) > 1:
        raise Ambiguous(msg("parse.two_lines", lines=" and ".join(lines)), tuple(sorted(set(lines))))
    line = lines[0] if lines else None
    # the die the line word follows (the first die when the word comes before every die)
    line_at = max(0, sum(1 for m in meanings[:meanings.index(line)] if m in _DICE) - 1) if line else 0
    end = "stop" in meanings
    if end and meanings[-1] != "stop":
        raise CannotParse(msg("parse.stop_not_last"))
    if "spare" in meanings:
        if len(meanings) > 1:
            raise CannotParse(msg("parse.spare_alone"))
        return Spare(driver=driver)
    if len(dice) > MAX_DICE:
        raise CannotParse(msg("parse.too_many_dice"))
    if not dice:
        if line and not end:
            return ChooseLine(line, driver=driver)
        if end and not line:
            return Stop(driver=driver)
        raise CannotParse(msg("parse.line_alone"))
    action = Roll(dice, line, end, driver=driver, line_at=line_at)
    if state is not None:
        _check_first_die(state, action)
    return action


def _tires(words: list[str]) -> str | None:
    """`tires snow`, `snow tires`, `pneus neige`, `Winterreifen`, `snow`: the tire kind; None when
    the words are not a tire choice (`tire` alone still means the spare tire)."""
    kinds = [_TIRE_KIND[w] for w in words if w in _TIRE_KIND]
    rest = [w for w in words if w not in _TIRE_KIND and w not in TIRE_WORDS]
    if kinds and not rest and len(kinds) == 1 and len(words) <= 2:
        return kinds[0]
    if kinds or (words[0] in TIRE_WORDS and (len(words) > 1 or words[0] not in ("tire", "tyre"))):
        raise CannotParse(msg("parse.tires"))
    return None


def _check_first_die(state: GameState, action: Roll) -> None:
    """A quick 'not allowed now' naming what is allowed; the road is checked by `apply`."""
    if state.turn is None:
        raise NotAllowed(msg("turn.stage_over"))
    car = state.cars[state.turn.car]
    if action.driver is not None and action.driver != car.id:
        return  # apply() says whose turn it is
    check_die(state, car, state.turn, action.dice[0])
