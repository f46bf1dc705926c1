"""A newcomer alone against two AI drivers, through the real command tree:
`/rally add-ai` in the lobby, then each AI turn is driven by the scheduler a short pause after its
prompt reached the channel, with no ping and no buttons; the person's own turns are typed."""

from __future__ import annotations

from bot.engine.rallyman.actions import Roll, Spare, Stop
from bot.engine.rallyman.ai import choose_action
from bot.engine.rallyman.protocol import GAME as RALLYMAN
from bot.services.play.ai_drivers import is_ai
from bot.services.work import AI_PAUSE
from tests.discord.fakes import CHANNEL, GUILD, Harness, buttons_of, channel_posts, private_answers

ALICE = (1001, "Alice")
BOB = (1002, "Bob")
MAX_MOVES = 600


async def test_alice_races_two_robots_to_the_results_on_discord(tmp_path):
    async with Harness(tmp_path / "ai.sqlite3") as h:
        await h.command(ALICE, "rally", "create", stage="pinewood-sprint", drivers=3)
        await h.command(ALICE, "rally", "join")
        refused = await h.command(BOB, "rally", "add-ai", count=1)
        assert private_answers(refused) == ["Only the host or a member with Manage Server can seat AI drivers."]
        calls = await h.command(ALICE, "rally", "add-ai", count=2, style="careful")
        (post,) = channel_posts(calls)
        assert "join the rally as AI drivers, careful (3/3)" in post.content and "🤖" in post.content
        calls = await h.command(ALICE, "rally", "start")
        assert private_answers(calls) == []
        rally = await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL)
        robot_turns = 0
        for _ in range(MAX_MOVES):
            rally = await h.bot.store.rallies.get(rally.id)
            if rally.status == "finished":
                break
            state = h.bot.rallies.work.state_of(rally)
            if is_ai(state.active.id):
                last = [c for c in h.sent if c.via == "http" and c.method == "POST"][-1]
                assert "(AI) is at the wheel" in last.content
                assert last.body["allowed_mentions"].get("users", []) == [] and buttons_of(last.body) == []
                assert await h.bot.deadlines.run_due(h.clock()) == 0  # not before its pause
                h.clock.advance(seconds=AI_PAUSE.total_seconds())
                before = len(h.sent)
                assert await h.bot.deadlines.run_due(h.clock()) == 1
                await h.bot.sender.flush()
                assert channel_posts(h.sent[before:]), "the robot's turn reached the channel"
                robot_turns += 1
                continue
            action = choose_action(state)
            assert isinstance(action, (Roll, Stop, Spare))
            if isinstance(action, Roll):
                calls = await h.command(ALICE, "roll", dice=RALLYMAN.commands.label(action))
            else:
                calls = await h.command(ALICE, "stop" if isinstance(action, Stop) else "spare")
            assert private_answers(calls) == []
        assert rally.status == "finished" and robot_turns >= 4
        final = h.bot.rallies.work.state_of(rally)
        assert sorted(c.name.startswith("🤖") for c in final.cars) == [False, True, True]
