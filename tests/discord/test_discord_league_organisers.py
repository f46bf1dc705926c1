"""`/league organisers add: remove:` through the REAL command tree (every request checked against
Discord's spec by the referee): an organiser names a member, who hands the league on; a bot, a
non-organiser and the last organiser's removal are refused privately, with nothing changed."""

from __future__ import annotations

from tests.discord.fakes import Harness, channel_posts, private_answers, user_option
from tests.discord.test_discord_league import ALICE, AS_MOD, BOB, CAROL, MOD, h
from tests.league.test_league_refusals import everything

__all__ = ["h"]  # the harness fixture, shared with test_discord_league
ROBOT = (1999, "Robo")


def bot_option(name: str, user: tuple[int, str]) -> tuple[dict, dict]:
    """A user option naming a bot account."""
    opt, resolved = user_option(name, user)
    resolved["users"][str(user[0])]["bot"] = True
    return opt, resolved


async def test_an_organiser_names_a_member_who_hands_the_league_on(h: Harness):
    assert private_answers(await h.command(MOD, "league", "create", name="Club", timezone="UTC",
                                           payload=AS_MOD)) == []
    (post,) = channel_posts(await h.command(MOD, "league", "organisers", special=(user_option("add", ALICE),),
                                            payload=AS_MOD))
    assert "<@1004> named Alice an organiser of **Club**" in post.content
    (post,) = channel_posts(await h.command(ALICE, "league", "organisers",
                                            special=(user_option("add", BOB), user_option("remove", ALICE))))
    assert "named Bob an organiser" in post.content and "took Alice off the organisers" in post.content

    before = await everything(h.bot.store)
    refused = await h.command(ALICE, "league", "organisers", special=(user_option("add", CAROL),))
    assert "Only the organisers of Club" in private_answers(refused)[0]
    refused = await h.command(BOB, "league", "organisers", special=(bot_option("add", ROBOT),))
    assert "Robo is a bot" in private_answers(refused)[0]
    await h.command(BOB, "league", "organisers", special=(user_option("remove", MOD),))
    refused = await h.command(BOB, "league", "organisers", special=(user_option("remove", BOB),))
    assert "Bob is the last organiser Club names" in private_answers(refused)[0]
    after = await everything(h.bot.store)
    new = [r for r in after["league_log"] if r not in before["league_log"]]
    assert [(r[3], r[4], r[5]) for r in new] == [(BOB[0], "organiser_remove", MOD[0])]  # only Mod's removal
