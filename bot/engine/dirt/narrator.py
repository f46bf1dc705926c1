"""What DIRT says (bot.engine.core.game `Narrator`), from a view only, as message keys."""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine.core.events import Event
from bot.engine.core.game import Prompt, Told
from bot.engine.core.text import Listed, msg
from bot.engine.dirt import rally as engine
from bot.engine.dirt.actions import Roll
from bot.engine.dirt.commands import COMMANDS
from bot.engine.dirt.library import DIRT_STAGES
from bot.engine.dirt.move_odds import certain_losses
from bot.engine.dirt.narrate import narrate
from bot.engine.dirt.out_reasons import out_reason_word
from bot.engine.dirt.parse import shown
from bot.engine.dirt.public import replica
from bot.engine.dirt.rules import DirtView
from bot.engine.dirt.status_text import results_lines, stage_lines, status_lines
from bot.engine.dirt.turn import landing_choices

#: events the channel is not told: the next driver's turn (the prompt after it names them)
UNTOLD = ("dirt_turn",)


class DirtNarrator:
    """DIRT's prompts, stories, titles and standings."""

    def prompt(self, view: DirtView, events: Sequence[Event]) -> Prompt:
        state = replica(view.state)
        acting = state.to_act()
        if acting is None:
            return Prompt((), frozenset(), (), False)
        name = dict(state.seats)[acting]
        new_turn = not events or any(e.kind in ("dirt_turn", "dirt_stage_end") for e in events)
        actions = engine.legal_actions(state, acting)
        labels = tuple(COMMANDS.label(a) for a in actions)
        steps = [label for label in labels if label not in ("stop", "spare")]
        allowed = Listed([shown(label) for label in steps], "either") if steps else msg("dirt.word_nothing")
        key = "dirt.go_on" if state.turn_dice else "dirt.your_turn"
        lines = [msg(key, name=name, allowed=allowed)]
        rolls = [a for a in actions if isinstance(a, Roll)]
        doomed = tuple(COMMANDS.label(a) for a in certain_losses(state, acting, rolls))
        if doomed:
            lines.append(msg("turn.certain_losses", moves=Listed([shown(label) for label in doomed], "comma")))
        flying = [COMMANDS.label(a) for a in landing_choices(state, acting)]
        if flying:  # B11: the driver chooses where a jump lands
            lines.append(msg("dirt.landing_choice", moves=Listed([shown(label) for label in flying], "comma")))
        if state.rules.provisional:  # B13: every message of this ruleset says so
            lines.append(msg("dirt.turn_provisional"))
        return Prompt(tuple(lines), frozenset({acting}), labels, new_turn, certain_loss=frozenset(doomed))

    def tell(self, view: DirtView, events: Sequence[Event]) -> Told:
        """The story; a stage that ended while the rally goes on is a chapter of its own, with the
        rally's classification so far (B13.8.10). Whose turn it is is not told: the prompt that
        follows says it (or the AI's own line), once."""
        state = view.state
        told = [e for e in events if e.kind not in UNTOLD]
        ends = [i for i, e in enumerate(told) if e.kind == "dirt_stage_end"]
        if ends and not engine.finished(state):
            cut = ends[-1] + 1
            names = dict(state.seats)
            chapter = tuple(narrate(told[:cut], names)) + tuple(stage_lines(state))
            return Told((chapter,), tuple(narrate(told[cut:], names)))
        return Told((), tuple(narrate(told, dict(state.seats))))

    def seat_name(self, view: DirtView, seat: str) -> str | None:
        return dict(view.state.seats).get(seat)

    def title(self, view: DirtView) -> str:
        state = view.state
        if len(state.stages) > 1:
            return Listed([DIRT_STAGES.facts(name).title for name in state.stages], "comma")
        return state.stage.title

    def status(self, view: DirtView) -> list[str]:
        return status_lines(view.state)

    def classification(self, view: DirtView) -> list[str]:
        return results_lines(view.state)

    def out_reason(self, code: str) -> str:
        return out_reason_word(code)

    def up_next(self, view: DirtView) -> str | None:
        state = view.state
        if state.to_act() is None or state.turn + 1 >= len(state.order):
            return None
        return state.order[state.turn + 1]

    def start_order(self, view: DirtView) -> list[str]:
        """The first turns go in the order the seats were given (RULES B5: the host's call)."""
        return [seat for seat, _ in view.state.seats]


NARRATOR = DirtNarrator()
