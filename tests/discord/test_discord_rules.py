"""`/rules [game] [ruleset]` through the real command tree with the fakes: the
game's rules summary privately, in the reader's language; an unknown game or ruleset refused by
name; a text longer than a Discord message sent as several, none over 2,000 characters. The
console answers the same command from the same service."""

from __future__ import annotations

import io

import pytest

from bot import games
from bot.console import Console
from bot.engine.core.text import msg
from bot.services import RallyService
from bot.services.rules import rules_reply
from bot.views.outgoing import MAX_CONTENT
from tests.discord.fakes import Harness, private_answers
from tests.toy_game.conftest import toy  # noqa: F401  (the toy game, registered for these tests)
from tests.toy_game.game import DashLibrary, DashRules, dice_dash

ALICE = (1001, "Alice")


class VerboseRules(DashRules):
    id = "verbose"


class VerboseLibrary(DashLibrary):
    """A game whose rules run far past one message."""

    texts = None

    def summary(self, ruleset: str) -> list[str]:
        return [msg("toy.rules", ruleset=f"{ruleset}-{i}") for i in range(40)]


async def test_classic_rules_name_its_rulesets_modules_and_sources_privately(tmp_path):
    async with Harness(tmp_path / "h.sqlite3") as h:
        (answer,) = private_answers(await h.command(ALICE, "rules"))
        assert answer.startswith("**Rallyman** (classic, 5 gears), ruleset `classic`.")
        assert "`classic-consecutive`" in answer and "time attack (rulebook ART.13)" in answer
        assert "Where the rules come from" in answer and "provisional rules" not in answer
        (fr,) = private_answers(await h.command(ALICE, "rules", payload={"locale": "fr"},
                                                ruleset="classic-sisu"))
        assert fr.startswith("**Rallyman** (classique, 5 vitesses), règles `classic-sisu`.")
        assert "grosse attaque (règlement ART.14)" in fr


async def test_the_toy_s_rules_are_its_one_line_and_a_provisional_ruleset_says_so(tmp_path, toy):  # noqa: F811
    async with Harness(tmp_path / "h.sqlite3") as h:
        (plain,) = private_answers(await h.command(ALICE, "rules", game="dicedash", ruleset="classic"))
        assert plain.startswith("Dice Dash (ruleset `classic`): roll a die") and "provisional" not in plain
        (default,) = private_answers(await h.command(ALICE, "rules", game="dicedash"))
        assert "ruleset `provisional`" in default and default.endswith("provisional rules")
        (de,) = private_answers(await h.command(ALICE, "rules", game="dicedash", payload={"locale": "de"}))
        assert de.endswith("vorläufige Regeln")


async def test_an_unknown_game_or_ruleset_is_refused_by_name(tmp_path, toy):  # noqa: F811
    async with Harness(tmp_path / "h.sqlite3") as h:
        (game,) = private_answers(await h.command(ALICE, "rules", game="chess"))
        assert "There is no game called `chess`. Games: rallyman, dirt, roadrally, dicedash." in game
        (ruleset,) = private_answers(await h.command(ALICE, "rules", game="dicedash", ruleset="house"))
        assert ruleset == "Dice Dash has no ruleset called `house`. Rulesets: `provisional`, `classic`."
        (classic,) = private_answers(await h.command(ALICE, "rules", ruleset="../../etc"))
        assert "Rallyman has no ruleset called `../../etc`" in classic


async def test_a_long_summary_comes_in_several_messages_each_within_discord_s_limit(tmp_path, toy):  # noqa: F811
    games.register(dice_dash(rules=VerboseRules(), library=VerboseLibrary()))
    try:
        async with Harness(tmp_path / "h.sqlite3") as h:
            answers = private_answers(await h.command(ALICE, "rules", game="verbose"))
    finally:
        games.unregister("verbose")
    assert len(answers) >= 2 and all(len(a) <= MAX_CONTENT for a in answers)
    text = "\n".join(answers)
    assert all(f"ruleset `provisional-{i}`" in text for i in range(40))  # nothing lost in the cut


@pytest.mark.parametrize("typed, expected", [
    ("ann: /rules", "[only ann] Rallyman (classic, 5 gears)"),
    ("ann: /rules game:dicedash", "[only ann] Dice Dash (ruleset `provisional`)"),
    ("ann: /rules dicedash ruleset:classic", "[only ann] Dice Dash (ruleset `classic`)"),
    ("ann: /rules game:chess", "[only ann] There is no game called `chess`."),
])
async def test_the_console_answers_rules_from_the_same_service(store, toy, typed, expected):  # noqa: F811
    out = io.StringIO()
    await Console(RallyService(store), out=out).run_line(typed)
    assert out.getvalue().startswith(expected), out.getvalue()


def test_the_service_refuses_before_it_reads_anything(toy):  # noqa: F811
    from bot.engine.core.errors import RallyError

    with pytest.raises(RallyError):
        rules_reply("dicedash", "nope")
    assert rules_reply("dicedash").ephemeral
