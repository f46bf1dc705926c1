"""The `/driver` career card: `render_career(card, options)` → PNG bytes, pure Pillow."""

from bot.render.career.card import CareerCard, card_image, render_career

__all__ = ["CareerCard", "card_image", "render_career"]
