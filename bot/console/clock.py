"""The console's clock and how the console builds the services on it.

The console owns the bot's time so a season can be tried offline: `ConsoleClock` is the real
time (or `--now`) plus how far `/clock` moved it; it never goes backwards. `console_service`
builds the services on it, with times written as plain text and, with `--seed`, reproducible
dice and round secrets (never on Discord).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from bot.console.errors import ConsoleError
from bot.i18n import t
from bot.services import RallyService
from bot.services.league.round_kit import new_seed
from bot.services.play.deadlines import plain_time
from bot.services.play.deal_keys import numbered_deal_keys
from bot.store import Store
from bot.store.clock import utc_now

MAX_CLOCK_STEP = timedelta(days=400)
_STEP = re.compile(r"\+(?:(\d{1,5})d)?(?:(\d{1,6})h)?(?:(\d{1,7})m)?")


class ConsoleClock:
    """The console's time: the real time (or `--now`) plus how far `/clock` moved it. The services
    are built with it, so moving it moves the bot's time; it never goes backwards."""

    def __init__(self, start: datetime | None = None) -> None:
        if start is not None and (start.tzinfo is None or start.utcoffset() is None):
            raise ValueError("the console clock needs a timezone-aware start")
        self.start = start
        self.offset = timedelta(0)

    def __call__(self) -> datetime:
        return (self.start or utc_now()) + self.offset

    def move_to(self, moment: datetime) -> None:
        """Set the time to `moment`, if it is later than now (the clock only moves forward)."""
        now = self()
        if moment > now:
            self.offset += moment - now


def parse_now(text: str) -> datetime:
    """`--now 2026-11-23T08:00Z` (ISO 8601; without a zone it is UTC)."""
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ConsoleError(t("console.bad_now", value=text[:40])) from None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def parse_step(text: str) -> timedelta:
    """`+3d`, `+12h`, `+30m`, `+1d12h`: how far `/clock` moves. Backwards or junk is refused."""
    word = text.strip().lower()
    if word.startswith("-"):
        raise ConsoleError(t("console.clock_backwards"))
    match = _STEP.fullmatch(word)
    if not match or not any(match.groups()):
        raise ConsoleError(t("console.clock_bad", value=text[:40]))
    days, hours, minutes = (int(g or 0) for g in match.groups())
    step = timedelta(days=days, hours=hours, minutes=minutes)
    if step > MAX_CLOCK_STEP:
        raise ConsoleError(t("console.clock_too_far", days=MAX_CLOCK_STEP.days))
    if not step:
        raise ConsoleError(t("console.clock_bad", value=text[:40]))
    return step


def seeded_round_secrets(seed: int, rounds_before: int = 0) -> Callable[[], str]:
    """Round secrets from `--seed` (reproducible sessions and tests): the n-th round of the
    database gets SHA-256 of `seed/n` (256 bits, as a real secret), n going on from the
    `rounds_before` it already holds, so a session on an older database never publishes a secret
    again. Never used by the bot on Discord."""
    return numbered_deal_keys(str(seed), rounds_before)  # the same numbering as a session's deal keys


def console_service(store: Store, seed: int | None = None, dice_script: dict | None = None,
                    now: datetime | None = None, rounds_before: int = 0) -> RallyService:
    """The services as the console runs them: on a `ConsoleClock` (start `now`, default the real
    time), times written as plain text, and with `seed` the dice of every new rally and the secret
    of every new round reproducible (numbered on from the database's `rounds_before`)."""
    return RallyService(store, seed_source=(lambda: seed) if seed is not None else None, dice_script=dice_script,
                        clock=ConsoleClock(now), when=plain_time,
                        round_seeds=seeded_round_secrets(seed, rounds_before) if seed is not None else new_seed)
