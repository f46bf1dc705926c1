"""Errors of the rules engine and of stage data. Every message is ready to show to a user."""

from __future__ import annotations


class RallyError(Exception):
    """Base of every error a user may see; `str(error)` is the user-ready text."""

    kind = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class CannotParse(RallyError):
    """The text is not a command the engine understands."""

    kind = "cannot_parse"


class NotAllowed(RallyError):
    """The action is understood but the rules forbid it now; the text says what is allowed."""

    kind = "not_allowed"

    def __init__(self, message: str, allowed: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.allowed = allowed


class Ambiguous(RallyError):
    """The text could mean several actions; the text lists them."""

    kind = "ambiguous"

    def __init__(self, message: str, options: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.options = options


class StageError(RallyError):
    """A stage or zone file is invalid. Names the file, the line (or field) and the reason."""

    kind = "stage"

    def __init__(self, source: str, where: int | str | None, reason: str, hint: str = "") -> None:
        self.source = source
        self.where = where
        self.reason = reason
        self.hint = hint
        if isinstance(where, int):
            place = f"{source}:{where}"
        elif where:
            place = f"{source} ({where})"
        else:
            place = source
        text = f"{place}: {reason}"
        if hint:
            text += f" — {hint}"
        super().__init__(text)


class DataError(RallyError):
    """A data file (ruleset, messages) is invalid. Names the file, the field and the reason."""

    kind = "data"

    def __init__(self, source: str, field: str, reason: str) -> None:
        self.source = source
        self.field = field
        self.reason = reason
        super().__init__(f"{source}: {field}: {reason}")
