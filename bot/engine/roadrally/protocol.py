"""Road Rally USA behind the `Game` seam (bot.engine.core.game): its facets, assembled (RULES Part
C). Its hands are hidden (the `hidden` facet: what a seat alone sees); it has no solo runs, so no
ghosts."""

from __future__ import annotations

from bot.engine.core.game import Game
from bot.engine.roadrally.actions import Action
from bot.engine.roadrally.career import CAREER
from bot.engine.roadrally.coach import COACH
from bot.engine.roadrally.commands import COMMANDS
from bot.engine.roadrally.events import RoadEvent
from bot.engine.roadrally.hidden import HIDDEN
from bot.engine.roadrally.library import LIBRARY
from bot.engine.roadrally.narrator import NARRATOR
from bot.engine.roadrally.pictures import PICTURES
from bot.engine.roadrally.rules import RULES, Table, TableView

GAME: Game[Table, Action, TableView, RoadEvent] = Game(
    rules=RULES, commands=COMMANDS, narrator=NARRATOR, library=LIBRARY, coach=COACH, pictures=PICTURES,
    hidden=HIDDEN, career=CAREER)

__all__ = ["GAME"]
