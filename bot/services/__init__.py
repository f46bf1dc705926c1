"""Services: who may do what, and load → engine → store → render for every command.

Discord cogs and the offline console call the same services and get the same `Reply`.

`RallyService` (every service together) is imported on first use (PEP 562 `__getattr__`): a process
that needs one service module, such as the web page's (bot/web/), does not import them all.
"""

from typing import TYPE_CHECKING, Any

from bot.services.reply import Actor, Place, Reply, TurnPrompt

if TYPE_CHECKING:
    from bot.services.play.rallies import RallyService

__all__ = ["Actor", "Place", "RallyService", "Reply", "TurnPrompt"]


def __getattr__(name: str) -> Any:
    if name == "RallyService":
        from bot.services.play.rallies import RallyService

        return RallyService
    raise AttributeError(name)  # not a user's text: Python's own lookup error
