"""The log of `python -m bot run` and `sync`: one stream on stderr, the token never in it.

`configure(level, token)` sets up the root handler (discord.py's loggers propagate to it) and
puts `Redact` on it, and on `logging.lastResort` (what prints a record when no handler is set):
whatever a record holds, its message, its arguments or its traceback, the token is shown as
`[token]`. `hide` does the same to a text printed without the log (a login failure's reason).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

SHOWN = "[token]"
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def hide(text: str, secrets: Iterable[str | None]) -> str:
    """`text` with every secret in it replaced by `[token]`."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, SHOWN)
    return text


class Redact(logging.Filter):
    """A handler's filter: the record's message and traceback without the secrets (the record is
    changed in place, so every handler after this one sees it clean too)."""

    def __init__(self, secrets: Iterable[str | None]) -> None:
        super().__init__()
        self.secrets = tuple(s for s in secrets if s)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # arguments that do not fit the message: shown as they are, then cleaned
            message = f"{record.msg} {record.args}"
        clean = hide(message, self.secrets)
        if clean != message or record.args:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = hide(record.exc_text, self.secrets)
        if record.stack_info:
            record.stack_info = hide(record.stack_info, self.secrets)
        return True


def configure(level: str, token: str | None) -> None:
    """The root handler at `level`, every handler of the root (and the last resort) redacting."""
    logging.basicConfig(level=level, format=FORMAT)
    redact = Redact([token])
    for handler in (*logging.getLogger().handlers, logging.lastResort):
        if handler is not None and not any(isinstance(f, Redact) for f in handler.filters):
            handler.addFilter(redact)
