"""`/steward` and `/league leave` through the REAL command tree, and the tree's size: Discord
refuses a command over 4,000 characters (names, descriptions, options, choices) in any locale, or
with more than 25 options at a level."""

from __future__ import annotations

from bot.cli.commands import build_tree
from tests.discord.fakes import Harness, channel_posts, private_answers, user_option
from tests.discord.test_discord_league import ALICE, AS_MOD, BOB, MOD, drive, h, league_with_open_round, run_start
from tests.league.test_league_refusals import everything

__all__ = ["h"]  # the harness fixture, shared with test_discord_league
LIMIT = 4000
LOCALES = (None, "fr", "de")


def size(node: dict, locale: str | None) -> int:
    """What Discord counts of a command in a locale: names, descriptions, choices, all levels."""
    def text(item: dict, key: str) -> str:
        return (item.get(f"{key}_localizations") or {}).get(locale, item.get(key, "")) if locale else item.get(key, "")

    return (len(text(node, "name")) + len(text(node, "description"))
            + sum(len(text(c, "name")) + len(str(c["value"])) for c in node.get("choices") or [])
            + sum(size(o, locale) for o in node.get("options") or []))


async def test_league_and_steward_stay_within_discords_limits_in_every_locale():
    payload, errors = await build_tree(localized=True)
    assert errors == {}
    commands = {c["name"]: c for c in payload}
    for name in ("league", "steward"):
        for locale in LOCALES:
            assert size(commands[name], locale) <= LIMIT, (name, locale)
        assert len(commands[name]["options"]) <= 25
        assert all(len(sub.get("options") or []) <= 25 for sub in commands[name]["options"])


async def test_a_penalty_is_withdrawn_by_an_organiser_and_refused_to_a_driver(h: Harness):
    await league_with_open_round(h, ALICE, BOB)
    thread_id, _ = await run_start(h, BOB)
    await drive(h, BOB, thread_id)
    await h.command(MOD, "league", "penalty", special=(user_option("driver", BOB),), seconds=10, reason="cut",
                    payload=AS_MOD)
    before = await everything(h.bot.store)
    refused = await h.command(ALICE, "steward", "withdraw", special=(user_option("driver", BOB),), round=1,
                              reason="mate")
    assert "Only the organisers of Club" in private_answers(refused)[0]
    assert await everything(h.bot.store) == before
    calls = await h.command(MOD, "steward", "withdraw", special=(user_option("driver", BOB),), round=1,
                            reason="appeal", payload=AS_MOD)
    (post,) = channel_posts(calls)
    assert "penalty of Bob withdrawn by <@1004>: appeal" in post.content


async def test_a_driver_leaves_a_league(h: Harness):
    await league_with_open_round(h, ALICE)
    (post,) = channel_posts(await h.command(ALICE, "league", "leave"))
    assert "Alice left Club" in post.content
    assert "not a member" in private_answers(await h.command(ALICE, "league", "leave"))[0]
