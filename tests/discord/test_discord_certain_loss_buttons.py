"""A move certain to lose control says so on its button (the game's `Prompt.certain_loss`), and
the mark survives the outbox row the turn post is delivered from."""

from __future__ import annotations

import discord

from bot import games
from bot.services.delivery import _prompt
from bot.services.reply import TurnPrompt
from bot.services.work import Post
from bot.views.turn_buttons import TurnButton, turn_view


def test_a_certain_loss_button_is_red_and_says_it_loses_control_in_the_readers_language():
    dirt = games.get("dirt")
    view = turn_view(1, 7, ("4 left", "4 right", "stop"), "fr", button=TurnButton, game=dirt,
                     certain_loss=("4 left",))
    buttons = {item.item.custom_id: item.item for item in view.children if isinstance(item, TurnButton)}
    doomed, safe = buttons["rally:1:7:4 left"], buttons["rally:1:7:4 right"]
    assert doomed.label is not None and doomed.label.startswith("⚠") and "perte de contrôle" in doomed.label
    assert doomed.style is discord.ButtonStyle.danger
    assert safe.label is not None and "⚠" not in safe.label and safe.style is discord.ButtonStyle.primary


def test_the_mark_goes_through_the_outbox_row_and_an_older_row_has_none():
    turn = TurnPrompt(1, 7, 42, ("4 left", "4 right"), "dirt", ("4 left",))
    body = Post(["x"], turn=turn).body()
    assert _prompt(body) == turn
    del body["turn"]["certain_loss"]
    assert _prompt(body) == TurnPrompt(1, 7, 42, ("4 left", "4 right"), "dirt")
