"""Rallyman: DIRT behind the `Game` seam (bot.engine.core.game): its facets, assembled (RULES Part
B, with the B13 provisional defaults). DIRT hides nothing: it has no hidden-hand facet."""

from __future__ import annotations

from bot.engine.core.events import Event
from bot.engine.core.game import Game
from bot.engine.dirt.actions import Action
from bot.engine.dirt.career import CAREER
from bot.engine.dirt.coach import COACH, ODDS
from bot.engine.dirt.commands import COMMANDS
from bot.engine.dirt.ghosts import GHOSTS
from bot.engine.dirt.library import LIBRARY
from bot.engine.dirt.narrator import NARRATOR
from bot.engine.dirt.pictures import PICTURES
from bot.engine.dirt.rules import RULES, DirtView, RollStop
from bot.engine.dirt.state import DirtState

GAME: Game[DirtState, Action | RollStop, DirtView, Event] = Game(
    rules=RULES, commands=COMMANDS, narrator=NARRATOR, library=LIBRARY, coach=COACH, pictures=PICTURES, odds=ODDS,
    career=CAREER, ghosts=GHOSTS)

__all__ = ["GAME"]
