"""A Road Rally USA game as text (RULES C3-C8, C10.8): `/rally status` and the channel's prompt
(public: built from what a spectator may see, so they read the same for a seat's view and never
show a hand, a deck or an unscored stage card), `/hand` (the seat's private lines) and the final
classification. Message keys only; the words are the catalogue's (D3)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine.core.text import Listed, counted, msg
from bot.engine.roadrally.actions import Order, Play
from bot.engine.roadrally.narrate import space_text
from bot.engine.roadrally.presets import preset
from bot.engine.roadrally.road import SpaceKind
from bot.engine.roadrally.view import PublicSeat, RRView
from bot.engine.roadrally.words import cards_text, label, typed_text


def _name(names: Mapping[str, str], seat: str) -> str:
    return names.get(seat, seat)


def _seat(view: RRView, seat: str) -> PublicSeat:
    return next(s for s in view.seats if s.id == seat)


def _choice_points(view: RRView) -> int:
    assert view.choice is not None
    _, points, doubled = view.choice
    return points * 2 if doubled else points


def _race(view: RRView) -> list[PublicSeat]:
    """Seats in race order (C3, C4), retired seats last."""
    return sorted(view.seats, key=lambda s: (s.place is None, s.place or 0))


def status_lines(view: RRView, names: Mapping[str, str]) -> list[str]:
    """`/rally status`: the round, the turn order with "L" (C3), what is being decided, and each
    seat's public counts."""
    order = [_name(names, s) for s in view.order]
    if order:
        order[-1] = msg("roadrally.st.last", name=order[-1])
    lines = [msg("roadrally.st.head_sprint" if view.sprint else "roadrally.st.head", round=view.round,
                 preset=view.preset),
             msg("roadrally.st.order", order=Listed(order, "comma")),
             _doing(view, names)]
    lines += [_seat_line(view, s, names) for s in _race(view)]
    return lines


def _doing(view: RRView, names: Mapping[str, str]) -> str:
    """What the game waits for (public: a stage window names no seat, C10.8)."""
    if view.phase == "over":
        return msg("roadrally.st.over")
    if view.phase == "stage":
        return msg("roadrally.st.stage", stage=view.window or 0)
    if view.phase == "choose" and view.choice is not None:
        return msg("roadrally.st.choose", name=_name(names, view.choice[0]), points=_choice_points(view),
                   cards=preset(view.preset).choice_cards)
    name = _name(names, view.current or "")
    if view.phase == "reshuffle":
        return msg("roadrally.st.reshuffle", name=name)
    if view.phase == "mechanic":
        return msg("roadrally.st.mechanic", name=name)
    return msg("roadrally.st.turn", name=name)


def _seat_line(view: RRView, s: PublicSeat, names: Mapping[str, str]) -> str:
    name = _name(names, s.id)
    if s.retired:
        return msg("roadrally.st.seat_retired", name=name)
    facts = [space_text(view.road, s.pos)]
    if s.mark is not None:
        facts.append(msg("roadrally.st.finished", mark=s.mark))
    facts += [counted("roadrally.st.hand", s.hand_size), counted("roadrally.st.deck", s.deck_size),
              counted("roadrally.st.discard", len(s.discard))]
    if s.stage_tiles:
        facts.append(msg("roadrally.st.stage_tiles", tiles=Listed([str(n) for n in s.stage_tiles], "comma")))
    facts += [counted("roadrally.st.checkpoints", s.checkpoints), counted("roadrally.st.vp", s.vp),
              counted("roadrally.st.stage_cards", s.stage_cards)]
    return msg("roadrally.st.seat", place=s.place or 0, name=name, facts=Listed(facts, "dot"))


def prompt_lines(view: RRView, names: Mapping[str, str]) -> list[str]:
    """The channel's prompt after an action: who acts and what kind of decision, answered privately
    with `/hand`. In a stage window it names no seat: the same text whoever holds the card (C10.8)."""
    p = preset(view.preset)
    if view.phase == "over":
        return [msg("roadrally.pr.over")]
    if view.phase == "stage":
        return [msg("roadrally.pr.stage", stage=view.window or 0)]
    if view.phase == "choose" and view.choice is not None:
        return [msg("roadrally.pr.choose", name=_name(names, view.choice[0]), points=_choice_points(view),
                    cards=p.choice_cards)]
    seat = view.current or ""
    name = _name(names, seat)
    if view.phase == "reshuffle":
        return [msg("roadrally.pr.reshuffle", name=name, n=p.empty_hand_draw)]
    if view.phase == "mechanic":
        return [msg("roadrally.pr.mechanic", name=name, n=min(p.mechanic_look, _seat(view, seat).deck_size))]
    lines = [msg("roadrally.pr.turn", name=name)]
    if view.road.spaces[_seat(view, seat).pos].kind is SpaceKind.STORE:  # C5: a start on a General Store
        lines.append(msg("roadrally.pr.store", max=p.store_max, draw=p.store_draw))
    return lines


def hand_lines(view: RRView, names: Mapping[str, str]) -> list[str]:
    """`/hand`: the private lines of `view.me` (its hand, its unscored stage cards, the Mechanic's
    cards while it reorders them) and what it is asked now."""
    me, seat = view.me, view.seat
    if me is None or seat is None:
        return [msg("roadrally.not_a_player")]
    lines = [msg("roadrally.h.hand", cards=cards_text(c for c, _, _ in me.hand)) if me.hand
             else msg("roadrally.h.hand_empty")]
    lines.append(msg("roadrally.h.stage_cards", stages=Listed([str(n) for n in sorted(me.stage_cards)], "comma"))
                 if me.stage_cards else msg("roadrally.h.no_stage_cards"))
    if me.mechanic_top:
        top = tuple(c for c, _, _ in me.mechanic_top)
        lines.append(msg("roadrally.h.mechanic", cards=cards_text(top), example=typed_text(label(Order(top)))))
    lines.append(_asked(view, seat, names))
    return lines


def _asked(view: RRView, seat: str, names: Mapping[str, str]) -> str:
    """What the seat is asked now, or whom the game waits for."""
    me = view.me
    assert me is not None
    if view.phase == "over":
        return msg("roadrally.h.over")
    if _seat(view, seat).retired:
        return msg("roadrally.h.retired")
    if view.phase == "stage":
        stage = view.window or 0
        if me.answered is not None:
            return msg("roadrally.h.answered_reveal" if me.answered else "roadrally.h.answered_pass", stage=stage)
        if stage in me.stage_cards:
            return msg("roadrally.h.stage_hold", stage=stage)
        return msg("roadrally.h.stage_pass", stage=stage)
    if view.phase == "choose" and view.choice is not None:
        if view.choice[0] == seat:
            return msg("roadrally.h.choose", points=_choice_points(view), cards=preset(view.preset).choice_cards)
        return msg("roadrally.h.waiting_choice", name=_name(names, view.choice[0]))
    if view.current != seat:
        return msg("roadrally.h.waiting", name=_name(names, view.current or ""))
    if view.phase == "reshuffle":
        return msg("roadrally.h.reshuffle", n=preset(view.preset).empty_hand_draw)
    if view.phase == "mechanic":
        return msg("roadrally.h.order")
    example = label(Play((me.hand[0][0],))) if me.hand else label(Play((0,)))  # its own first card
    return msg("roadrally.h.play", example=typed_text(example))


def final_vp(view: RRView) -> dict[str, int]:
    """C8: VP tiles + a stage tile's worth per stage tile + a checkpoint's per checkpoint, the
    preset's numbers (the same sums as `play.final_vp`, from the public view)."""
    p = preset(view.preset)
    return {s.id: s.vp + p.tile_vp * len(s.stage_tiles) + p.checkpoint_vp * s.checkpoints for s in view.seats}


def results_lines(view: RRView, names: Mapping[str, str]) -> list[str]:
    """The classification (C8): final VP, a tie to the car further ahead, retired seats last;
    each row with its parts. Titled final once the game is over, provisional before."""
    p = preset(view.preset)
    vp = final_vp(view)
    rows = sorted(view.seats, key=lambda s: (s.retired or s.place is None, -vp[s.id], s.place or 0))
    lines = [msg("roadrally.r.head" if view.phase == "over" else "roadrally.r.head_provisional")]
    for rank, s in enumerate(rows, 1):
        parts = msg("roadrally.r.parts", vp=s.vp, tiles=len(s.stage_tiles), tile_vp=p.tile_vp,
                    checkpoints=s.checkpoints, checkpoint_vp=p.checkpoint_vp)
        if s.retired:
            end = msg("roadrally.r.retired")
        elif s.mark is not None:
            end = msg("roadrally.r.finished", mark=s.mark)
        else:
            end = msg("roadrally.r.not_finished")
        lines.append(msg("roadrally.r.row", rank=rank, name=_name(names, s.id), total=vp[s.id], parts=parts, end=end))
    return lines
