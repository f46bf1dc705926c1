"""Names with accents render in the shipped font, and times read m:ss."""

from __future__ import annotations

from bot.render.fonts import BOLD, FONT_DIR, REGULAR, fit_text, font
from bot.render.formats import gap, mmss

UNKNOWN = "\U000f0000"  # a private-use code point no font here draws: shows the "tofu" box


def test_fonts_and_licence_are_shipped():
    assert REGULAR.exists() and BOLD.exists()
    licence = (FONT_DIR / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    assert "Bitstream" in licence and "Permission is hereby granted" in licence


def test_accented_names_are_real_glyphs_not_tofu():
    for bold in (False, True):
        f = font(26, bold)
        tofu = bytes(f.getmask(UNKNOWN))
        assert f.getlength("Ødegaard") > 0
        for ch in "ØéüßçñåłŠ":
            assert bytes(f.getmask(ch)) != tofu, f"{ch!r} renders as an unknown glyph"
        assert bytes(f.getmask("⚠")) != tofu


def test_long_names_are_shortened_with_an_ellipsis():
    f = font(26, True)
    text = fit_text("Sébastien Jean-Baptiste de la Tour d'Auvergne", f, 200)
    assert text.endswith("…") and f.getlength(text) <= 200


def test_times_and_gaps():
    assert mmss(220) == "3:40"
    assert mmss(5) == "0:05"
    assert mmss(3725) == "62:05"
    assert gap(20) == "+0:20"
    assert gap(0) == "—"
