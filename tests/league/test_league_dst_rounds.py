"""Weekly rounds whose local hour daylight saving removes (spring forward) or doubles (fall back)
are never moved silently: the organiser's answer and the league's post say which round, which end
and the time it takes, in the league's language (Europe/Paris: summer time from 28 March 2027,
winter time from 31 October 2027)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from bot.i18n import render
from bot.store.clock import from_text
from bot.store.leagues import rounds_of_league_tx
from tests.league.conftest import deliver
from tests.league.league_helpers import LEAGUE_CHANNEL, ORGANISER

PARIS = ZoneInfo("Europe/Paris")


async def weekly_rounds(service, clock, now, hour, count, language="en"):
    """Weekly Sunday rounds at `hour` in Paris added at `now`: the organiser's answer and the rounds."""
    clock.now = now
    champs = service.championships
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Clock Cup", "Europe/Paris", language=language)
    reply = await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", day="sun", hour=hour,
                                          rounds=count)
    return reply, await service.store.db.read(lambda tx: rounds_of_league_tx(tx, 1))


async def test_rounds_at_an_hour_the_spring_change_removes_say_so_and_when_they_take(service, clock, posts):
    reply, rounds = await weekly_rounds(service, clock, datetime(2027, 3, 10, 12, tzinfo=UTC), "2", 3)
    assert [from_text(r.opens_at).astimezone(PARIS).hour for r in rounds] == [2, 2, 3]  # 28 March: no 02:00
    text = [render(line) for line in reply.lines]
    said = [line for line in text if line.startswith("🕑")]
    assert said == [
        "🕑 Round 2 closes at 03:00 (UTC+02:00) on 2027-03-28: 02:00 does not exist in Europe/Paris that night "
        "(the clocks go forward).",
        "🕑 Round 3 opens at 03:00 (UTC+02:00) on 2027-03-28: 02:00 does not exist in Europe/Paris that night "
        "(the clocks go forward).",
    ]
    await deliver(service, posts)
    assert all(posts.count(LEAGUE_CHANNEL.channel_id, line) == 1 for line in said)  # the announcement says it too


async def test_rounds_at_an_hour_the_autumn_change_doubles_take_the_first(service, clock, posts):
    reply, rounds = await weekly_rounds(service, clock, datetime(2027, 10, 20, 12, tzinfo=UTC), "2", 2, "fr")
    assert from_text(rounds[0].closes_at) == datetime(2027, 10, 31, 0, tzinfo=UTC)  # 02:00 summer time
    said = [render(line, "fr") for line in reply.lines if render(line).startswith("🕑")]
    assert said == [
        "🕑 La manche 1 ferme au premier 02:00 du 2027-10-31, 02:00 (UTC+02:00) : 02:00 a lieu deux fois en "
        "Europe/Paris cette nuit-là (passage à l'heure d'hiver).",
        "🕑 La manche 2 ouvre au premier 02:00 du 2027-10-31, 02:00 (UTC+02:00) : 02:00 a lieu deux fois en "
        "Europe/Paris cette nuit-là (passage à l'heure d'hiver).",
    ]
    await deliver(service, posts)
    delivered = [line for lines, _, _, _ in posts.by_channel[LEAGUE_CHANNEL.channel_id] for line in lines]
    assert [render(line, "fr") for line in delivered if render(line).startswith("🕑")] == said
    (first, _) = [line for line in reply.lines if render(line).startswith("🕑")]
    assert render(first, "de").startswith("🕑 Lauf 1 schließt am 2027-10-31 um das erste 02:00, 02:00 (UTC+02:00)")


async def test_rounds_at_an_hour_every_week_has_say_nothing_of_the_clocks(service, clock):
    reply, rounds = await weekly_rounds(service, clock, datetime(2027, 3, 10, 12, tzinfo=UTC), "20", 3)
    assert [from_text(r.opens_at).astimezone(PARIS).hour for r in rounds] == [20, 20, 20]
    assert not [line for line in reply.lines if render(line).startswith("🕑")]
