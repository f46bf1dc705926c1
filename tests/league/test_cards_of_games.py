"""Result cards name their game, and results of a provisional ruleset say so (B and
C), with the toy game (tests/toy_game) on both backends: a toy round's cards carry `game` (and
`provisional: true` under its provisional ruleset), bound by the round's digest; they verify by
replaying the toy; an edited game or flag is refused naming the field; an unknown game is refused
with a clear line; a classic card, which names no game, verifies as before. Every result shown of
a provisional ruleset (round results, standings, a rally's end post and `/rally results`) adds
"provisional rules" (RULES B13)."""

from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest

from bot import games
from bot.console import PLACE, Console
from bot.i18n import render
from bot.services import RallyService
from bot.services.world.card_check import verify_card, verify_text
from bot.store.leagues import cards_tx
from tests.league.conftest import deliver
from tests.league.league_helpers import ALICE, BOB, LEAGUE_CHANNEL, ORGANISER, dash, drive, start_run
from tests.toy_game.conftest import toy  # noqa: F401  (the toy game, registered for these tests)
from tests.toy_game.game import DashLibrary, DashRules, dice_dash

TOY = "dicedash"



async def closed_toy_round(service, store, clock, deadlines, toy, ruleset: str) -> str:  # noqa: F811
    """A toy league of `ruleset` whose one round Alice and Bob drove, closed: its cards file."""
    champs = service.championships
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Dash Cup", "UTC", game=TOY, ruleset=ruleset)
    for driver in (ALICE, BOB):
        await champs.leagues.join(LEAGUE_CHANNEL, driver)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "dash-3", opens="now", closes="+1d")
    await deadlines.run_due()
    for driver in (ALICE, BOB):
        await dash(service, toy, driver, await start_run(service, driver))
    clock.now = clock() + timedelta(days=2)
    await deadlines.run_due()
    return await store.db.read(lambda tx: cards_tx(tx, 1))


def edited(text: str, change) -> str:
    document = json.loads(text)
    change(document["cards"][0])
    return json.dumps(document)


async def test_a_toy_card_names_its_game_and_verifies_by_replaying_the_toy(service, store, clock, deadlines,
                                                                           toy):  # noqa: F811
    text = await closed_toy_round(service, store, clock, deadlines, toy, "classic")
    document = json.loads(text)
    assert document["round"]["game"] == TOY and "provisional" not in document["round"]
    assert all(card["game"] == TOY and "provisional" not in card for card in document["cards"])
    assert all(set(card["claimed"]) == {"score"} for card in document["cards"])  # points, not a time
    report = verify_text(text)
    assert report.ok, report.lines
    assert all(line.endswith("genuine [Dice Dash]") for line in report.lines[:2]), report.lines
    alone = verify_card(document["cards"][0])
    assert alone.ok and alone.time_s == document["cards"][0]["claimed"]["score"]


async def test_a_card_whose_game_is_edited_is_refused_naming_the_field(service, store, clock, deadlines,
                                                                       toy):  # noqa: F811
    text = await closed_toy_round(service, store, clock, deadlines, toy, "classic")

    class Twin(DashRules):  # another registered game that reads the same log and stages
        id = "dicedash2"

    class NoTexts(DashLibrary):
        texts = None

    games.register(dice_dash(rules=Twin(), library=NoTexts()))
    try:
        report = verify_text(edited(text, lambda card: card.update(game="dicedash2")))
    finally:
        games.unregister("dicedash2")
    assert not report.ok and "its game is not the one published for this round" in report.lines[0], report.lines
    moved = verify_text(edited(text, lambda card: card.pop("game")))  # claims to be classic's
    assert not moved.ok and "dash-3" in moved.lines[0]  # not a classic stage
    unknown = verify_text(edited(text, lambda card: card.update(game="nosuchgame")))
    assert not unknown.ok
    assert "no game called 'nosuchgame' on this bot (games: rallyman, dirt, roadrally, dicedash)" in unknown.lines[0], \
        unknown.lines
    header = json.loads(text)
    header["round"]["game"] = "rallyman"  # the file's own header edited: its digest no longer binds it
    assert not verify_text(json.dumps(header)).ok


async def test_an_old_classic_card_names_no_game_and_verifies(service, store, clock, deadlines):
    champs = service.championships
    await champs.leagues.create(LEAGUE_CHANNEL, ORGANISER, "Sunday Cup", "UTC")
    await champs.leagues.join(LEAGUE_CHANNEL, ALICE)
    await champs.rounds.round_add(LEAGUE_CHANNEL, ORGANISER, "pinewood-sprint", opens="now", closes="+1d")
    await deadlines.run_due()
    await drive(service, ALICE, await start_run(service, ALICE))
    clock.now = clock() + timedelta(days=2)
    await deadlines.run_due()
    text = await store.db.read(lambda tx: cards_tx(tx, 1))
    document = json.loads(text)
    assert "game" not in document["round"] and "provisional" not in document["round"]
    assert "game" not in document["cards"][0] and set(document["cards"][0]["claimed"]) == {"time_s", "power_s"}
    report = verify_text(text)
    assert report.ok and report.lines[0].endswith("genuine"), report.lines


async def test_a_provisional_ruleset_says_so_on_its_cards_results_and_standings(service, store, clock, deadlines,
                                                                              posts, toy):  # noqa: F811
    text = await closed_toy_round(service, store, clock, deadlines, toy, "provisional")
    document = json.loads(text)
    assert document["round"]["provisional"] is True and all(c["provisional"] is True for c in document["cards"])
    report = verify_text(text)
    assert report.ok and report.lines[0].endswith("genuine [Dice Dash, provisional rules]"), report.lines
    fr = render(report.lines[0], "fr")
    assert fr.endswith("[Course aux dés, règles provisoires]"), fr
    dropped = verify_text(edited(text, lambda card: card.pop("provisional")))
    assert not dropped.ok and "provisional" in dropped.lines[0], dropped.lines

    await deliver(service, posts)
    channel = posts.by_channel[LEAGUE_CHANNEL.channel_id]
    results = next(lines for lines, *_ in channel if any("is closed. Results:" in line for line in lines))
    standings = next(lines for lines, *_ in channel if any("Standings of" in line for line in lines))
    assert "provisional rules" in results and "provisional rules" in standings
    images = [json.loads(r[0]) for r in await store.db.fetch_all("SELECT body FROM outbox ORDER BY id")]
    subtitles = [body["image"]["table"]["subtitle"] for body in images if (body.get("image") or {}).get("table")]
    assert sum("provisional rules" in json.dumps(s) for s in subtitles) >= 2  # results and standings cards


async def test_a_classic_ruleset_of_the_toy_says_nothing_of_provisional_rules(service, store, clock, deadlines,
                                                                            posts, toy):  # noqa: F811
    await closed_toy_round(service, store, clock, deadlines, toy, "classic")
    await deliver(service, posts)
    assert "provisional rules" not in posts.text(LEAGUE_CHANNEL.channel_id)


@pytest.mark.parametrize("ruleset", ["provisional", "classic"])
async def test_a_rally_s_end_post_and_rally_results_say_provisional_rules_under_that_ruleset(
        store, toy, ruleset):  # noqa: F811
    service = RallyService(store, seed_source=lambda: 5)
    out = io.StringIO()
    console = Console(service, out=out)
    await console.run_line(f"ann: /rally create stage:dash-3 drivers:1 game:dicedash ruleset:{ruleset}")
    await console.run_line("ann: /rally join")
    await console.run_line("ann: /rally start")
    for _ in range(20):  # banking each turn: three rounds end the dash
        if await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id) is None:
            break
        await console.run_line("ann: /bank")
    text = out.getvalue()
    assert "Banked" in text and "ann: 0 points" in text, text[-800:]
    mark = len(text)
    await console.run_line("ann: /rally results")
    archive = out.getvalue()[mark:]
    wanted = ruleset == "provisional"
    assert ("provisional rules" in text) is wanted, text[-800:]
    assert ("provisional rules" in archive) is wanted, archive
