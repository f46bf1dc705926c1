"""The recorded requests Discord would refuse, judged by the referee (tests/discord/referee.py:
Discord's own OpenAPI spec and its documented limits), never by the bot's own idea of the limits
(bot/views/outgoing.py): a test of the splitting must not share the splitter's assumptions."""

from __future__ import annotations

from typing import Any

from tests.discord import referee


def over_limits(calls: list[Any]) -> list[tuple[str, str, list[str]]]:
    """Every request of `calls` Discord would refuse: (method, url, what is wrong)."""
    judged = ((c, referee.judge(c.method, c.url, c.body, list(c.data.items()))) for c in calls)
    return [(c.method, c.url, found) for c, found in judged if found]
