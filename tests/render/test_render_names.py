"""Names as the board draws them: an AI driver's 🤖, or any emoji of a Discord
name, is no box on the board and no initial on the car; letters of every language stay."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.engine.rallyman.board import initials
from bot.render.drawing import draw_text, drawable, length
from bot.render.fonts import font


def test_characters_the_font_cannot_draw_are_left_out_and_the_others_kept():
    f = font(28, bold=True)
    assert drawable(f, "🤖 Elsa") == "Elsa"
    assert drawable(f, "Zoë 🏁 Ünal-Weiß") == "Zoë Ünal-Weiß"
    assert drawable(f, "⚠ Œuvre Ł") == "⚠ Œuvre Ł"  # DejaVu draws these
    assert drawable(f, "a\u200db\ufe0f") == "ab"  # joiners and variation selectors never draw
    assert length(f, "🤖 Elsa") == f.getlength("Elsa")


def test_a_name_with_an_emoji_draws_the_same_pixels_as_without_it():
    f = font(28)

    def pixels(text: str) -> bytes:
        img = Image.new("RGB", (300, 60), (255, 255, 255))
        draw_text(ImageDraw.Draw(img), (10, 10), text, f, (0, 0, 0), cache=False)
        return img.tobytes()

    assert pixels("🤖 Elsa") == pixels("Elsa") != pixels("Else")


def test_initials_are_letters_and_digits_only():
    assert initials("🤖 Elsa") == "EL"
    assert initials("🏎️ Jean-Luc") == "JL"
    assert initials("🤖") == "?"
    assert initials("bob 2") == "B2"
