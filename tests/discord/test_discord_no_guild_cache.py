"""With no guild cache, through the REAL command tree: the bot asks the gateway for no intent, so
the harness feeds no GUILD_CREATE (Discord would send none) and discord.py knows no server's roles
or name. What the cache gave is asked of Discord when needed, each request checked by the referee
and each answer judged by the spec's answer schema:

- a league's organiser role: the member's roles are fetched (`GET /guilds/{id}` then
  `GET /guilds/{id}/members/{user}`) only when a role could decide, and kept 5 minutes
  (bot/views/member_roles.py); Manage Server and named organisers cost no request; a member with
  the role may organise, one without may not, and a failed fetch is a clear refusal with nothing
  changed;
- the server's name on a run (the world scratch): fetched once, kept in the server's settings,
  fetched again after a day (bot/services/server_names.py); a failed fetch gives "" (shown —).
"""

from __future__ import annotations

from bot.views.member_roles import TTL_S, MemberRoles
from tests.discord.fakes import (
    GUILD,
    Harness,
    channel_posts,
    http_error,
    private_answers,
    role_option,
    user_option,
)
from tests.discord.test_discord_league import (
    ALICE,
    AS_MOD,
    BOB,
    CAROL,
    MOD,
    ORGANISERS,
    h,
    league_with_open_round,
    rounds,
)
from tests.league.test_league_refusals import everything

__all__ = ["h"]  # the harness fixture, shared with test_discord_league
NOT_ORGANISER = ("Only the organisers of Club can do that (Manage Server, the organisers' role, or named by "
                 "`/league organisers add:`).")
ROLES_UNKNOWN = ("I could not check your roles in this server just now, so the organisers' role could not count: "
                 "nothing was changed. Try again in a moment.")
AS_ORGANISER = {"roles": (ORGANISERS,)}


def reads(calls) -> list[str]:
    """The server and member reads among `calls` (method and route, without the host)."""
    return [f"GET {c.url.split('/api/v10', 1)[-1]}" for c in calls if c.method == "GET" and "/guilds/" in c.url]


def fetches_of(user: tuple[int, str]) -> list[str]:
    return [f"GET /guilds/{GUILD}", f"GET /guilds/{GUILD}/members/{user[0]}"]


class Ticks:
    """A clock for the roles kept (`MemberRoles`): seconds, moved by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def with_organiser_role(h: Harness) -> Ticks:
    """`Club` with a round open and Alice in it; Manage Server sets the organisers' role. No
    server or member read so far: Manage Server needs none. The roles kept run on `Ticks`."""
    start = len(h.sent)
    await league_with_open_round(h, ALICE)
    calls = await h.command(MOD, "league", "organisers", special=(role_option("role", ORGANISERS),), payload=AS_MOD)
    assert private_answers(calls) == [] and f"<@&{ORGANISERS}>" in channel_posts(calls)[0].content
    assert reads(h.sent[start:]) == [] and list(h.bot.guilds) == []  # no guild cache at all
    ticks = Ticks()
    h.bot.member_roles = MemberRoles(clock=ticks)
    return ticks


async def test_an_organiser_role_member_is_allowed_with_two_requests_kept_five_minutes(h):
    ticks = await with_organiser_role(h)
    before = len(await rounds(h))
    calls = await h.command(CAROL, "league", "round add", stage="official", opens="+3d", closes="+4d",
                            payload=AS_ORGANISER)
    assert private_answers(calls) == [] and len(channel_posts(calls)) == 1
    assert reads(calls) == fetches_of(CAROL) and len(await rounds(h)) == before + 1

    ticks.now += TTL_S - 1  # within the 5 minutes: the roles kept decide, no request
    calls = await h.command(CAROL, "league", "round add", stage="official", opens="+5d", closes="+6d",
                            payload=AS_ORGANISER)
    assert private_answers(calls) == [] and reads(calls) == [] and len(await rounds(h)) == before + 2

    ticks.now += 1  # 5 minutes on: asked again
    calls = await h.command(CAROL, "league", "round add", stage="official", opens="+7d", closes="+8d",
                            payload=AS_ORGANISER)
    assert private_answers(calls) == [] and reads(calls) == fetches_of(CAROL) and len(await rounds(h)) == before + 3


async def test_a_member_without_the_role_is_refused_after_two_requests_and_nothing_changes(h):
    await league_with_open_round(h, ALICE)
    before = await everything(h.bot.store)
    # no organiser role yet: nothing to ask Discord, the refusal is at once
    calls = await h.command(BOB, "league", "round add", stage="pinewood-sprint", opens="+3d", closes="+5d")
    assert private_answers(calls) == [NOT_ORGANISER] and reads(calls) == []

    await h.command(MOD, "league", "organisers", special=(role_option("role", ORGANISERS),), payload=AS_MOD)
    h.bot.member_roles = MemberRoles(clock=Ticks())
    before = await everything(h.bot.store)
    for fetched in (fetches_of(BOB), []):  # then kept: the second refusal asks nothing
        calls = await h.command(BOB, "league", "round add", stage="pinewood-sprint", opens="+3d", closes="+5d")
        assert private_answers(calls) == [NOT_ORGANISER] and channel_posts(calls) == []
        assert reads(calls) == fetched
    calls = await h.command(BOB, "league", "penalty", seconds=30, reason="no", special=(user_option("driver", ALICE),))
    assert private_answers(calls) == [NOT_ORGANISER] and reads(calls) == []  # a steward's command: the same
    assert await everything(h.bot.store) == before  # nothing scheduled, logged or posted


async def test_a_failed_fetch_of_the_roles_is_a_clear_refusal_and_is_not_kept(h):
    await with_organiser_role(h)
    before = await everything(h.bot.store)
    for status, path in ((503, f"/guilds/{GUILD}"), (403, f"/guilds/{GUILD}"), (404, "/members/")):
        h.http.fail(http_error(status), path=path)
        calls = await h.command(CAROL, "league", "round add", stage="official", opens="+3d", closes="+4d",
                                payload=AS_ORGANISER)
        assert private_answers(calls) == [ROLES_UNKNOWN] and channel_posts(calls) == []
        assert [c.error is not None for c in calls if "/guilds/" in c.url][-1]  # the failed read
    assert await everything(h.bot.store) == before and len(h.bot.member_roles) == 0
    calls = await h.command(CAROL, "league", "round add", stage="official", opens="+3d", closes="+4d",
                            payload=AS_ORGANISER)  # Discord answers again: asked again, allowed
    assert private_answers(calls) == [] and reads(calls) == fetches_of(CAROL)


async def test_manage_server_and_named_organisers_cost_no_request(h):
    await with_organiser_role(h)
    (post,) = channel_posts(await h.command(MOD, "league", "organisers", special=(user_option("add", ALICE),),
                                            payload=AS_MOD))
    assert "named Alice an organiser" in post.content
    calls = await h.command(ALICE, "league", "round add", stage="official", opens="+3d", closes="+4d")
    assert private_answers(calls) == [] and reads(calls) == []
    calls = await h.command(MOD, "league", "round add", stage="official", opens="+5d", closes="+6d", payload=AS_MOD)
    assert private_answers(calls) == [] and reads(calls) == []


async def run_guild_names(h: Harness) -> list[str]:
    rows = await h.bot.store.db.fetch_all("SELECT guild_name FROM runs ORDER BY id")
    return [r[0] for r in rows]


async def test_the_server_name_of_a_run_is_fetched_once_kept_and_refreshed_after_a_day(h):
    calls = await h.command(ALICE, "scratch", "run")
    assert private_answers(calls)[0].startswith("Your run is in") and reads(calls) == [f"GET /guilds/{GUILD}"]
    assert (await h.bot.store.guilds.get(GUILD))["server_name"] == "Club"
    h.http.guild_name = "Club Rally"  # renamed: the name kept serves the day
    calls = await h.command(BOB, "scratch", "run")
    assert reads(calls) == [] and await run_guild_names(h) == ["Club", "Club"]
    h.clock.advance(days=1)
    calls = await h.command(CAROL, "scratch", "run")
    assert reads(calls) == [f"GET /guilds/{GUILD}"] and await run_guild_names(h) == ["Club", "Club", "Club Rally"]
    h.clock.advance(days=1)
    h.http.fail(http_error(503), path=f"/guilds/{GUILD}")  # a day on, Discord fails: the name kept, however old
    calls = await h.command(MOD, "scratch", "run")
    assert len(reads(calls)) == 1 and await run_guild_names(h) == ["Club", "Club", "Club Rally", "Club Rally"]


async def test_a_run_whose_server_name_cannot_be_fetched_has_none(h):
    h.http.fail(http_error(403), path=f"/guilds/{GUILD}")
    calls = await h.command(ALICE, "scratch", "run")
    assert private_answers(calls)[0].startswith("Your run is in") and len(reads(calls)) == 1
    assert await run_guild_names(h) == [""] and "server_name" not in await h.bot.store.guilds.get(GUILD)
