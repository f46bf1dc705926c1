"""The organiser check when the actor's roles are not known (`Actor.roles` None: Discord's layer
keeps no server's roles and learns them only when asked): Manage Server and named organisers
decide without them; a league without an organiser role refuses without them; only a league
whose role could decide asks for them (`RolesNeeded`, raised before anything is written), and
once known they decide. `/league settings world_name:` asks only when no league names the actor."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.services import Actor
from bot.services.errors import RolesNeeded, ServiceError
from bot.services.league.leagues import LeagueService
from tests.league.league_helpers import LEAGUE_CHANNEL, ORGANISER
from tests.league.test_league_refusals import champs, everything

__all__ = ["champs"]  # the fixture: a league with a round open

ROLE = 7_777_777_777_777_777


async def league(champs, role: int | None = None):
    found = await champs.leagues.league_here(LEAGUE_CHANNEL)
    if role is not None:
        await champs.leagues.organisers(LEAGUE_CHANNEL, ORGANISER, role)
        found = await champs.leagues.league_here(LEAGUE_CHANNEL)
    return found


async def test_only_a_role_that_could_decide_asks_for_the_roles(champs):
    unknown = Actor(55, "Dana", roles=None)
    without_role = await league(champs)
    assert not LeagueService.is_organiser(without_role, unknown)  # no role to hold: refused, nothing asked
    assert LeagueService.is_organiser(without_role, replace(unknown, can_manage=True))
    assert ORGANISER.user_id in without_role.organisers  # its creator, named
    named = Actor(ORGANISER.user_id, ORGANISER.name, roles=None)  # without Manage Server
    assert LeagueService.is_organiser(without_role, named)
    with_role = await league(champs, ROLE)
    with pytest.raises(RolesNeeded) as raised:
        LeagueService.is_organiser(with_role, unknown)
    assert isinstance(raised.value, ServiceError) and raised.value.key == "league.roles_unknown"
    assert LeagueService.is_organiser(with_role, named)  # named: still no roles needed
    assert LeagueService.is_organiser(with_role, replace(unknown, roles=(ROLE,)))
    assert not LeagueService.is_organiser(with_role, replace(unknown, roles=(ROLE + 1,)))


async def test_an_organiser_command_asking_for_the_roles_has_changed_nothing(champs):
    await league(champs, ROLE)
    before = await everything(champs.leagues.store)
    with pytest.raises(RolesNeeded):
        await champs.rounds.round_add(LEAGUE_CHANNEL, Actor(55, "Dana", roles=None), "pinewood-sprint",
                                     opens="+1d", closes="+2d")
    assert await everything(champs.leagues.store) == before
    reply = await champs.rounds.round_add(LEAGUE_CHANNEL, Actor(55, "Dana", roles=(ROLE,)), "pinewood-sprint",
                                          opens="+1d", closes="+2d")
    assert reply.outbox  # the same command, the roles known: scheduled


async def test_world_name_asks_for_the_roles_only_when_no_league_names_the_actor(champs):
    await league(champs, ROLE)
    named = Actor(ORGANISER.user_id, ORGANISER.name, roles=None)
    assert (await champs.leagues.world_name(LEAGUE_CHANNEL, named, "off")).ephemeral
    with pytest.raises(RolesNeeded):
        await champs.leagues.world_name(LEAGUE_CHANNEL, Actor(55, "Dana", roles=None), "on")
    assert (await champs.leagues.store.guilds.get(LEAGUE_CHANNEL.guild_id))["world_name"] is False  # unchanged
