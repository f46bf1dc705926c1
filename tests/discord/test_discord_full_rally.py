"""A whole rally played through the real command tree and the real buttons, two users, to results.

Each move is the built-in AI's choice (`bot.engine.rallyman.ai.choose_action`) for whoever drives, sent
alternately as a slash command (`/roll`, `/stop`, `/spare`) and as a click on the turn message's
button when that button exists, so both paths drive the same game. No move may be refused, each
move must reach the channel as exactly one post delivered by the outbox sender, each new turn
must ping exactly its driver, and the stored log must replay to the stored snapshot at the end.
"""

from __future__ import annotations

from bot.engine.rallyman.actions import Roll, Spare, Stop
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.protocol import GAME as RALLYMAN
from bot.services.play.replay import log_problem, replay_snapshot
from tests.discord.fakes import (
    CHANNEL,
    GUILD,
    Harness,
    attachment_edits,
    buttons_of,
    channel_posts,
    click_payload,
    private_answers,
)

BOB = (1002, "Bob")
ALICE = (1001, "Alice")
USERS = {str(BOB[0]): BOB, str(ALICE[0]): ALICE}
MAX_MOVES = 600


async def test_two_drivers_play_a_rally_to_the_results_through_discord(tmp_path):
    async with Harness(tmp_path / "full.sqlite3") as h:
        for user, sub in ((BOB, "create"), (BOB, "join"), (ALICE, "join"), (BOB, "start")):
            values = {"stage": "pinewood-sprint", "drivers": 2} if sub == "create" else {}
            calls = await h.command(user, "rally", sub, **values)
            assert private_answers(calls) == [] and len(channel_posts(calls)) == 1
        rally = await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL)
        clicks = commands = pings = 0
        for move in range(MAX_MOVES):
            rally = await h.bot.store.rallies.get(rally.id)
            if rally.status == "finished":
                break
            state = h.bot.rallies.work.state_of(rally)
            user = USERS[state.active.id]
            action = choose_action(state)
            text = RALLYMAN.commands.label(action)
            custom_id = f"rally:{rally.id}:{rally.version}:{text}"
            message = h.last_turn_message()
            if move % 2 and custom_id in buttons_of(message):
                calls = await h.dispatch(click_payload(user, message, custom_id))
                clicks += 1
            elif isinstance(action, Roll):
                calls = await h.command(user, "roll", dice=text)
                commands += 1
            else:
                assert isinstance(action, (Stop, Spare))
                calls = await h.command(user, "stop" if isinstance(action, Stop) else "spare")
                commands += 1
            assert private_answers(calls) == []  # no refusal
            post, *after = channel_posts(calls)  # the finish: the results, the achievements, the replay
            if after:  # careers' achievements (if any), then the rally's animated replay
                assert after[-1].content.startswith(f"🎬 The replay of rally #{rally.id}")
                assert all("earns an achievement" in a.content for a in after[:-1])
            mentioned = post.body["allowed_mentions"].get("users", [])
            if "your turn" in post.content:
                pings += 1
                next_driver = h.bot.rallies.work.state_of(await h.bot.store.rallies.get(rally.id)).active
                assert [str(u) for u in mentioned] == [next_driver.id]
            else:
                assert mentioned == []
        assert rally.status == "finished", "the rally did not finish"
        assert "**Results — Pinewood Sprint**" in post.content and post.files == ["results.png"]
        text, replay = [c for c in calls if c.method == "POST" and c.via == "http" and c.error is None
                        and "earns an achievement" not in c.content]
        assert replay.content.startswith(f"🎬 The replay of rally #{rally.id}")  # after the results
        assert text.files == []  # text first: the results picture was added to that message by an edit
        assert [e.files for e in attachment_edits(calls, post)] == [["results.png"]]
        assert clicks > 5 and commands > 5 and pings > 5
        assert buttons_of(post.body) == []  # no buttons under the results
        report = await h.bot.store.check(replay_snapshot, log_problem)
        assert report.ok and report.actions > 20
