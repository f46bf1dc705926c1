"""Services: who may do what, and load → engine → store → render for every command.

Discord cogs and the offline console call the same services and get the same `Reply`.
"""

from bot.services.rallies import RallyService
from bot.services.reply import Actor, Place, Reply, TurnPrompt

__all__ = ["Actor", "Place", "RallyService", "Reply", "TurnPrompt"]
