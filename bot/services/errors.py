"""Service refusals, and the one place where any error becomes what the user is told."""

from __future__ import annotations

import logging

from bot.engine.core.dice import ScriptedDiceExhausted
from bot.engine.core.errors import RallyError
from bot.engine.core.text import msg
from bot.services.reply import Reply

log = logging.getLogger(__name__)


class ServiceError(RallyError):
    """A refusal of the services (authorisation, lifecycle): text from the catalogue."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(msg(key, **params))
        self.key = key
        self.params = params


class RolesNeeded(ServiceError):
    """An organiser check that only the actor's roles can decide, and they are not known
    (`Actor.roles` None): the caller learns them and asks again (nothing was written before the
    check). Left unanswered, it is the refusal that says the roles could not be checked."""

    def __init__(self) -> None:
        super().__init__("league.roles_unknown")


def error_reply(exc: BaseException) -> Reply:
    """A refusal (any `RallyError`) as its own text, privately; anything else is logged and
    answered with a short generic message, never a traceback. Only for errors raised before a
    commit: after one, the command's change is saved and its posts are owed (see
    `bot/views/interaction_io.py`), so "nothing was changed" would be untrue."""
    if isinstance(exc, RallyError):
        return Reply([str(exc)], ephemeral=True)
    if isinstance(exc, ScriptedDiceExhausted):  # the console's `--dice` file (never on Discord): the script's fault
        return Reply([msg("console.dice_script_out")], ephemeral=True)
    log.error("unexpected error in a command", exc_info=exc)
    return Reply([msg("error.unexpected")], ephemeral=True)
