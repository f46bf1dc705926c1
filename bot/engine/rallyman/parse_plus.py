"""The words of the Rules+ actions (time attack A18, second markers A19); `parse` hands them here.

- `attack 3 4 W` — roll these dice at once (a time attack, at least 2 dice). Also `attaque`, `angriff`.
- `order 4 3 W` — the order to drive the rolled dice in; a white die showing ⚠ is written `W!`
  (or `W⚠`, or `⚠` right after the white), a plain `W` takes a white without ⚠ first; one line
  word may follow the die that takes it, as in a roll (`order 4 skid W 3`). Also `ordre`,
  `reihenfolge`.
- `order best` — the legal order the bot proposes (see `attack.py`). Also `best`/`meilleur`/`beste`.
- `place 4` — place the next die with second markers instead of rolling it; one die, optionally
  one line word (`place 4 skid`). Also `placer`, `setzen`.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engine.core.errors import Ambiguous, CannotParse
from bot.engine.core.text import msg
from bot.engine.rallyman.actions import Action, Attack, Order, Place

ATTACK_WORDS = ("attack", "attaque", "angriff")
ORDER_WORDS = ("order", "ordre", "reihenfolge")
PLACE_WORDS = ("place", "placer", "setzen")
BEST_WORDS = ("best", "meilleur", "meilleure", "beste")
HEAD_WORDS = ATTACK_WORDS + ORDER_WORDS + PLACE_WORDS
_MARKS = ("!", "⚠️", "⚠")
_DICE = ("1", "2", "3", "4", "5", "W")
_LINES = ("interior", "skid", "shortcut")


def parse_plus(words: list[str], meaning: Callable[[str], str], driver: str | None) -> Action | None:
    """The action of a command starting with a Rules+ word, or None for any other command."""
    if not words or words[0] not in HEAD_WORDS:
        return None
    head, body = words[0], words[1:]
    if head in ORDER_WORDS and len(body) == 1 and body[0] in BEST_WORDS:
        return Order(best=True, driver=driver)
    dice: list[str] = []
    lines: list[tuple[str, int]] = []
    for word in body:
        marked = word.endswith(_MARKS)
        bare = word
        for mark in _MARKS:
            bare = bare.removesuffix(mark)
        if not bare:  # a ⚠ on its own marks the die before it
            if not dice or dice[-1] != "W" or head not in ORDER_WORDS:
                raise CannotParse(msg("parse.plus_mark"))
            dice[-1] = "W!"
            continue
        m = meaning(bare)
        if m in _DICE:
            if marked and (m != "W" or head not in ORDER_WORDS):
                raise CannotParse(msg("parse.plus_mark"))
            dice.append("W!" if marked else m)
        elif m in _LINES and head not in ATTACK_WORDS:
            lines.append((m, max(0, len(dice) - 1)))
        else:
            raise CannotParse(msg(f"parse.plus_{_kind(head)}"))
    if len(lines) > 1:
        names = tuple(sorted({name for name, _ in lines}))
        raise Ambiguous(msg("parse.two_lines", lines=" and ".join(name for name, _ in lines)), names)
    line, line_at = lines[0] if lines else (None, 0)
    if head in ATTACK_WORDS:
        if not dice:
            raise CannotParse(msg("parse.plus_attack"))
        return Attack(tuple(dice), driver=driver)
    if head in PLACE_WORDS:
        if len(dice) != 1:
            raise CannotParse(msg("parse.plus_place"))
        return Place(dice[0], line, driver=driver)
    if not dice:
        raise CannotParse(msg("parse.plus_order"))
    return Order(tuple(dice), line, line_at, driver=driver)


def _kind(head: str) -> str:
    return "attack" if head in ATTACK_WORDS else "place" if head in PLACE_WORDS else "order"
