"""Road Rally USA's story for the channel (RULES C3-C8, C10.8): every event kind the engine makes
is told; a turn reads as one line; nothing secret is told (the same lines when every secret the
action does not use is different); the words exist in EN, FR and DE."""

from __future__ import annotations

import ast
from pathlib import Path

import bot
from bot.engine.roadrally.actions import Play
from bot.engine.roadrally.events import RoadEvent
from bot.engine.roadrally.narrate import POINT_KINDS, SINGLE_KINDS, SPACE_WORDS, TURN_KINDS, narrate
from bot.engine.roadrally.play import apply
from bot.engine.roadrally.road import SpaceKind
from bot.i18n import catalogue, render
from tests.roadrally.helpers import G1, G2, Y3, arrange, game
from tests.roadrally.roads import road
from tests.roadrally.text_helpers import NAMES, secret_twin, steps

ENGINE = Path(bot.__file__).resolve().parent / "engine" / "roadrally"


def _event_kinds() -> set[str]:
    """Every `RoadEvent("<kind>", …)` written in the engine."""
    kinds = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "RoadEvent" and node.args \
                    and isinstance(node.args[0], ast.Constant):
                kinds.add(node.args[0].value)
    return kinds


def test_every_event_kind_of_the_engine_has_its_words():
    kinds = _event_kinds()
    assert len(kinds) >= 14
    assert kinds == TURN_KINDS | set(POINT_KINDS) | SINGLE_KINDS


def test_every_kind_of_space_but_a_plain_road_has_its_word_in_every_language():
    """D3: the special spaces in each language's words."""
    assert set(SPACE_WORDS) == set(SpaceKind) - {SpaceKind.ROAD}
    for lang in ("en", "fr", "de"):
        assert all(key in catalogue(lang) for key in SPACE_WORDS.values())
    assert render(narrate([RoadEvent("moved", "a", (0, 2))], NAMES, road("SS.F"))[0], "de") == "Ann fährt bis Feld 2."


def test_a_turn_is_one_line_with_its_cards_its_move_its_space_and_its_draw():
    """C4, C5: played cards are public, the draw is a count; the space reached in D3's words."""
    hand = [G1[0], G1[1], G2[0]]
    st = arrange(game("SS..G" + "." * 20 + "F", preset="rr-standard"), order=(0, 1, 2), hands={0: hand},
                 decks={0: [c for c in range(21) if c not in hand][:10]}, pos={0: 0, 1: 0, 2: 0})
    st, events = apply(st, "a", Play((G1[0], G1[1], G2[0])))
    lines = narrate(events, NAMES, st.road)
    assert lines[0] == "Ann plays 🟩1 🟩1 🟩2, moves to space 4 (gas station), " \
                       "shuffles the discard pile into the draw deck (21 cards), draws 2 cards."  # C10.3
    assert render(lines[0], "fr").startswith("Ann joue 🟩1 🟩1 🟩2, avance jusqu'à la case 4 (station service)")
    assert "Tankstelle" in render(lines[0], "de")
    assert narrate(events, NAMES)[0].startswith("Ann plays 🟩1 🟩1 🟩2, moves to space 4, ")  # no road: no kind


def test_a_shortcut_and_a_checkpoint_are_told():
    """C5, OPEN-R2: the shortcut taken; the checkpoint tile taken and the last car's draw."""
    st = arrange(game("SS.>.C<" + "." * 20 + "F", preset="rr-standard"), order=(0, 1, 2),
                 hands={0: [Y3[0], G2[0]]}, decks={0: [G1[0], G1[1]]}, pos={0: 1, 1: 0, 2: 0})
    st, events = apply(st, "a", Play((G2[0],), shortcut=True))
    assert narrate(events, NAMES, st.road)[0].startswith("Ann plays 🟩2, takes the shortcut to space 6")
    st = arrange(game("SS...C" + "." * 20 + "F", preset="rr-standard"), order=(0, 1, 2),
                 hands={0: [Y3[0], G2[0]]}, decks={0: [G1[0], G1[1]]}, pos={0: 2, 1: 0, 2: 1})
    st, events = apply(st, "a", Play((Y3[0],)))
    lines = narrate(events, NAMES, st.road)
    assert lines[0] == "Ann plays 🟨3, moves to space 5 (checkpoint), " \
                       "takes the checkpoint tile (the last car draws 2 cards), draws 1 card."
    assert lines[1] == "Bör draws 2 cards."  # b is last (C10.1): the draw is a count


def test_stage_lines_name_the_revealer_and_never_a_bypassing_holder():
    """C6.2-C6.4, C10.8: a scored stage names who revealed it; a bypassed one names nobody."""
    events = [RoadEvent("stage_window", None, (4,)), RoadEvent("stage_scored", "b", (4,)),
              RoadEvent("vp", "a", (5,)), RoadEvent("vp", "b", (6,)), RoadEvent("stage_tile", "a", (4,)),
              RoadEvent("stage_bypassed", None, (5,)), RoadEvent("round", None, (3,)),
              RoadEvent("retired", "c"), RoadEvent("final_vp", "a", (5,)), RoadEvent("over")]
    lines = narrate(events, NAMES)
    assert lines == [
        "Stage 4 was reached: every driver answers privately whether they reveal its card.",
        "Bör reveals the card of stage 4: the stage is scored, Bör's points doubled.",
        "Points: Ann +5, Bör +6.", "Ann takes the tile of stage 4.",
        "Stage 5 is bypassed: nobody scores it and its tile leaves the road.", "**Round 3**",
        "Céline retires.", "Final stage, by finishing order: Ann +5.", "The game is over."]
    assert not any(name in lines[4] for name in NAMES.values())
    for lang in ("fr", "de"):
        assert all("roadrally." not in render(line, lang) for line in lines)


def test_the_story_tells_nothing_secret_along_whole_games():
    """C10.8: each action's lines are the same when every hand, deck order and stage card it does
    not use is different (the actor's own hand and the cards its Mechanic looks at kept)."""
    told = differ = 0
    kinds: set[str] = set()
    for n, (st, seat, action) in enumerate(steps()):
        if not seat or n % 2:
            continue
        twin = secret_twin(st, seat)
        differ += [(s.hand, s.deck, s.stage_cards) for s in twin.seats] != \
            [(s.hand, s.deck, s.stage_cards) for s in st.seats]
        _, events = apply(st, seat, action)
        _, twin_events = apply(twin, seat, action)
        lines = narrate(events, NAMES, st.road)
        assert lines == narrate(twin_events, NAMES, st.road)
        assert [render(line, "fr") for line in lines] == [render(line, "fr") for line in
                                                          narrate(twin_events, NAMES, st.road)]
        told += len(lines)
        kinds |= {e.kind for e in events}
    assert differ > 200 and told > 250
    assert {"played", "drew", "stage_scored", "stage_bypassed", "reshuffled", "vp"} <= kinds
