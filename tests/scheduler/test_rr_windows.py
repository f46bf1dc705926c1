"""A Road Rally USA stage window under the clock (RULES C10.8, C10.2): every seat
is asked at once and waited for together, so the channel never learns who holds the card:
- the window's prompt pings every person alike; an answer posts nothing while others think;
- the reminder names nobody and pings everyone asked; the deadline closes the window for all
  (the unanswered pass, C10.2), names nobody and counts no missed turn;
- an answer is tied to the window, not to the rally's version: while the window is open the rally
  does not change at all (its version token, page, stream and posts), answers given at the same
  moment are all taken, a pick from a hand opened before another seat answered too; the window's
  answers are logged together, in seat order, when it closes;
- an AI seat answers the window as itself (logged with its own id when the window closes),
  posting nothing while people are still to answer.
"""

from __future__ import annotations

import asyncio

from bot import games
from bot.engine.core.text import Msg
from bot.i18n import render
from bot.services import Actor, RallyService
from bot.services.play.deadlines import DeadlineService
from bot.services.play.replay import log_problem, replay_snapshot
from bot.store.web import rally_version_tx
from bot.store.window_answers import answers_tx
from tests.scheduler.conftest import ALICE, BOB, CAROL, HERE, HOURS, deliver

RR = games.get("roadrally")


async def rally_now(store):
    return await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)


def shown(delivered) -> str:
    return "\n".join(render(line, "en") for out in delivered for line in out.lines)


async def open_rally(service: RallyService, people: tuple[Actor, ...], ai: int = 0) -> None:
    await service.create(HERE, people[0], None, drivers=len(people) + ai, deadline_hours=HOURS, game="roadrally",
                         preset="rr-standard")
    if ai:
        await service.add_ai(HERE, people[0], ai)
    for actor in people:
        await service.join(HERE, actor)
    await deliver(service)
    await service.start(HERE, people[0])
    await deliver(service)


async def to_a_window(service: RallyService, deadlines: DeadlineService, store, clock,
                      people: tuple[Actor, ...]) -> list:
    """Play the people's turns as the AI would until a stage window opens; what was delivered
    when it opened."""
    by_seat = {str(a.user_id): a for a in people}
    for _ in range(400):
        table = service.work.state_of(await rally_now(store))
        acting = RR.rules.to_act(table)
        human = sorted(s for s in acting if s in by_seat)
        if not human:
            clock.advance(seconds=30)
            await deadlines.run_due()
        else:
            seat = human[0]
            move = RR.commands.label(RR.coach.choose(RR.rules.view(table, seat), seat))
            await service.act(HERE, by_seat[seat], move, option="action")
        delivered = await deliver(service)
        table = service.work.state_of(await rally_now(store))
        if table.state.phase == "stage" and any(s in by_seat for s in RR.rules.to_act(table)):
            return delivered
    raise AssertionError("no stage window opened")


async def test_a_window_pings_everyone_alike_and_an_answer_posts_nothing(store, service, deadlines, clock):
    people = (ALICE, BOB, CAROL)
    await open_rally(service, people)
    opened = await to_a_window(service, deadlines, store, clock, people)
    (prompt,) = [out for out in opened if out.turn is not None]
    assert sorted(prompt.ping) == sorted(a.user_id for a in people)  # every person, whoever holds the card
    assert "every driver answers privately" in shown([prompt])
    assert prompt.turn.driver_id == 0 and prompt.turn.options == ("hand",)  # no seat named, no card offered
    table = service.work.state_of(await rally_now(store))
    window = table.state.pending[0]
    first = people[0]
    seat = str(first.user_id)
    reply = await service.act(HERE, first, RR.commands.label(RR.coach.choose(RR.rules.view(table, seat), seat)),
                              option="action")
    assert reply.ephemeral and "Your answer is in" in render(reply.lines[0], "en")
    assert await deliver(service) == []  # the channel learns nothing
    after = service.work.state_of(await rally_now(store))
    assert after.state.phase == "stage" and after.state.pending[0] == window
    again = await service.hand(HERE, first)
    assert any(isinstance(line, Msg) and line.key.startswith("roadrally.h.answered") for line in again.lines)


async def test_the_window_s_reminder_and_deadline_name_nobody_and_count_no_missed_turn(
        store, service, deadlines, clock):
    people = (ALICE, BOB, CAROL)
    await open_rally(service, people)
    await to_a_window(service, deadlines, store, clock, people)
    table = service.work.state_of(await rally_now(store))
    window = table.state.pending[0]
    seat = str(BOB.user_id)
    await service.act(HERE, BOB, RR.commands.label(RR.coach.choose(RR.rules.view(table, seat), seat)), option="action")
    await deliver(service)
    rally = await rally_now(store)
    due = await deadlines.due_at(rally.id)
    assert due is not None

    clock.advance(hours=HOURS / 2, minutes=1)
    await deadlines.run_due()
    (reminder,) = await deliver(service)
    assert sorted(reminder.ping) == sorted(a.user_id for a in people)  # Bob answered: reminded all the same
    text = shown([reminder])
    assert "Half of the time to answer is gone" in text
    assert not any(a.name in text for a in people)

    clock.advance(hours=HOURS / 2)
    await deadlines.run_due()
    closed = shown(await deliver(service))
    assert "Time is up: every driver who had not answered passes" in closed
    assert closed.count("Time is up") == 1
    after = service.work.state_of(await rally_now(store))
    assert after.state.phase != "stage" or after.state.pending[:1] != [window]  # the window was resolved
    drivers = await store.drivers.list(rally.id)
    assert [d.missed_turns for d in drivers] == [0] * len(drivers)  # keeping silent is an answer
    actions = [a.as_dict() for a in await store.actions.list(rally.id)]
    assert actions[-1]["actor"] is None and '"type":"timeout"' in actions[-1]["action"]


async def test_an_ai_seat_answers_the_window_as_itself_and_posts_nothing_while_people_think(
        store, service, deadlines, clock):
    people = (ALICE, BOB)
    await open_rally(service, people, ai=1)
    await to_a_window(service, deadlines, store, clock, people)
    rally = await rally_now(store)
    table = service.work.state_of(rally)
    ai_seat = next(s.id for s in table.state.seats if s.id.startswith("-"))
    assert ai_seat in RR.rules.to_act(table)
    before = len(await store.actions.list(rally.id))
    clock.advance(seconds=30)
    await deadlines.run_due()
    assert await deliver(service) == []  # the AI answered; nobody is told
    after = await service.turns.answered_state(await rally_now(store))
    assert ai_seat not in RR.rules.to_act(after) and after.state.phase == "stage"
    assert len(await store.actions.list(rally.id)) == before  # kept beside the rally while the window is open
    for actor in people:  # the people answer: the window closes, every answer logged by its own seat
        seat = str(actor.user_id)
        await service.act(HERE, actor, RR.commands.label(RR.coach.choose(RR.rules.view(after, seat), seat)),
                          option="action")
    actions = [a.as_dict() for a in await store.actions.list(rally.id)][before:]
    assert [a["actor"] for a in actions] == sorted([int(ai_seat), *(a.user_id for a in people)])
    assert all('"type":"stage"' in a["action"] for a in actions)


async def public_marks(store, rally) -> tuple:
    """What anyone outside the window can read of the rally: its row as the web page and the live
    stream read it (version token, log length, `updated_at`, the snapshot the pages draw) and the
    posts owed or made."""
    row = await store.rallies.find(rally.id)
    token = await store.db.read(lambda tx: rally_version_tx(tx, rally.id))
    return (token, row.version, row.updated_at, row.snapshot, len(await store.actions.list(rally.id)),
            [(o.id, o.body) for o in await store.outbox.all()])


async def test_answers_in_an_open_window_change_nothing_public_until_it_closes(store, service, deadlines, clock):
    people = (ALICE, BOB, CAROL)
    await open_rally(service, people)
    await to_a_window(service, deadlines, store, clock, people)
    rally = await rally_now(store)
    table = service.work.state_of(rally)
    window = table.state.pending[0]
    before = await public_marks(store, rally)
    for actor in people[:-1]:  # every answer but the last: the page, its stream, the channel unchanged
        seat = str(actor.user_id)
        reply = await service.act(HERE, actor, RR.commands.label(RR.coach.choose(RR.rules.view(table, seat), seat)),
                                  option="action")
        assert reply.ephemeral and "Your answer is in" in render(reply.lines[0], "en")
        assert await public_marks(store, rally) == before
        assert await deliver(service) == []
    last = str(people[-1].user_id)
    await service.act(HERE, people[-1], RR.commands.label(RR.coach.choose(RR.rules.view(table, last), last)),
                      option="action")
    after = await public_marks(store, rally)
    assert after[0] != before[0] and after[4] == before[4] + len(people)  # closed: the answers logged at once
    closed = service.work.state_of(await rally_now(store))
    assert closed.state.phase != "stage" or closed.state.pending[:1] != [window]
    actions = [a.as_dict() for a in await store.actions.list(rally.id)][-len(people):]
    assert [a["actor"] for a in actions] == sorted(a.user_id for a in people)  # in seat order, not arrival order
    assert (await store.check(replay_snapshot, log_problem)).ok  # the log replays to the snapshot


async def test_answers_given_at_the_same_moment_are_all_taken(store, service, deadlines, clock):
    people = (ALICE, BOB, CAROL)
    await open_rally(service, people)
    await to_a_window(service, deadlines, store, clock, people)
    rally = await rally_now(store)
    table = service.work.state_of(rally)
    # Alice opens her hand (its menu drawn for this version), then Bob and Carol answer at once
    hand = await service.hand(HERE, ALICE)
    assert hand.turn is not None and hand.turn.version == rally.version
    replies = await asyncio.gather(*(service.verb(HERE, actor, "pass", {}) for actor in (BOB, CAROL)))
    assert all("Your answer is in" in render(r.lines[0], "en") or not r.ephemeral for r in replies)
    # her pick from the menu drawn before they answered is taken too: the window is still open
    seat = str(ALICE.user_id)
    chosen = RR.commands.label(RR.coach.choose(RR.rules.view(table, seat), seat))
    (pick,) = [label for label in hand.turn.options if label == chosen]
    await service.press(HERE, ALICE, rally.id, hand.turn.version, pick)
    closed = service.work.state_of(await rally_now(store))
    assert closed.state.phase != "stage" or closed.state.pending[:1] != table.state.pending[:1]
    logged = [a.actor for a in await store.actions.list(rally.id)][-len(people):]
    assert logged == sorted(a.user_id for a in people)  # three answers, none refused


async def test_a_retirement_that_leaves_only_seats_that_answered_closes_the_window(store, service, deadlines, clock):
    people = (ALICE, BOB, CAROL)
    await open_rally(service, people)
    await to_a_window(service, deadlines, store, clock, people)
    rally = await rally_now(store)
    table = service.work.state_of(rally)
    window = table.state.pending[0]
    for actor in (ALICE, BOB):
        seat = str(actor.user_id)
        await service.act(HERE, actor, RR.commands.label(RR.coach.choose(RR.rules.view(table, seat), seat)),
                          option="action")
    assert (await rally_now(store)).version == rally.version
    await service.kick(HERE, ALICE, CAROL.user_id, "Carol")  # Carol never answered: her car retires
    after = service.work.state_of(await rally_now(store))
    assert after.state.phase != "stage" or after.state.pending[:1] != [window]  # closed in the same change
    logged = [a.as_dict() for a in await store.actions.list(rally.id)][rally.version:]
    assert [a["actor"] for a in logged] == [ALICE.user_id, ALICE.user_id, BOB.user_id]  # the kick, then the answers
    assert '"type":"retire"' in logged[0]["action"]
    assert await store.db.read(lambda tx: answers_tx(tx, rally.id)) == []
    assert (await store.check(replay_snapshot, log_problem)).ok
