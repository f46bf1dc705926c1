"""The console's `--dice` file scripts every draw a DIRT turn makes (RULES B13.3, B13.4: the damage
token a loss of control draws, by name), and a script that runs out is a clear refusal that
changes nothing, never "something went wrong"."""

from __future__ import annotations

import io
from pathlib import Path
from typing import get_args

import pytest

from bot import games
from bot.console import PLACE, Console
from bot.console.dice_script import NAMED_DRAWS, load_dice_script
from bot.console.errors import ConsoleError
from bot.engine.dirt.ruleset import DAMAGE_TOKENS
from bot.engine.rallyman.ruleset import LocEvent
from bot.services import RallyService

DIRT = games.get("dirt")


def _script(tmp_path: Path, text: str) -> dict:
    path = tmp_path / "dice.txt"
    path.write_text(text, encoding="utf-8")
    return load_dice_script(path)


def test_the_dice_file_knows_every_named_draw_of_the_games():
    assert set(NAMED_DRAWS) == set(get_args(LocEvent)) | set(DAMAGE_TOKENS)


def test_B13_4_the_dice_file_names_damage_tokens_and_refuses_an_unknown_word(tmp_path):
    assert _script(tmp_path, ". ! # first turn\nok coast minus_one brake spin\n") == {
        "faces": [False, True], "events": ["ok", "coast", "minus_one", "brake", "spin"]}
    with pytest.raises(ConsoleError) as caught:
        _script(tmp_path, "! flat")
    assert "`flat`" in str(caught.value) and "minus_one" in str(caught.value)


async def _solo(store, script: dict) -> tuple[Console, RallyService, io.StringIO]:
    service = RallyService(store, seed_source=lambda: 5, dice_script=script)
    out = io.StringIO()
    console = Console(service, out=out)
    for line in ("ann: /rally create game:dirt stage:dusty-pines drivers:1", "ann: /rally join",
                 "ann: /rally start"):
        await console.run_line(line)
    return console, service, out


async def _snapshot(store) -> tuple[int, str]:
    rally = await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id)
    return rally.version, rally.snapshot


async def test_B13_3_a_script_without_the_damage_token_is_refused_and_changes_nothing(store, tmp_path):
    console, _, out = await _solo(store, _script(tmp_path, "! ! !"))
    await console.run_line("ann: /roll 1")
    await console.run_line("ann: /roll 2")
    before = await _snapshot(store)
    mark = len(out.getvalue())
    for _ in range(2):  # the third ⚠ loses control and draws a token the script does not hold
        await console.run_line("ann: /roll 3")
    assert await _snapshot(store) == before
    told = out.getvalue()[mark:]
    assert told.count("The dice script has no draw left for this move") == 2
    assert "went wrong" not in told


async def test_B13_3_B13_4_a_scripted_loss_of_control_draws_the_named_token(store, tmp_path):
    console, _, out = await _solo(store, _script(tmp_path, "! ! ! coast"))
    for die in ("1", "2", "3"):
        await console.run_line(f"ann: /roll {die}")
    rally = await store.rallies.get_active_in_channel(PLACE.guild_id, PLACE.channel_id)
    state = DIRT.rules.from_json(rally.snapshot)
    car = next(iter(state.cars.values()))
    assert car.tokens["coast"] == 1 and car.gear == 0 and car.cards == [70]
