"""The AI's memory: the die it chose in each situation it has met, so the same situation is a lookup.

The AI's choice of a die (`ai._dice_choice`) reads only: the stage (its roads, notes and snow
zones), the ruleset (tokens: below), its risk tolerance, the driver (index and id: the action
names them), the car's space, line chosen ahead, tires, flats, lost black dice and the dirt it
found in its corner (A8.5), the turn's gear, dice used, white dice (all, and onto asphalt), ⚠ (all,
and on snow) and SISU, the dirt markers, and the other cars only as far as room goes (A13: the
cars racing on the road) on the spaces whose room the stage's table asks about for the dice and
lines the AI weighs from this space (`move_table.Context.reach`). With `spun_car_blocks_corner`
(A13.4) the rules are worked out as written, so the key takes the cars on every space a die may
reach or fly to (`move_table.reach`) and the spun cars. `situation` puts exactly these into a key; the lines
the AI weighs follow from the stage, the space and the line chosen ahead, so they are not in it.

Stages and rulesets are named in keys by tokens, never by `id()` alone: a token map keeps its
object alive, and a token is never given twice, so a key never outlives the meaning of its ids.
Two rulesets with the same settings (each rally with modules makes its own copy) share a token.
"""

from __future__ import annotations

from itertools import count

from bot.engine.rallyman.moves.table import context, reach
from bot.engine.rallyman.ruleset import Ruleset
from bot.engine.rallyman.stages.model import Stage
from bot.engine.rallyman.state import RACING, Car, GameState, TurnState

_STAGE_TOKENS: dict[int, tuple[Stage, int]] = {}
_RULES_TOKENS: dict[int, tuple[Ruleset, int]] = {}
_RULES_BY_TEXT: dict[str, int] = {}
_TOKENS = count(1)  # `next` on it is one step under the GIL: threads never get the same token
_OFF = ("off_left", "off_right")


def _stage_token(stage: Stage) -> int:
    entry = _STAGE_TOKENS.get(id(stage))
    if entry is None or entry[0] is not stage:
        if len(_STAGE_TOKENS) > 500:
            _STAGE_TOKENS.clear()
        entry = _STAGE_TOKENS[id(stage)] = (stage, next(_TOKENS))
    return entry[1]


def _rules_token(rules: Ruleset) -> int:
    """The same token for rulesets with the same settings (a rally's modules make a copy)."""
    entry = _RULES_TOKENS.get(id(rules))
    if entry is None or entry[0] is not rules:
        if len(_RULES_TOKENS) > 500:
            _RULES_TOKENS.clear()
        text = rules.model_dump_json()
        token = _RULES_BY_TEXT.get(text)
        if token is None:
            if len(_RULES_BY_TEXT) > 500:
                _RULES_BY_TEXT.clear()
            token = _RULES_BY_TEXT[text] = next(_TOKENS)
        entry = _RULES_TOKENS[id(rules)] = (rules, token)
    return entry[1]


_LAST: tuple = (None, None, None, 0)  # (stage, rules, risk, their token) of the last key: a game asks again and again
_BASES: dict[tuple[int, int, float], int] = {}


def _base_token(stage: Stage, rules: Ruleset, risk: float) -> int:
    """One token for a stage, a ruleset's settings and a risk tolerance together."""
    key = (_stage_token(stage), _rules_token(rules), risk)
    token = _BASES.get(key)
    if token is None:
        if len(_BASES) > 500:
            _BASES.clear()
        token = _BASES[key] = next(_TOKENS)
    return token


def situation(state: GameState, turn: TurnState, car: Car, risk: float, lines: tuple[str | None, ...]) -> tuple:
    """Everything the AI's choice of a die for `car`, whose `turn` it is, asking for `lines`, reads
    from `state` (see the module text), as a key. Kept short, since every choice hashes it and a
    remembered one compares it whole: one token for the stage, rules and risk; the dirt the car
    found as one number; the white dice used are counted in `turn.used`."""
    global _LAST
    ci = turn.car
    stage, rules = state.stage, state.rules
    last_stage, last_rules, last_risk, base = _LAST
    if last_stage is not stage or last_rules is not rules or last_risk != risk:
        base = _base_token(stage, rules, risk)
        _LAST = (stage, rules, risk, base)
    position = car.position
    spun: tuple = ()
    if rules.spun_car_blocks_corner:  # the rules are worked out as written: every space in reach
        near = reach(stage, position)
        spun = tuple((j, c.position) for j, c in enumerate(state.cars) if j != ci and c.pose == "spun")
    else:  # the spaces whose room the table's entries for these dice and lines look at
        ctx = context(state, car)
        near = ctx.reaches.get((position, car.line, lines)) or ctx.reach(position, car.line, lines)
    others: list[int] = []
    if near:  # the cars taking room there (`moves.occupants`, as far as `near` goes)
        i = 0
        for c in state.cars:
            if c.position in near and i != ci and c.status == RACING and c.pose not in _OFF:
                others.append(c.position)
            i += 1
        others.sort()
    found = car.corner_dirt  # [corner, markers found] (A8.5): one number while markers < 1024, as always
    dirt_found: object = -1 if found is None else found[0] * 1024 + found[1] if found[1] < 1024 else tuple(found)
    return (base, ci, car.id, position, car.line, car.tires, car.flats, car.lost_black, dirt_found, turn.gear,
            tuple(turn.used), turn.whites_asphalt, turn.hazards, turn.snow_hazards, turn.sisu_active,
            tuple(sorted(state.dirt.items())) if state.dirt else (), tuple(others), spun)
