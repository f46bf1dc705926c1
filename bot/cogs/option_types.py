"""Slash-command option types that several commands share.

Discord carries integers as JavaScript numbers: an integer option's `min_value`/`max_value` must
lie within ±(2**53 − 1), and one bound beyond refuses the whole command sync (400, code 50035).
A rally's number is typed by users (`/rally results rally:`, `/replay rally:`), so its range
stops at the largest integer Discord accepts; the services still check that the rally exists.
"""

from __future__ import annotations

from discord import app_commands

LARGEST_TYPED_ID = 2**53 - 1  # the largest integer a user can type into an integer option

RallyNumber = app_commands.Range[int, 1, LARGEST_TYPED_ID]
