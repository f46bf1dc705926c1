"""DIRT's words: what a driver types after `/roll` (tolerant), the canonical label of an action,
and its strict log entry (JSON, `decode(encode(a)) == a`).

Dice: `1`…`6` (a gear die), `coast` (`w`, `white`), `leader` (`o`, `orange`), brake dice after a
gear die: `2+brake`, `2 brake`, `2b`, `2bb`, `2+b+b`. Directions: `left`, `right`, `slide`, `cut`.
`stop`, `spare`, and `attack` followed by ≥ 2 steps, each with its optional direction. French and
German players may type their own words (RULES D2): `gaz`/`gas` (coast), `frein`/`bremse` (brake),
`gauche`/`droite`/`glisse`/`raccourci`, `links`/`rechts`/`rutschen`/`abkürzung`; the log and the
buttons keep the English words.
"""

from __future__ import annotations

import json
import re
from typing import Any

from bot.engine.core.errors import CannotParse
from bot.engine.core.log import LOG_VERSION, CodecError, Lifecycle, Start, Status, lifecycle_fields, to_text
from bot.engine.core.text import Listed, msg
from bot.engine.dirt.actions import DIRECTIONS, LANDINGS, Action, Attack, Retire, Roll, Spare, Stop, Timeout
from bot.engine.dirt.dice import COAST, GEAR_DICE, LEADER
from bot.engine.dirt.dice_rules import Step
from bot.engine.dirt.state import DirtState

SIDE_WORDS = {"coast": COAST, "w": COAST, "white": COAST, "leader": LEADER, "o": LEADER, "orange": LEADER,
              "gaz": COAST, "blanc": COAST, "gas": COAST, "weiss": COAST, "weiß": COAST}
BRAKE_WORDS = ("brake", "b", "brakes", "frein", "freins", "bremse", "bremsen")
DIRECTION_WORDS = {"left": "left", "l": "left", "right": "right", "r": "right", "slide": "slide", "cut": "cut",
                   "shortcut": "cut",
                   "gauche": "left", "droite": "right", "glisse": "slide", "raccourci": "cut",
                   "links": "left", "rechts": "right", "rutschen": "slide", "abkürzung": "cut", "abkurzung": "cut"}
STOP_WORDS = ("stop", "arrêt", "arret", "stopp")
#: `… land right`: where a jump lands (B11), EN / FR / DE
LAND_WORDS = ("land", "landing", "atterrir", "atterrissage", "landen", "landung")
_GEAR_BRAKES = re.compile(r"([1-6])(b*)")


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[\s+,]+", text.strip().lower()) if t]


def _bad(text: str) -> CannotParse:
    return CannotParse(msg("dirt.bad_words", text=text.strip()[:40]))


def _steps(words: list[str], text: str) -> list[tuple[Step, str]]:
    """Steps with their directions, in order."""
    out: list[tuple[Step, str]] = []
    i = 0
    while i < len(words):
        word = words[i]
        match = _GEAR_BRAKES.fullmatch(word)
        if match:
            die, brakes = match.group(1), len(match.group(2))
            i += 1
            while i < len(words) and words[i] in BRAKE_WORDS:
                brakes += 1
                i += 1
        elif word in SIDE_WORDS:
            die, brakes = SIDE_WORDS[word], 0
            i += 1
        else:
            raise _bad(text)
        to = ""
        if i < len(words) and words[i] in DIRECTION_WORDS:
            to = DIRECTION_WORDS[words[i]]
            i += 1
        out.append((Step(die, brakes), to))
    return out


def parse(text: str, state: DirtState | None = None, seat: str | None = None) -> Action:
    """The action a driver typed (case and spaces as they come); a refusal names the text."""
    words = _tokens(text)
    if not words:
        raise _bad(text)
    if len(words) == 1 and words[0] in STOP_WORDS:
        return Stop()
    if words == ["spare"]:
        return Spare()
    if words[0] in ("attack", "ta"):
        return Attack(tuple(_steps(words[1:], text)))
    land = ""
    at = next((i for i, w in enumerate(words) if w in LAND_WORDS), None)
    if at is not None:  # `4 left land right`: the landing of a jump (B11)
        rest = words[at + 1:]
        if len(rest) != 1 or DIRECTION_WORDS.get(rest[0]) not in LANDINGS:
            raise CannotParse(msg("dirt.bad_landing", text=text.strip()[:40]))
        land, words = DIRECTION_WORDS[rest[0]], words[:at]
    steps = _steps(words, text)
    if len(steps) != 1:
        raise CannotParse(msg("dirt.one_step", text=text.strip()[:40]))
    step, to = steps[0]
    return Roll(step, to, land)


def _step_label(step: Step, to: str) -> str:
    return " ".join(w for w in (step.die + "+brake" * step.brakes, to) if w)


def label(action: Action) -> str:
    """The canonical text after the verb: `4 left`, `2+brake`, `coast`, `stop`, `attack 4 5 right`."""
    if isinstance(action, Roll):
        return _step_label(action.step, action.to) + (f" land {action.land}" if action.land else "")
    if isinstance(action, Attack):
        return " ".join(["attack", *(_step_label(s, to) for s, to in action.steps)])
    if isinstance(action, Stop):
        return "stop"
    if isinstance(action, Spare):
        return "spare"
    if isinstance(action, Retire):
        return "retire " + action.seat
    return "timeout"


#: the English words of a label, as the messages that show them in the reader's language (each a
#: word `parse` reads in every language: RULES D2's `gaz`, `frein`, `links` …)
_TYPED = {"left": "dirt.typed_left", "right": "dirt.typed_right", "slide": "dirt.typed_slide",
          "cut": "dirt.typed_cut", "coast": "dirt.typed_coast", "leader": "dirt.typed_leader",
          "brake": "dirt.typed_brake", "land": "dirt.typed_land", "stop": "dirt.typed_stop"}


def typed_words(label_text: str) -> Listed:
    """A label as the reader types it: `1 left` reads `1 gauche` in French and `1 links` in
    German, `2+brake` reads `2 frein`; a word without a translation stays as it is. `parse` reads
    what this shows (and the English label, which the buttons keep as their id)."""
    def word(w: str) -> str:
        return msg(_TYPED[w]) if w in _TYPED else w

    shown_words: list[str] = []
    for token in label_text.split():
        first, *more = token.split("+")
        joined = word(first)
        for part in more:  # `2+brake`: English keeps the plus, French and German a space
            joined = msg("dirt.typed_plus", left=joined, right=word(part))
        shown_words.append(joined)
    return Listed(shown_words, "space")


def shown(label_text: str) -> str:
    """`typed_words` in backquotes, as a prompt names a move to type."""
    return msg("dirt.move", move=typed_words(label_text))


def _step_fields(step: Step, to: str) -> dict[str, Any]:
    return {"die": step.die, "brakes": step.brakes, "to": to}


def encode(action: Action | Lifecycle) -> str:
    """The action's one canonical log entry."""
    if isinstance(action, (Start, Status)):
        fields = lifecycle_fields(action)
    elif isinstance(action, Roll):
        fields = {"type": "roll", **_step_fields(action.step, action.to),
                  **({"land": action.land} if action.land else {})}  # only when named: older logs have none
    elif isinstance(action, Attack):
        fields = {"type": "attack", "steps": [_step_fields(s, to) for s, to in action.steps]}
    elif isinstance(action, Retire):
        fields = {"type": "retire", "seat": action.seat}
    else:
        fields = {"type": {Stop: "stop", Spare: "spare", Timeout: "timeout"}[type(action)]}
    return to_text({"v": LOG_VERSION, **fields})


_KEYS = {"roll": {"die", "brakes", "to"}, "attack": {"steps"}, "retire": {"seat"}, "stop": set(), "spare": set(),
         "timeout": set(), "start": {"seats"}, "status": {"status"}}


def _step_of(d: Any, where: str) -> tuple[Step, str]:
    if not isinstance(d, dict) or set(d) != {"die", "brakes", "to"}:
        raise CodecError(f"{where}: a step has exactly die, brakes and to")
    die, brakes, to = d["die"], d["brakes"], d["to"]
    if die not in (*GEAR_DICE, COAST, LEADER):
        raise CodecError(f"{where}.die: unknown die {die!r}")
    if type(brakes) is not int or brakes < 0 or (brakes and die not in GEAR_DICE):
        raise CodecError(f"{where}.brakes: 0 or more, only with a gear die")
    if to not in DIRECTIONS:
        raise CodecError(f"{where}.to: unknown direction {to!r}")
    return Step(die, brakes), to


def decode(text: str) -> Action | Lifecycle:
    """An action back from its log entry; a `CodecError` names the field and why."""
    try:
        d = json.loads(text)
    except json.JSONDecodeError as error:
        raise CodecError(f"entry: not JSON ({error.msg})") from error
    if not isinstance(d, dict) or d.get("v") != LOG_VERSION:
        raise CodecError(f"v: not a log entry of version {LOG_VERSION}")
    kind = d.get("type")
    if kind not in _KEYS:
        raise CodecError(f"type: unknown entry type {kind!r}")
    if set(d) - {"land" if kind == "roll" else ""} != {"v", "type"} | _KEYS[kind]:
        raise CodecError(f"{kind}: fields must be exactly {', '.join(sorted(_KEYS[kind]))}")
    if to_text(d) != text:
        raise CodecError("entry: not in canonical form (compact JSON, keys sorted)")
    if kind == "roll":
        step, to = _step_of({k: d[k] for k in ("die", "brakes", "to")}, "roll")
        if "land" in d and d["land"] not in LANDINGS:
            raise CodecError(f"land: {' or '.join(LANDINGS)}, not {d['land']!r}")
        return Roll(step, to, d.get("land", ""))
    if kind == "attack":
        if not isinstance(d["steps"], list):
            raise CodecError("attack.steps: a list of steps")
        return Attack(tuple(_step_of(s, f"steps[{i}]") for i, s in enumerate(d["steps"])))
    if kind == "retire":
        if not isinstance(d["seat"], str):
            raise CodecError("retire.seat: a seat id")
        return Retire(d["seat"])
    if kind == "start":
        return Start(tuple(str(s) for s in d["seats"]))
    if kind == "status":
        return Status(str(d["status"]))
    if kind == "stop":
        return Stop()
    return Spare() if kind == "spare" else Timeout()
