"""`/stage list [game]` and `/stage show name [game]` through the real command tree:
private answers with every shipped stage's length, zones and difficulty, one stage's preview; an
unknown game or stage is refused with a specific message, and nothing is posted in the channel."""

from __future__ import annotations

import pytest

from bot import games
from bot.engine.core.game import StageFacts
from bot.i18n import render
from bot.services.stage_library import stage_list, stars
from tests.discord.fakes import PNG, Harness, channel_posts, command_payload, option, private_answers
from tests.toy_game.game import dice_dash

ALICE = (1001, "Alice")


@pytest.fixture
async def h(tmp_path):
    async with Harness(tmp_path / "stage.sqlite3") as harness:
        yield harness


def _answer(calls):
    (answer,) = [c for c in calls if c.method == "PATCH" and "/messages/@original" in c.url]
    return answer


async def test_stage_list_shows_every_classic_stage_with_length_zones_and_stars(h):
    library = games.get(None).library.stages
    calls = await h.command(ALICE, "stage", "list")
    (text,) = private_answers(calls)
    assert channel_posts(calls) == [] and len(text) <= 2000
    lines = text.splitlines()
    assert lines[0].startswith("Stages of **Rallyman**")
    assert len(lines) == 1 + len(library.names())
    for name in library.names():
        facts: StageFacts = library.facts(name)
        line = next(line for line in lines if line.startswith(f"`{name}` "))
        assert facts.title in line and f"{facts.length_class}, {facts.length} spaces" in line
        assert f"zones {' '.join(facts.zones)}" in line and line.endswith(stars(facts.difficulty))


@pytest.mark.parametrize("locale", ["fr", "de"])
async def test_stage_list_fits_one_message_in_every_language(h, locale):
    calls = await h.command(ALICE, "stage", "list", payload={"locale": locale})
    (text,) = private_answers(calls)
    assert len(text) <= 2000 and ("Spéciales" in text if locale == "fr" else "Strecken" in text)


async def test_stage_list_of_another_game_reads_its_library():
    """A registered game's stages list through `games.get(game).library.stages` (no zones: none shown)."""
    toy = dice_dash()
    games.register(toy)
    try:
        reply = stage_list(toy.id, "en")
        lines = [render(line) for line in reply.lines]
        assert reply.ephemeral and len(lines) == 1 + len(toy.library.stages.names())
        assert lines[1] == "`dash-3` Dash 3 — short, 3 spaces · ★☆☆☆☆"
        assert "zones" not in "\n".join(lines)
    finally:
        games.unregister(toy.id)


async def test_stage_list_refuses_an_unknown_game_naming_the_games(h):
    calls = await h.command(ALICE, "stage", "list", game="chess")
    (text,) = private_answers(calls)
    assert "There is no game called `chess`" in text and "rallyman" in text
    assert channel_posts(calls) == []


async def test_stage_show_gives_the_preview_and_the_facts(h):
    facts = games.get(None).library.stages.facts("fjord-run")
    calls = await h.command(ALICE, "stage", "show", name="fjord-run")
    answer = _answer(calls)
    assert answer.files == ["stage.png"] and answer.data["stage.png"] == PNG
    (text,) = private_answers(calls)
    assert text.startswith(f"**Frostvik Fjord** (`fjord-run`) — medium, {facts.length} spaces")
    assert f"({facts.difficulty}/5)" in text and "Zones: F" in text
    assert f"Corners: {facts.corners} (tight, gear 1–2: {facts.tight})" in text
    assert channel_posts(calls) == []


async def test_stage_show_refuses_an_unknown_stage_naming_the_stages(h):
    calls = await h.command(ALICE, "stage", "show", name="no-such-stage")
    (text,) = private_answers(calls)
    assert "There is no Rallyman stage called `no-such-stage`" in text and "pinewood-sprint" in text
    assert not any(c.files for c in calls) and channel_posts(calls) == []
    assert await h.bot.store.outbox.all() == []  # a refusal saves nothing


async def test_stage_show_refuses_an_unknown_game(h):
    calls = await h.command(ALICE, "stage", "show", name="fjord-run", game="chess")
    (text,) = private_answers(calls)
    assert "There is no game called `chess`" in text and not any(c.files for c in calls)


async def test_stage_name_and_game_autocomplete_through_the_tree(h):
    """`name` is autocompleted among the game's stages, `game` among the registry's games."""
    (call,) = await h.dispatch(command_payload(ALICE, "stage", "show", [option("name", "fjo", focused=True)],
                                               autocomplete=True))
    assert [c["value"] for c in call.body["data"]["choices"]] == ["fjord-run"]
    (call,) = await h.dispatch(command_payload(ALICE, "stage", "list", [option("game", "rally", focused=True)],
                                               autocomplete=True))
    assert [c["value"] for c in call.body["data"]["choices"]] == ["rallyman", "roadrally"]
