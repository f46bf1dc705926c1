"""`/driver [user] [game]` through Discord: a private answer with the career card
attached, another member's card by the user option, and a clear private refusal for a member
without history, nothing posted in the channel."""

from __future__ import annotations

from bot.engine.rallyman.ai import choose_action
from bot.services import Actor, Place
from tests.discord.fakes import CHANNEL, GUILD, Harness, channel_posts, private_answers, user_option

BOB = (1002, "Bob")
ALICE = (1001, "Alice")


async def test_driver_answers_privately_with_the_card_and_refuses_a_member_without_history(tmp_path):
    async with Harness(tmp_path / "driver.sqlite3") as h:
        calls = await h.command(ALICE, "driver")
        assert private_answers(calls) == ["Alice has no finished rally this server can see yet: nothing to show."]
        assert channel_posts(calls) == []

        for sub in ("create", "join", "start"):
            await h.command(ALICE, "rally", sub, **({"stage": "pinewood-sprint", "drivers": 1} if sub == "create"
                                                    else {}))
        place, alice = Place(GUILD, CHANNEL), Actor(ALICE[0], ALICE[1])
        for _ in range(200):
            rally = await h.bot.store.rallies.get_active_in_channel(GUILD, CHANNEL)
            if rally is None:
                break
            await h.bot.rallies.act(place, alice, str(choose_action(h.bot.rallies.work.state_of(rally))))
        await h.bot.sender.flush()

        calls = await h.command(BOB, "driver", special=(user_option("user", ALICE),))
        (answer,) = private_answers(calls)
        assert answer.startswith("Career card of Alice in Rallyman (rallies: 1")
        assert [c.files for c in calls if c.files] == [["career.png"]]
        assert channel_posts(calls) == []
        calls = await h.command(ALICE, "driver", game="roadrally")
        assert private_answers(calls) == ["Alice has no finished rally of Road Rally USA this server can see yet."]
