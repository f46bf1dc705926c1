"""The words the images print, from the message catalogue (`data/i18n/en/render.json`).

Read once at import into the shapes the drawing code uses: `LABELS[key]` (a text, maybe with a
`{n}` placeholder) and `LABELS_COUNTED[key]` = (singular, plural).
"""

from __future__ import annotations

from bot.i18n import catalogue

_KEYS = ("round", "driver", "gear", "time", "damage", "spare", "seconds", "dnf", "finished", "last_turn",
         "results", "gap", "classified", "total")
_COUNTED = ("fact_spaces", "fact_corners", "fact_bumps", "fact_shortcuts", "fact_splits")

_messages = catalogue()
LABELS: dict[str, str] = {key: _messages[f"render.{key}"] for key in _KEYS}
#: (singular, plural) of the stage figures shown on the preview
LABELS_COUNTED: dict[str, tuple[str, str]] = {
    key: (_messages[f"render.{key}.one"], _messages[f"render.{key}.other"]) for key in _COUNTED
}
