"""The `/driver` career card: drawn from its spec in each language at a phone's width,
not blank, its sparkline only when there is a trend, long words fitted, empty lists said so."""

from __future__ import annotations

from io import BytesIO

import pytest
from PIL import Image

from bot import games
from bot.i18n import t
from bot.render.career import CareerCard, card_image
from bot.render.career.card import ACCENT, HEADER_H, W
from bot.services.career.achievements import shipped
from bot.services.career.careers import card_data
from bot.services.images import PillowRenderer, draw, localized
from bot.store.careers import CareerResult, Earned


def _rows(n: int = 7) -> list[CareerResult]:
    return [CareerResult(i + 1, 1001, "rallyman", 10, "greystone-col" if i % 3 else None, 4,
                         "finished" if i % 4 else "dnf", (i % 4) + 1 if i % 4 else None, 150 + i if i % 4 else None,
                         "s", (i % 4) * 7 if i % 4 else None, False,
                         {"turns": 8, "losses": 1, "gear.4": 5, "top": 0, "stages": 1}, f"2026-11-{10 + i}T10:00:00Z")
            for i in range(n)]


def _spec(trend: list[float], rating: int | None = None, name: str = "Zoë", rows=None, earned=()) -> dict:
    return {"kind": "career", "card": card_data(name, games.get("rallyman"), _rows() if rows is None else rows,
                                                list(earned), shipped(), rating, trend)}


def _image(png: bytes) -> Image.Image:
    return Image.open(BytesIO(png)).convert("RGB")


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_the_card_is_drawn_in_each_language_at_a_phones_width(lang):
    earned = [Earned(a.id, "rallyman", 10, 1, "2026-11-20T10:00:00Z") for a in shipped()[:3]]
    png = draw(PillowRenderer(), _spec([10, 12, 11, 15], 1500, earned=earned), lang)
    image = _image(png)
    assert image.width == W == 1080 and 1100 < image.height < 2200
    assert len(png) < 200 * 1024
    assert len(image.resize((54, 90)).getcolors(maxcolors=5000) or ()) > 20
    card = CareerCard.model_validate(localized(_spec([], None)["card"], lang))
    assert card.labels["stats"] == t("career.head_stats", lang)
    assert card.stats[0][0] == t("career.stat_rallies", lang)


def test_the_sparkline_is_drawn_only_from_a_trend():
    def accent_pixels(trend: list[float]) -> int:
        image = card_image(CareerCard.model_validate(localized(_spec(trend)["card"])))
        header = image.crop((560, 20, W, HEADER_H - 12))
        return sum(n for n, colour in (header.getcolors(maxcolors=100000) or []) if colour == ACCENT)

    assert accent_pixels([]) == 0 and accent_pixels([1500.0]) == 0
    assert accent_pixels([1400.0, 1450.0, 1430.0, 1500.0]) > 300


def test_long_words_are_fitted_and_empty_lists_are_said():
    long_name = "Maximilian-Alexander von Hohenzollern-Sigmaringen"
    card = CareerCard.model_validate(localized(_spec([], name=long_name[:100], rows=[])["card"], "de"))
    assert card.bests == [] and card.recent == [] and card.achievements == []
    image = card_image(card)
    assert image.width == W
    assert card.labels["none_yet"] == t("career.head_none_yet", "de")


def test_a_card_spec_with_something_else_is_refused():
    spec = _spec([])
    spec["card"]["stats"] = [["only a label"]]
    with pytest.raises(ValueError):
        draw(PillowRenderer(), spec)
