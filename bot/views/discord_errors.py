"""Discord's refusals, said for the operator: which request failed and why, in one log line.

`describe(exc)` names the request (method and route, from the response discord.py keeps on the
exception; an interaction's token in the route is masked, it is a secret for 15 minutes) and
Discord's answer (status, Discord's error code and message, Retry-After of a 429). A failure
without an HTTP answer (a time-out, a lost connection) names the request the caller says it made.

`refused_fields(exc, payload)` reads Discord's answer to a refused command sync (400, code 50035
"Invalid Form Body", whose `errors` tree discord.py flattens into `HTTPException.text`, one
`In <path>: <message>` line per leaf) and names each leaf by the command, its option path and
the field, looked up in the payload that was sent: `/rally results` option `rally` field
`max_value`: Discord's message.
"""

from __future__ import annotations

import re
from typing import Any

import aiohttp
import discord

INVALID_FORM_BODY = 50035
API_PREFIX = re.compile(r"^/api/v\d+")
LEAF = re.compile(r"^In (?P<path>\S+): (?P<message>.*)$")
#: option types of a subcommand and a subcommand group: part of the command's name, not options
SUBCOMMAND_TYPES = (1, 2)
TOKEN_LENGTH = 40  # a path segment this long that is not an id is an interaction's token


#: what a request to Discord raises when Discord (or the way to it) fails, rather than the bot
FAILURES: tuple[type[BaseException], ...] = (discord.HTTPException, discord.RateLimited, TimeoutError,
                                             aiohttp.ClientError, OSError)


class SyncFailed(Exception):
    """Discord did not take the slash commands; `lines` say why (a line per refused field)."""

    def __init__(self, scope: str, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.scope = scope
        self.lines = lines


def route_of(exc: BaseException) -> str | None:
    """`METHOD /path` of the request Discord answered with `exc`, tokens masked; None without one."""
    response = getattr(exc, "response", None)
    method, url = getattr(response, "method", None), getattr(response, "url", None)
    if method is None or url is None:
        return None
    path = API_PREFIX.sub("", getattr(url, "path", None) or str(url).split("?", 1)[0])
    parts = ["{token}" if len(part) >= TOKEN_LENGTH and not part.isdigit() else part for part in path.split("/")]
    return f"{method} {'/'.join(parts)}"


def reason_of(exc: BaseException) -> str:
    """Discord's answer: status, reason, Discord's code and message (one line), Retry-After."""
    if isinstance(exc, discord.RateLimited):
        return f"rate limited, retry after {exc.retry_after:.1f} s"
    if isinstance(exc, discord.HTTPException):
        reason = getattr(exc.response, "reason", None) or ""
        text = "; ".join(line for line in exc.text.splitlines() if line) or "-"
        said = f"{exc.status} {reason}".strip() + f", Discord code {exc.code}: {text}"
        headers = getattr(exc.response, "headers", None) or {}
        if exc.status == 429 and headers.get("Retry-After") is not None:
            said += f", retry after {headers['Retry-After']} s"
        return said
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def describe(exc: BaseException, request: str | None = None) -> str:
    """`<request>: <why>` for a log line; `request` names it when the exception cannot."""
    return f"{route_of(exc) or request or 'a Discord request'}: {reason_of(exc)}"


def refused_fields(exc: discord.HTTPException, payload: list[dict[str, Any]]) -> list[str]:
    """One line per field Discord refused in a sync of `payload` (see the module docstring);
    the request and Discord's answer when it names no field (a 429, a 5xx)."""
    leaves = [m for m in map(LEAF.match, exc.text.splitlines()) if m is not None]
    if exc.code != INVALID_FORM_BODY or not leaves:
        return [describe(exc)]
    return [f"{_field(match['path'], payload)}: {match['message']}" for match in leaves]


def _field(path: str, payload: list[dict[str, Any]]) -> str:
    """`3.options.0.options.1.max_value` → "/rally results option `rally` field `max_value`"."""
    first, *rest = path.split(".")
    if not first.isdigit() or int(first) >= len(payload):
        return f"the commands, field `{path}`"
    item = payload[int(first)]
    names, option = [str(item.get("name"))], None
    while len(rest) >= 2 and rest[0] == "options" and rest[1].isdigit():
        options = item.get("options") or []
        if int(rest[1]) >= len(options):
            break
        item = options[int(rest[1])]
        rest = rest[2:]
        if item.get("type") in SUBCOMMAND_TYPES and option is None:
            names.append(str(item.get("name")))
        else:
            option = f"{option} {item.get('name')}" if option else str(item.get("name"))
    said = f"`/{' '.join(names)}`" + (f" option `{option}`" if option else "")
    return said + (f" field `{'.'.join(rest)}`" if rest else "")
