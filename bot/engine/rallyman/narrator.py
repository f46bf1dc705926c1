"""What classic says (bot.engine.core.game `Narrator`), from a view only, as message keys."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.core.events import Event
from bot.engine.core.game import Prompt, Told
from bot.engine.core.text import Listed, msg
from bot.engine.rallyman import game as engine
from bot.engine.rallyman.actions import Roll
from bot.engine.rallyman.buttons import shown
from bot.engine.rallyman.commands import COMMANDS
from bot.engine.rallyman.dice_rules import describe_allowed, dice_allowed
from bot.engine.rallyman.narrate import narrate
from bot.engine.rallyman.odds import odds as plan_odds
from bot.engine.rallyman.out_reasons import out_reason_word
from bot.engine.rallyman.public import replica
from bot.engine.rallyman.rules import RallymanView
from bot.engine.rallyman.stages.catalogue import load_stage
from bot.engine.rallyman.status_text import course_lines, results_lines, status_lines


class ClassicNarrator:
    """Classic's prompts, stories, titles and standings."""

    def prompt(self, view: RallymanView, events: Sequence[Event]) -> Prompt:
        """The driver to act, the dice they may roll, their buttons; a turn is new when the events
        passed it (or there were none: the start), not after each die of the same turn."""
        state = replica(view.state)
        if state.turn is None:
            return Prompt((), frozenset(), (), False)
        car = state.cars[state.turn.car]
        new_turn = not events or any(e.kind in ("turn", "retired") for e in events)
        actions = engine.legal_actions(state, None)
        labels = tuple(COMMANDS.label(a) for a in actions)
        allowed = describe_allowed(dice_allowed(state, car, state.turn))
        if state.turn.attack is not None:  # a time attack rolled: only its order may follow (A18.3)
            orders = [o for o in labels if o.startswith("order ")]
            line = msg("turn.order_due", name=car.name, orders=", ".join(f"`{o}`" for o in orders[:6]))
        elif new_turn or not state.turn.started:  # not begun yet (after tires, a spare): no `/stop` (A6.3.7)
            line = msg("turn.your_turn", name=car.name, allowed=allowed)
        else:
            line = msg("turn.go_on", name=car.name, allowed=allowed)
        lines = [line]
        doomed = tuple(COMMANDS.label(a) for a in actions
                       if isinstance(a, Roll) and plan_odds(state, a).loss_of_control >= 1.0)
        if doomed:  # over the corner's limit, a bump at N+2 …: whatever the dice show (A8.6, A10, A11.1)
            lines.append(msg("turn.certain_losses", moves=Listed([shown(label) for label in doomed], "comma")))
        return Prompt(tuple(lines), frozenset({car.id}), labels, new_turn, certain_loss=frozenset(doomed))

    def tell(self, view: RallymanView, events: Sequence[Event]) -> Told:
        """The story: in a rally of several specials "SSn is over" replaces "the stage is over",
        and a special that ended (the next one begun) is told in a post of its own, with the
        rally's classification so far (A17)."""
        state = view.state
        told = list(events)
        chapters: tuple[tuple[str, ...], ...] = ()
        if state.course is not None:
            told = [e for e in told if e.kind != "stage_over"]
            over = [i for i, e in enumerate(told) if e.kind == "special_over"]
            if over and not state.finished:
                cut = over[-1] + 1
                chapters = (tuple(narrate(told[:cut], state)) + tuple(course_lines(state.course)),)
                told = told[cut:]
        return Told(chapters, tuple(narrate(told, state)))

    def seat_name(self, view: RallymanView, seat: str) -> str | None:
        car = view.state.car_by_id(seat)
        return car.name if car is not None else None

    def title(self, view: RallymanView) -> str:
        """The rally's title: its stage, or its specials' stages in order."""
        state = view.state
        if state.course is not None and len(state.course.specials) > 1:
            return Listed([load_stage(name).title for name in state.course.specials], "comma")
        return state.stage.title

    def status(self, view: RallymanView) -> list[str]:
        return status_lines(view.state)

    def classification(self, view: RallymanView) -> list[str]:
        return results_lines(view.state)

    def out_reason(self, code: str) -> str:
        return out_reason_word(code)

    def up_next(self, view: RallymanView) -> str | None:
        """The driver after the one whose turn it is, when this round's order knows it (A4)."""
        state = view.state
        if state.turn is None or not state.queue:
            return None
        return state.cars[state.queue[0]].id

    def start_order(self, view: RallymanView) -> list[str]:
        """The first turns go in the order the seats were given (RULES A3: the host's call, or
        drawn when the lobby says so), the order of the cars."""
        return [car.id for car in view.state.cars]


NARRATOR = ClassicNarrator()
