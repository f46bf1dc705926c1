"""The few words the images print, in one table (English).

They belong in the message catalogue (`data/i18n/en/render.json`) once render's keys are added
there; kept here meanwhile so every word the renderer prints is in one place.
"""

from __future__ import annotations

LABELS: dict[str, str] = {
    "round": "Round {n}",
    "driver": "Driver",
    "gear": "Gear",
    "time": "Time",
    "damage": "Damage",
    "spare": "Spare",
    "seconds": "Sec",
    "dnf": "DNF",
    "finished": "FIN",
    "last_turn": "Last turn",
    "results": "Results",
    "gap": "Gap",
    "classified": "{n} classified",
}
#: (singular, plural) of the stage figures shown on the preview
LABELS_COUNTED = {
    "fact_spaces": ("space", "spaces"),
    "fact_corners": ("corner", "corners"),
    "fact_bumps": ("bump", "bumps"),
    "fact_shortcuts": ("shortcut", "shortcuts"),
    "fact_splits": ("split", "splits"),
}
