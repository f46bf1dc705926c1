"""The console's own refusal: a line that is not a command (the services' refusals are theirs)."""

from __future__ import annotations

from bot.engine.core.errors import RallyError


class ConsoleError(RallyError):
    """A console line that is not a command."""
