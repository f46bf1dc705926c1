"""The splitter every message goes through (bot/views/outgoing.py): nothing lost, nothing over
Discord's limit, cuts between lines, and component texts clamped."""

from __future__ import annotations

import io

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.core.game import Button
from bot.views import hand_menu, turn_buttons
from bot.views.outgoing import (
    EMPTY,
    MAX_BUTTON_LABEL,
    MAX_CONTENT,
    MAX_CUSTOM_ID,
    MAX_EMBEDS,
    MAX_EMBEDS_TOTAL,
    MAX_NONCE,
    MAX_OPTION_TEXT,
    MAX_PLACEHOLDER,
    answer_privately,
    custom_id_fits,
    embed_batches,
    label,
    nonce,
    option_text,
    ping_part,
    placeholder,
    split_text,
)


def rebuilt(text: str, parts: list[str]) -> None:
    """Walk `text` through `parts`: each part is the text's next characters, only whitespace
    between two parts (the line break or the space of the cut, blank lines or blanks dropped at a
    break) and after the last. Fails on anything lost, changed or moved."""
    at = 0
    for i, part in enumerate(parts):
        while at < len(text) and text[at].isspace() and not text.startswith(part, at):
            at += 1
        assert text.startswith(part, at), (i, part[:40], text[at:at + 40])
        at += len(part)
    assert text[at:].strip() == "", f"lost at the end: {text[at:at + 40]!r}"


lines = st.text(alphabet=st.sampled_from("ab é★ \n"), max_size=60)


@settings(max_examples=200, deadline=None)
@given(text=st.lists(lines, max_size=30).map("\n".join), limit=st.integers(min_value=1, max_value=80))
def test_split_keeps_every_character_in_order_and_every_part_fits(text, limit):
    parts = split_text(text, limit)
    assert parts and all(0 < len(p) <= limit for p in parts) and all(p.strip() for p in parts)
    if not text.strip():
        assert parts == [EMPTY]
    else:
        rebuilt(text, parts)


@settings(max_examples=200, deadline=None)
@given(words=st.lists(st.text(alphabet="abcdé★", min_size=1, max_size=30), min_size=1, max_size=40),
       limit=st.integers(min_value=30, max_value=200))
def test_lines_that_fit_are_never_cut_and_joined_parts_are_the_text(words, limit):
    text = "\n".join(words)  # every line fits a message, no blank line
    parts = split_text(text, limit)
    assert "\n".join(parts) == text
    assert all(set(p.split("\n")) <= set(words) for p in parts)  # whole lines only
    for before, after in zip(parts, parts[1:]):  # as full as they can be: the next line did not fit
        assert len(before) + 1 + len(after.split("\n")[0]) > limit


def test_a_long_line_is_cut_at_a_word_and_a_longer_word_where_it_must():
    assert split_text("aaa bbb ccc", 7) == ["aaa bbb", "ccc"]
    assert split_text("x" * 25, 10) == ["x" * 10, "x" * 10, "x" * 5]
    assert split_text("one\n\n\ntwo", 4) == ["one", "two"]  # the blank lines at a break
    assert split_text("one\n\ntwo", 20) == ["one\n\ntwo"]  # kept inside a message
    assert split_text("") == [EMPTY] and split_text("\n \n") == [EMPTY]


@pytest.mark.parametrize("lang_line", ["Manche 12 : Forêt d'Ardenne, Col de Turini, Épreuve spéciale ★★★☆☆",
                                       "Runde 12: Schwarzwald-Prüfung, Großglockner · Wertungsprüfung",
                                       "Round 12: Pinewood Sprint, Black Moor, Fjord Run (power stage)"])
def test_a_long_listing_splits_into_messages_under_the_limit_in_every_language(lang_line):
    text = "\n".join(f"{i}. {lang_line}" for i in range(200))
    parts = split_text(text)
    assert len(parts) > 1 and all(len(p) <= MAX_CONTENT for p in parts)
    assert "\n".join(parts) == text


def test_component_texts_are_clamped_to_discords_limits():
    long = "mot " * 100
    assert len(label(long)) <= MAX_BUTTON_LABEL and label(long).endswith("…") and label("Stop") == "Stop"
    assert len(option_text(long)) <= MAX_OPTION_TEXT and len(placeholder(long)) <= MAX_PLACEHOLDER
    assert custom_id_fits("rally:1:2:4 skid") and not custom_id_fits("x" * (MAX_CUSTOM_ID + 1))
    assert not custom_id_fits("")


def test_nonces_are_unique_per_part_and_within_25_characters():
    key = f"rb{2**63 - 1}"  # the largest row id
    seen = [nonce(key, i) for i in range(100)]
    assert seen[0] == key and len(set(seen)) == 100 and all(len(n) <= MAX_NONCE for n in seen)
    with pytest.raises(ValueError):
        nonce(key, 1000)


def test_only_the_last_part_naming_the_pinged_driver_may_notify():
    assert ping_part(["the standings", "your turn <@7>"], (7,)) == 1
    assert ping_part(["penalty by <@7>", "more", "your turn <@7>"], (7,)) == 2  # notified once
    assert ping_part(["results", "by <@8>"], (7,)) is None and ping_part(["a <@7>"], ()) is None


def test_embeds_go_in_batches_within_count_and_total():
    big = [discord.Embed(title=f"group {i}", description="d" * 1500) for i in range(12)]
    batches = embed_batches(big)
    assert [e for b in batches for e in b] == big
    assert all(len(b) <= MAX_EMBEDS and sum(len(e.title or "") + len(e.description or "") for e in b)
               <= MAX_EMBEDS_TOTAL for b in batches)
    assert len(batches) == 4  # 3 of 1,507 characters fit 6,000, a 4th does not
    with pytest.raises(ValueError):
        embed_batches([discord.Embed(description="d" * 5000)])


class FakeInteraction:
    """What `answer_privately` uses of an interaction, recording each call."""

    def __init__(self, *, done: bool, component: bool = False) -> None:
        self.calls: list[tuple[str, str | None, dict]] = []
        self.type = discord.InteractionType.component if component else discord.InteractionType.application_command
        self.response = self
        self.followup = self
        self._done = done

    def is_done(self) -> bool:
        return self._done

    async def send_message(self, content=None, **kwargs) -> None:
        self._done = True
        self.calls.append(("response", content, kwargs))

    async def edit_original_response(self, *, content=None, **kwargs) -> None:
        self.calls.append(("edit", content, kwargs))

    async def send(self, content=None, **kwargs) -> None:
        self.calls.append(("followup", content, kwargs))


LONG = "\n".join(f"Manche {i} — " + "é" * 150 for i in range(40))


@pytest.mark.parametrize("done, component, first", [(True, False, "edit"), (False, False, "response"),
                                                    (True, True, "followup")])
async def test_a_long_private_answer_goes_in_order_with_its_menu_and_files_on_the_last(done, component, first):
    interaction = FakeInteraction(done=done, component=component)
    view, files = discord.ui.View(), [discord.File(io.BytesIO(b"x"), filename="a.csv")]
    await answer_privately(interaction, LONG, view=view, files=files)  # type: ignore[arg-type]
    kinds = [kind for kind, _, _ in interaction.calls]
    assert kinds[0] == first and set(kinds[1:]) == {"followup"} and len(kinds) > 1
    assert "\n".join(content or "" for _, content, _ in interaction.calls) == LONG
    assert all(kwargs.get("ephemeral") for kind, _, kwargs in interaction.calls if kind != "edit")
    *before, (_, _, last) = interaction.calls
    assert last["view"] is view and last["files"] == files
    assert not any("view" in kwargs or "files" in kwargs or "attachments" in kwargs for _, _, kwargs in before)


async def test_a_short_private_answer_is_one_edit_carrying_its_files_as_attachments():
    interaction = FakeInteraction(done=True)
    files = [discord.File(io.BytesIO(b"x"), filename="a.csv")]
    await answer_privately(interaction, "Export", files=files)  # type: ignore[arg-type]
    assert interaction.calls == [("edit", "Export", {"attachments": files})]
    interaction = FakeInteraction(done=True)
    await answer_privately(interaction, "", followup=True)  # type: ignore[arg-type]
    assert interaction.calls == [("followup", EMPTY, {"ephemeral": True})]


class WordyCommands:
    """Buttons whose words are longer than Discord takes (the clamps are the views')."""

    def button(self, action: str) -> Button:
        return Button("très long libellé " * 10, "primary")


class WordyGame:
    """A game with such buttons."""

    commands = WordyCommands()


def test_turn_buttons_and_hand_menu_fit_discords_component_limits(monkeypatch):
    game = WordyGame()
    too_long = "a" * (MAX_CUSTOM_ID - len("rally:9223372036854775807:99999:") + 1)
    view = turn_buttons.turn_view(2**63 - 1, 99999, ["go", too_long], "fr", button=turn_buttons.TurnButton,
                                  game=game)  # type: ignore[arg-type]
    (dynamic,) = view.children
    item = dynamic.item  # type: ignore[attr-defined]
    assert isinstance(item, discord.ui.Button) and item.custom_id == "rally:9223372036854775807:99999:go"
    assert item.label is not None and len(item.label) <= MAX_BUTTON_LABEL and item.label.startswith("très long")
    monkeypatch.setattr(hand_menu.games, "get", lambda game_id: game)
    options = hand_menu.menu_options([f"play g{i}" for i in range(40)], "fr", None)
    assert len(options) == 25 and all(len(o.label) <= MAX_OPTION_TEXT for o in options)
