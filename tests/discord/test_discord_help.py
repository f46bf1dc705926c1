"""`/help` grouped, one line per command: the help's table names every command of
the live tree once and nothing else; each language's answer fits Discord's embed limits and shows
the command names the reader's Discord shows."""

from __future__ import annotations

import pytest

from bot.client import RallyBot
from bot.cogs.help import help_message
from bot.cogs.tree_info import summary, tree_payload
from bot.i18n import languages, render
from bot.services.help_text import help_groups, help_lines
from tests.discord.fakes import Harness

ALICE = (1001, "Alice")


@pytest.fixture
async def bot():
    b = RallyBot(start_loops=False, sync=False)
    await b._async_setup_hook()
    await b.load_extensions()
    yield b
    await b.close()


async def test_the_help_names_every_command_of_the_tree_once(bot):
    in_tree = sorted(c["name"] for c in summary(tree_payload(bot.tree)))
    in_help = sorted(command for _, commands in help_groups() for command, _ in commands)
    assert in_help == in_tree


@pytest.mark.parametrize("lang", languages())
def test_each_language_fits_discord_and_has_one_line_per_command(lang):
    content, embeds = help_message(lang)
    assert len(content) <= 2000 and len(embeds) == len(help_groups()) <= 10
    assert sum(len(e.title or "") + len(e.description or "") for e in embeds) <= 6000
    for embed, (_, commands) in zip(embeds, help_groups()):
        lines = (embed.description or "").splitlines()
        assert len(lines) == len(commands) and all(line.startswith("`/") and " — " in line for line in lines)
        assert len(embed.description or "") <= 4096


def test_french_and_german_readers_see_their_discord_names():
    _, fr = help_message("fr")
    _, de = help_message("de")
    assert fr[0].description.startswith("`/course créer` — ")
    assert de[0].description.startswith("`/rallye erstellen` — ")


async def test_help_through_the_command_tree_is_private_and_grouped(tmp_path):
    async with Harness(tmp_path / "h.sqlite3") as h:
        (call,) = await h.command(ALICE, "help")
        assert call.body["type"] == 4 and call.ephemeral
        embeds = call.body["data"]["embeds"]
        assert [e["title"] for e in embeds][:2] == ["Set up a rally", "Your turn"]
        assert "`/rally create` — " in embeds[0]["description"]


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_the_help_intro_speaks_of_every_game_and_how_each_is_played(lang):
    intro = render(help_lines()[0], lang)
    for words in ("Rallyman", "DIRT", "Road Rally USA", "game:dirt", "game:roadrally", "/hand", "/play", "/odds"):
        assert words in intro, (lang, words)
