"""Bad input in a live Road Rally USA game, through the services ("Bad input"): each is
a specific private refusal, changes nothing (the snapshot, the version and the outbox are the same
after it) and reveals nothing (no other seat's card in the answer). The engine's own refusals that
a live game rarely reaches (an empty hand, more than five cards at a General Store) are tested on
the engine in tests/roadrally/test_rr_turn.py and test_rr_spaces.py."""

from __future__ import annotations

import pytest

from bot import games
from bot.engine.core.errors import RallyError
from bot.engine.roadrally.words import card_code
from bot.i18n import render
from bot.services import Actor, Place, RallyService
from bot.services.errors import ServiceError

RR = games.get("roadrally")
HERE = Place(guild_id=10, channel_id=20)
ANN, BEN, CAT, EVE = Actor(4001, "Ann"), Actor(4002, "Ben"), Actor(4003, "Cat"), Actor(4009, "Eve")
PEOPLE = {str(a.user_id): a for a in (ANN, BEN, CAT)}


async def started(store) -> RallyService:
    service = RallyService(store, seed_source=lambda: 21)
    await service.create(HERE, ANN, None, drivers=3, game="roadrally", preset="rr-standard")
    for actor in (ANN, BEN, CAT):
        await service.join(HERE, actor)
    await service.start(HERE, ANN)
    return service


async def frozen(service: RallyService, store) -> tuple:
    rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
    return rally.version, rally.snapshot, len(await store.outbox.all())


def mixed(hand: list[int]) -> str:
    """Two cards of different colours from `hand` (C4: one colour a turn)."""
    first = hand[0]
    other = next(c for c in hand if card_code(c)[0] != card_code(first)[0])
    return f"play {card_code(first)} {card_code(other)}"


async def test_each_bad_play_is_refused_privately_by_name_and_changes_nothing(store):
    service = await started(store)
    rally = await store.rallies.get_active_in_channel(HERE.guild_id, HERE.channel_id)
    table = service.work.state_of(rally)
    (seat,) = RR.rules.to_act(table)
    player = PEOPLE[seat]
    waiting = next(a for s, a in PEOPLE.items() if s != seat)
    hand = sorted(table.state.seats[table.state.index(seat)].hand)
    missing = next(f"{c}{v}" for c in "gyr" for v in range(1, 5)
                   if f"{c}{v}" not in {card_code(h) for h in hand} and (c, v) in
                   {("g", 1), ("g", 2), ("y", 2), ("y", 3), ("r", 3), ("r", 4)})
    cases = [
        (player, f"play {missing}", "is not in your hand"),                     # C4: a card not in the hand
        (player, mixed(hand), "one colour"),                                     # C4: mixed colours
        (player, f"play {card_code(hand[0])} store", "General Store"),           # C5: no store here
        (player, "reveal 9", "9"),                                               # C6.2: a stage not being scored
        (player, "pass", "no stage"),                                            # no window open
        (waiting, f"play {card_code(hand[0])}", "not your turn"),                # C3: someone else's turn
        (EVE, "play g1", "not"),                                                 # a spectator
    ]
    before = await frozen(service, store)
    others = {s: [card_code(c) for c in table.state.seats[table.state.index(s)].hand] for s in PEOPLE}
    for actor, text, needle in cases:
        with pytest.raises(RallyError) as refused:
            await service.act(HERE, actor, text, option="action")
        said = render(str(refused.value), "en")
        assert needle.lower() in said.lower(), (text, said)
        assert await frozen(service, store) == before, text
        for s, codes in others.items():  # nothing of another seat's hand in the answer
            if s != str(actor.user_id):
                assert not any(f"`{code}`" in said for code in codes if code not in text), (text, said)


async def test_someone_else_s_hand_and_a_spectator_s_are_refused_and_change_nothing(store):
    service = await started(store)
    before = await frozen(service, store)
    with pytest.raises(ServiceError, match="only look at your own hand"):
        await service.hand(HERE, ANN, BEN.user_id)
    with pytest.raises(ServiceError, match="no seat"):
        await service.hand(HERE, EVE)
    own = await service.hand(HERE, ANN, ANN.user_id)  # naming oneself is fine
    assert own.ephemeral and render(own.lines[0], "en").startswith("Your hand: ")
    assert await frozen(service, store) == before
