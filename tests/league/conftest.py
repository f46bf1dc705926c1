"""League fixtures: the real services on a temp SQLite file, a fake clock, the scheduler, and a
delivery that records what each channel was told (as the console does)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest

from bot.services import RallyService
from bot.services.play.deadlines import DeadlineService
from tests.discord.fakes import FakeClock

# A Sunday noon UTC: the weekly rounds below open on Mondays.
START = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


@dataclass
class Posts:
    """What was delivered, per channel, in order: (lines, ping, image kind, attach)."""

    by_channel: dict[int, list[tuple[list[str], list[int], str | None, dict | None]]] = field(default_factory=dict)

    def text(self, channel: int) -> str:
        return "\n".join("\n".join(lines) for lines, _, _, _ in self.by_channel.get(channel, []))

    def count(self, channel: int, needle: str) -> int:
        return sum("\n".join(lines).count(needle) for lines, _, _, _ in self.by_channel.get(channel, []))


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


def league_service(store, clock) -> RallyService:
    """The services of a reproducible session on `store`: rally seed 42, the rounds' secret seeds
    numbered 1, 2, … (as 64 hex digits)."""
    seeds = iter(f"{n:064x}" for n in range(1, 10_000))
    svc = RallyService(store, seed_source=lambda: 42, clock=clock)
    champs = svc.championships
    champs.rounds.seed_source = champs.jobs.seed_source = champs.scratch.seed_source = lambda: next(seeds)
    return svc


@pytest.fixture
def service(store, clock) -> RallyService:
    return league_service(store, clock)


@pytest.fixture
def deadlines(service, clock) -> DeadlineService:
    return DeadlineService(service.work, clock=clock)


@pytest.fixture
def posts() -> Posts:
    return Posts()


async def deliver(service: RallyService, posts: Posts) -> int:
    """Deliver everything owed, recording it per channel."""
    count = 0
    while batch := await service.delivery.claim():
        for out in batch:
            body = out.row.body if isinstance(out.row.body, dict) else {}
            posts.by_channel.setdefault(out.row.channel_id, []).append(
                (list(out.lines), list(out.ping), (out.image or {}).get("kind"), body.get("attach")))
            await service.delivery.sent(out, None)
            count += 1
    return count
