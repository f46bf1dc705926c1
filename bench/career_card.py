"""`bench render`'s career card figures: the `/driver` card drawn warm, as a render worker
draws it from its spec (`images.draw`: the texts put in the reader's language, the card model
checked, the picture drawn and its palette PNG encoded), against the plain palette PNG encode of
the same frame, the same-run baseline; medians over RUNS cards, each a little different (another
rating, a new point on the trend, another last time: the text caches help only as they would).

- card_ms: the whole drawing of a spec to PNG bytes (warm: fonts and text masks kept);
- card_encode_ms: the palette PNG encode of that same frame alone;
- card_over_encode: card_ms / card_encode_ms (goal ≤ 1.3);
- card_kib, card_width, card_height: the PNG and its size.
"""

from __future__ import annotations

import io
import statistics
import time
from typing import Any

from bot import games
from bot.render.career import CareerCard, card_image
from bot.render.encode import quantize
from bot.render.options import DEFAULT_OPTIONS
from bot.services.career.achievements import shipped
from bot.services.career.careers import card_data
from bot.services.images import PillowRenderer, draw, localized
from bot.store.careers import CareerResult, Earned

RUNS = 30
STAGES = ("pinewood-sprint", "greystone-col", "frozen-lakes", "black-moor")


def _spec(i: int) -> dict[str, Any]:
    """A driver's card after 12 rallies of classic, the `i`-th variant."""
    rows = [CareerResult(n + 1, 1001, "rallyman", 10, STAGES[n % 4] if n % 5 else None, 4,
                         "finished" if n % 6 else "dnf", (n % 4) + 1 if n % 6 else None,
                         120 + 7 * n + (i if n == 11 else 0) if n % 6 else None, "s",
                         (n % 4) * 9 if n % 6 else None, False,
                         {"turns": 6, "losses": n % 2, "gear.5": 3, "gear.4": 2, "top": 3, "stages": 1},
                         f"2026-11-{10 + n}T10:00:00Z") for n in range(12)]
    earned = [Earned(a.id, "rallyman", 10, 1, "2026-11-20T10:00:00Z") for a in shipped()[:9]]
    trend = [20.0 + (k % 5) + k / 3 for k in range(10 + i)]
    return {"kind": "career", "card": card_data("Zoë Müller", games.get("rallyman"), rows, earned, shipped(),
                                                1200 + i, trend)}


def run(runs: int = RUNS) -> dict[str, Any]:
    renderer = PillowRenderer()
    specs = [_spec(i) for i in range(runs + 2)]
    for spec in specs[:2]:  # warm: fonts loaded, the card's texts seen
        draw(renderer, spec)
    whole, encode, sizes = [], [], []
    image = None
    for spec in specs[2:]:
        t0 = time.perf_counter()
        png = draw(renderer, spec)
        whole.append((time.perf_counter() - t0) * 1000)
        sizes.append(len(png))
        image = card_image(CareerCard.model_validate(localized(spec["card"])), DEFAULT_OPTIONS)
        t1 = time.perf_counter()
        buf = io.BytesIO()
        quantize(image).save(buf, format="PNG", compress_level=DEFAULT_OPTIONS.compress_level)
        encode.append((time.perf_counter() - t1) * 1000)
    assert image is not None
    c, e = statistics.median(whole), statistics.median(encode)
    return {"card_ms": round(c, 2), "card_encode_ms": round(e, 2), "card_over_encode": round(c / e, 3),
            "card_kib": round(statistics.median(sizes) / 1024, 1), "card_width": image.width,
            "card_height": image.height}


if __name__ == "__main__":
    import json

    print(json.dumps(run()))
