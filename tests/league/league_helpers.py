"""Helpers for league tests: a season's services on a temp SQLite file with a fake clock."""

from __future__ import annotations

import itertools

from bot.engine.rallyman.ai import choose_action
from bot.services import Actor, Place, RallyService
from bot.services.play.deadlines import DeadlineService
from bot.store.clock import from_text
from tests.league.conftest import deliver

GUILD = 10
LEAGUE_CHANNEL = Place(guild_id=GUILD, channel_id=20)
ORGANISER = Actor(1004, "Mod", can_manage=True)
ALICE = Actor(1001, "Alice")
BOB = Actor(1002, "Bob")
CAROL = Actor(1003, "Carol")
DAVE = Actor(1005, "Dave")

_threads = itertools.count(900_000)


def new_thread() -> int:
    return next(_threads)


async def start_run(service: RallyService, actor: Actor, place: Place = LEAGUE_CHANNEL, **options) -> Place:
    """What the cog does: check, make a thread, start the run in it; returns the thread."""
    champs = service.championships
    rnd, league = await champs.check_run(place, actor, **options)
    thread = Place(guild_id=place.guild_id, channel_id=new_thread())
    await champs.start_run(place, actor, rnd, league, thread.channel_id, "Test server")
    return thread


async def drive(service: RallyService, actor: Actor, thread: Place, max_actions: int = 400) -> None:
    """Drive a run to its end with the AI's choices, typed as the driver would."""
    for _ in range(max_actions):
        rally = await service.store.rallies.get_active_in_channel(thread.guild_id, thread.channel_id)
        if rally is None or rally.status != "running":
            return
        state = service.work.state_of(rally)
        await service.act(thread, actor, str(choose_action(state)))
    raise AssertionError("the run did not end")


async def until(clock, deadlines: DeadlineService, service: RallyService, posts, moment) -> None:
    """Move the clock to `moment`, running every job that falls due on the way, in time order, and
    delivering what they post (recorded in `posts`)."""
    while True:
        pending = [j for j in await service.store.jobs.pending() if from_text(j.due_at) <= moment]
        if not pending:
            break
        clock.now = max(clock.now, min(from_text(j.due_at) for j in pending))
        await deadlines.run_due()
        await deliver(service, posts)
    clock.now = moment


async def tick(service: RallyService, deadlines: DeadlineService) -> int:
    return await deadlines.run_due()


async def dash(service: RallyService, toy, actor: Actor, thread: Place) -> None:
    """Drive a toy-game run (tests/toy_game) to its end with the toy's own AI, typed as the driver would."""
    for _ in range(400):
        rally = await service.store.rallies.get_active_in_channel(thread.guild_id, thread.channel_id)
        if rally is None or rally.status != "running":
            return
        state = service.work.state_of(rally)
        (seat,) = toy.rules.to_act(state)
        await service.act(thread, actor, toy.coach.choose(toy.rules.view(state, seat), seat).kind)
    raise AssertionError("the dash did not end")
