"""Rallyman classic behind the `Game` seam (bot.engine.core.game): its facets, assembled (RULES
Part A, with every Rules+ module). Classic hides nothing: it has no hidden-hand facet."""

from __future__ import annotations

from bot.engine.core.events import Event
from bot.engine.core.game import Game
from bot.engine.rallyman.actions import Action
from bot.engine.rallyman.career import CAREER
from bot.engine.rallyman.coach import COACH, ODDS
from bot.engine.rallyman.commands import COMMANDS
from bot.engine.rallyman.ghosts import GHOSTS
from bot.engine.rallyman.library import LIBRARY
from bot.engine.rallyman.narrator import NARRATOR
from bot.engine.rallyman.pictures import PICTURES
from bot.engine.rallyman.rules import RULES, RallymanView
from bot.engine.rallyman.state import GameState

GAME: Game[GameState, Action, RallymanView, Event] = Game(
    rules=RULES, commands=COMMANDS, narrator=NARRATOR, library=LIBRARY, coach=COACH, pictures=PICTURES, odds=ODDS,
    career=CAREER, ghosts=GHOSTS)

__all__ = ["GAME"]
