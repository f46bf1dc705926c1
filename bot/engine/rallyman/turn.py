"""Playing a turn on a copied state: one die, stop, spare tire, and what follows from them.

Covers the die itself (A6, A7), shortcut cards (A9), bumps (A10), loss of control (A11), damage
(A12), spare tire (A14) and finishing (A15). Functions change the copy they are given and append
events; `game.apply` forks first, so a refusal never leaks into the caller's state. A car is
changed only through `state.own(i)` (a fork shares the cars it did not copy), and the deck and
dirt markers are replaced, never changed in place.
"""

from __future__ import annotations

from typing import Literal

from bot.engine.core.events import Event
from bot.engine.core.scores import format_time
from bot.engine.core.text import counted, msg
from bot.engine.rallyman.dice_rules import check_die, describe_allowed, dice_allowed, die_allowed, gear_name
from bot.engine.rallyman.dirt import note_corner_arrival
from bot.engine.rallyman.loss_causes import LossCause
from bot.engine.rallyman.moves.move import KO, LOC, Move, refuse, resolve
from bot.engine.rallyman.order import next_turn
from bot.engine.rallyman.out_reasons import OutReason
from bot.engine.rallyman.splits import record_splits
from bot.engine.rallyman.stages.model import FINISH, SpaceKind, Surface
from bot.engine.rallyman.state import FINISHED, OUT, Car, Card, GameState, TurnState
from bot.engine.rallyman.words import die_word


def roll_one(state: GameState, die: str, line: str | None, events: list[Event], face: bool | None = None) -> Move:
    """Use one die: check it, move, roll, count ⚠, then resolve what the move caused. `face`, when
    given, is the die's face already known (a time attack rolled first, A18.3; a die placed with
    second markers shows none, A19.1) instead of a roll."""
    turn = state.turn  # `state.current_turn()`, inlined: this runs for every die
    if turn is None:
        raise AssertionError("no turn is being played")
    ci = turn.car
    car = state.cars[ci] if state.owned >> ci & 1 else state.own(ci)  # `own`, without its call once owned
    if not die_allowed(state, car, turn, die):
        check_die(state, car, turn, die)  # refuses it, saying why
    gear_die = die != "W"
    g = int(die) if gear_die else turn.gear
    move = resolve(state, ci, g, line, gear_die)
    target = move.target
    stage = state.stage
    rules = state.rules
    space = stage.spaces[target] if target >= 0 else None
    # the snow-tire cap on white dice is checked by `resolve` (A20.4)
    if space is None:
        surface = Surface.ASPHALT
    else:  # `space.surface(snowy)`, inlined
        surface = space.surface_snow if space.zone in stage.snow_zones else space.surface_dry
    if face is None:
        dice = rules.dice
        hazard = state.dice.roll(die, dice.faces, dice.hazard_faces[die])
    else:
        hazard = face
    shakedown = rules.modules.shakedown
    counted = hazard and not (shakedown or turn.sisu_active)
    turn.used.append(die)
    if gear_die:
        turn.gear = g
        turn.last_gear_die = g
    else:
        turn.whites += 1
        if surface is Surface.ASPHALT:
            turn.whites_asphalt += 1
    if counted:
        turn.hazards += 1
        if surface is Surface.SNOW:
            turn.snow_hazards += 1
    turn.path.append([target, die, hazard])
    events.append(Event("die", car.id, {"die": die_word(die) if not gear_die else die, "hazard": "⚠" if hazard else "",
                                         "space": stage.label(target), "hazards": turn.hazards}))
    if move.outcome == KO:
        _knock_out(state, car, "overspeed_ko", events, over=move.over)
        end_turn(state, events)
        return move
    _place(state, car, target)
    if move.line:
        car.line = None
    if space is not None and space.kind is SpaceKind.SHORTCUT:
        _shortcut_card(state, car, target, events)
        if car.status == OUT:
            end_turn(state, events)
            return move
    cause = _loss_cause(state, car, turn, move, hazard and not shakedown, events)
    if target == FINISH:
        _finish(state, car, turn, events, crashed=cause is not None)
    elif cause:
        lose_control(state, car, turn, move, cause, events)
    return move


def _loss_cause(state: GameState, car: Car, turn: TurnState, move: Move, hazard: bool,
                events: list[Event]) -> LossCause | None:
    """Why the car loses control after this die, if it does (A11.1), SISU permitting (A22): each
    trigger by its own name (`bot.engine.rallyman.loss_causes`)."""
    if move.outcome == LOC:
        return move.reason or "overspeed"  # over-speed or bump N+2: SISU cannot save it
    savable: LossCause | None = None
    if move.bump_risk and hazard and not turn.sisu_active:
        savable = "bump"
    rules = state.rules
    if turn.hazards >= rules.hazard_limit:
        savable = "hazards"
    elif car.tires == "asphalt" and _snow_count(state, turn) >= rules.snow_hazard_limit:  # A20.3, AMB-8
        savable = "snow_turn_hazards" if rules.snow_threshold_scope == "turn" else "snow_hazards"
    if savable and _use_sisu(state, car, turn, savable, events):
        return None
    return savable


def cause_limit(state: GameState, cause: LossCause) -> int | None:
    """The ⚠ count a cause of ⚠ was reached at (the ruleset's limit), for its words; none for
    over-speed and bumps."""
    if cause == "hazards":
        return state.rules.hazard_limit
    if cause in ("snow_hazards", "snow_turn_hazards"):
        return state.rules.snow_hazard_limit
    return None


def _snow_count(state: GameState, turn: TurnState) -> int:
    return state.rules.snow_count(turn.hazards, turn.snow_hazards)


def _use_sisu(state: GameState, car: Car, turn: TurnState, cause: LossCause, events: list[Event]) -> bool:
    """SISU (A22, module): cancel a ⚠ loss of control once per rally; used automatically."""
    if not (state.rules.modules.sisu and car.sisu):
        return False
    if cause == "bump" and not state.rules.sisu_against_bump:
        return False
    car.sisu = False
    if state.rules.sisu_scope == "turn":
        turn.sisu_active = True
    turn.hazards = min(turn.hazards, state.rules.hazard_limit - 1)
    turn.snow_hazards = min(turn.snow_hazards, state.rules.snow_hazard_limit - 1)
    events.append(Event("sisu", car.id, {"cause": cause, "limit": cause_limit(state, cause)}))
    return True


def _place(state: GameState, car: Car, target: int) -> None:
    state.arrival += 1
    car.position = target
    car.arrived = state.arrival
    note_corner_arrival(state, car)


def _shortcut_card(state: GameState, car: Car, space_id: int, events: list[Event]) -> None:
    """Draw the top shortcut card and put it under the deck (A9.1, AMB-4), then apply it."""
    deck = state.deck  # replaced, never changed in place: a forked state shares it (`GameState.fork`)
    card = deck[0]
    state.deck = deck[1:] + [card]
    corner = state.stage.spaces[space_id].corner
    assert corner is not None, "a shortcut space belongs to a corner"
    if card == "dirty":
        state.dirt = {**state.dirt, corner: state.dirt.get(corner, 0) + 1}  # replaced, as the deck
        events.append(Event("shortcut_dirty", car.id, {"markers": state.dirt[corner]}))
    elif card == "flat" and not state.rules.modules.shakedown:
        car.flats += 1
        events.append(Event("shortcut_flat", car.id, {"flats": car.flats}))
        if car.flats >= state.rules.flats_knock_out_at:
            _knock_out(state, car, "flats_ko", events, flats=car.flats)
    else:
        events.append(Event("shortcut_good", car.id, {}))


def lose_control(state: GameState, car: Car, turn: TurnState, move: Move, cause: LossCause,
                 events: list[Event]) -> None:
    """Loss of control (A11.2): card back, gear 0, event, damage; the turn ends."""
    g = move_gear(turn)
    event = state.dice.pick("loss-of-control event", state.rules.loc_events)
    car.pile.append(Card("loc", 0, state.rules.loc_card_seconds[str(g)], event))
    space = state.stage.spaces[car.position]
    resume = car.position
    if space.kind is SpaceKind.SKID:
        interior = space.border("left" if space.left.kind == "road" else "right").link  # A11.5
        assert interior is not None, "a skid space has the interior line beside it"
        resume = interior
    events.append(Event("loss_of_control", car.id, {"cause": cause, "limit": cause_limit(state, cause), "event": event,
                                                    "gear": g, "space": _space_label(state, car.position)}))
    if event == "spin":
        car.pose = "spun"
    else:
        side: Literal["left", "right"] = "left" if event == "off_left" else "right"
        border = space.border(side)
        if border.kind == "road" and space.kind is not SpaceKind.SHORTCUT:
            # AMB-20: the car crosses the other lane(s) and leaves the road beyond its edge
            space, border = state.stage.beyond_road(space.id, side)
            events.append(Event("off_across_road", car.id, {"side": msg(f"word.side_{side}")}))
        if border.kind == "shortcut":  # A11.4: the excursion lands on the shortcut
            assert border.link is not None, "a shortcut border links the shortcut space"
            _place(state, car, border.link)
            resume = border.link
            events.append(Event("lands_on_shortcut", car.id, {}))
            _shortcut_card(state, car, border.link, events)
        elif border.kind == "road":
            if space.kind is SpaceKind.SHORTCUT:  # A11.4: thrown back onto the interior
                assert border.link is not None, "a road border links the space beside"
                resume = border.link
            car.pose = event
            events.append(Event("off_onto_road", car.id, {"side": msg(f"word.side_{side}")}))
        else:
            car.pose = event
            zone = state.stage.zones[space.zone]
            assert border.terrain is not None, "a terrain border names its terrain"
            lost = zone.damage(border.terrain, space.zone in state.stage.snow_zones)
            _damage(state, car, lost, border.terrain.value, events)
    car.resume = resume
    end_turn(state, events)


def move_gear(turn: TurnState) -> int:
    """Gear of the last engaged move: last gear die, else the gear the turn started in."""
    return turn.last_gear_die if turn.last_gear_die is not None else turn.gear


def _damage(state: GameState, car: Car, lost: int, terrain: str, events: list[Event]) -> None:
    """Cover black-die symbols (A12.2); all of them lost knocks the car out (A12.5, OPEN-10)."""
    before = car.lost_black
    car.lost_black = min(5, car.lost_black + lost)
    events.append(Event("damage", car.id, {"terrain": terrain, "lost": car.lost_black - before,
                                           "total": car.lost_black, "dice": dice_word(car.lost_black - before)}))
    if car.lost_black >= state.rules.knocked_out_at_black_lost and car.status != OUT:
        _knock_out(state, car, "damage_ko", events, lost=car.lost_black)


def _knock_out(state: GameState, car: Car, reason: OutReason, events: list[Event], **params) -> None:
    """Knocked out (A12.5): off the board, no more turns, unclassified."""
    car.status = OUT
    car.out_reason = reason
    car.pose = "normal"
    events.append(Event(reason, car.id, params))


def _finish(state: GameState, car: Car, turn: TurnState, events: list[Event], crashed: bool) -> None:
    """Crossing the finish line (A15); losing control while crossing still finishes (A15.3)."""
    g = move_gear(turn)
    car.pile.append(Card("gear", g, state.rules.card_seconds(g)))
    car.status = FINISHED
    state.finishers += 1
    car.finish_rank = state.finishers
    if crashed:
        lost = state.rules.finish_loc_black_dice
        car.lost_black = min(5, car.lost_black + lost)
        events.append(Event("finish_crash", car.id, {"lost": lost, "dice": dice_word(lost)}))
    events.append(Event("finish", car.id, {"time": format_time(car.time), "gear": g}))
    end_turn(state, events)


def stop(state: GameState, events: list[Event]) -> None:
    """End the turn by choice (A6.4): the card of the last gear die, or the current gear (AMB-15)."""
    turn = state.current_turn()
    car = state.own(turn.car)
    if not turn.started:
        raise refuse("turn.stop_without_die", allowed=describe_allowed(dice_allowed(state, car, turn)))
    g = move_gear(turn)
    seconds = state.rules.card_seconds(g)
    car.pile.append(Card("gear", g, seconds))
    events.append(Event("stop", car.id, {"gear": g, "seconds": seconds, "time": format_time(car.time)}))
    end_turn(state, events)


def fit_spare(state: GameState, events: list[Event]) -> None:
    """Spare tire (A14.1): start of turn, gear 0 or 1, one flat repaired, restart in 1st."""
    turn = state.current_turn()
    car = state.own(turn.car)
    if turn.started:
        raise refuse("spare.not_at_start")
    if not car.spare:
        raise refuse("spare.used")
    if car.flats == 0:
        raise refuse("spare.no_flat")
    if turn.gear > 1:
        raise refuse("spare.gear_too_high", gear=gear_name(turn.gear))
    car.flats -= 1
    car.spare = False
    turn.gear = 0
    if state.course is not None and state.course.index > 0 and not car.pile:
        # A14.2: before its first move of a later special the car is still "between specials":
        # the flat is repaired and the spare's card discarded, its minute not counted.
        events.append(Event("spare_between", car.id, {"flats": car.flats}))
        return
    car.pile.append(Card("spare", 0, state.rules.spare_tire_seconds))
    events.append(Event("spare", car.id, {"flats": car.flats}))


def end_turn(state: GameState, events: list[Event]) -> None:
    """Close the turn: split times (A21), the path for the board, then the next driver."""
    turn = state.turn
    if turn is None:
        return
    car = state.own(turn.car)
    car.last_hazards = turn.hazards
    if state.rules.modules.splits:  # A21 module: split times shown to all (bot.engine.rallyman.splits)
        record_splits(state, car, events)
    elif car.status != OUT:  # without it: recorded silently; knocked out: unclassified (A12.5)
        spaces = state.stage.spaces
        for space_id, _, _ in turn.path:
            if space_id >= 0 and spaces[space_id].split and all(s[0] != space_id for s in car.splits):
                car.splits.append([space_id, car.time])
    state.last_path = turn.path[:]  # its steps are never changed once made (`roll_one`)
    state.last_driver = turn.car
    state.turn = None
    next_turn(state, events)


def dice_word(n: int) -> str:
    """`die` or `dice` after a number: "1 black die lost", "2 black dice lost" (a message)."""
    return counted("word.dice", n)


def _space_label(state: GameState, target: int) -> str:
    return state.stage.label(target)
