"""Why a car loses control (RULES A11.1), as the `loss_of_control` and `sisu` events name it, and
the words each cause is announced with.

- `overspeed`: 1 or 2 gears too fast into a corner (A8.6);
- `bump`: a bump taken 2 gears too fast, or 1 with a ⚠ (A10);
- `hazards`: the turn's ⚠ reach the limit (3, `hazard_limit`);
- `snow_hazards`: with asphalt tires, the ⚠ of dice that moved the car into snow spaces reach the
  snow limit (2, `snow_hazard_limit`; A20.3, AMB-8);
- `snow_turn_hazards`: the same with the option `snow_threshold_scope: turn`, where every ⚠ of the
  turn counts once the car has taken one on snow (AMB-8).

Each cause has its own words (two ⚠ on snow were announced as "three ⚠"); the ⚠ counts
in them are the ruleset's limits, given with the event (`limit`).
"""

from __future__ import annotations

from typing import Literal, get_args

from bot.engine.core.text import msg

LossCause = Literal["overspeed", "bump", "hazards", "snow_hazards", "snow_turn_hazards"]
LOSS_CAUSES: tuple[LossCause, ...] = get_args(LossCause)

#: Each cause's words in the catalogue; those of ⚠ take the count reached (`n`).
LOSS_CAUSE_WORDS: dict[str, str] = {
    "overspeed": "word.overspeed",
    "bump": "word.bump",
    "hazards": "word.cause_hazards",
    "snow_hazards": "word.cause_snow_hazards",
    "snow_turn_hazards": "word.cause_snow_turn_hazards",
}


def loss_cause_word(cause: str, limit: int | None) -> str:
    """The words of a loss of control's cause; `limit` is the ⚠ count that triggered it, if any."""
    key = LOSS_CAUSE_WORDS[cause]
    return msg(key, n=limit) if limit is not None else msg(key)
