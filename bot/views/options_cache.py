"""The turn prompt last posted in each channel, kept in memory for the dice autocomplete.

The outbox sender remembers each turn prompt it delivers (or forgets the channel's when a post
closes the turn); `/roll`'s autocomplete (bot/cogs/autocomplete.py) reads it, so it answers
within Discord's 3 s without a database read.
"""

from __future__ import annotations

from bot.services.reply import TurnPrompt


class OptionsCache:
    """Channel id → the turn prompt last posted there (None: no open turn known)."""

    def __init__(self) -> None:
        self._prompts: dict[int, TurnPrompt | None] = {}

    def remember(self, channel_id: int, prompt: TurnPrompt | None) -> None:
        self._prompts[channel_id] = prompt

    def forget(self, channel_id: int) -> None:
        """Unknown again (the next autocomplete asks the service)."""
        self._prompts.pop(channel_id, None)

    def known(self, channel_id: int) -> bool:
        return channel_id in self._prompts

    def get(self, channel_id: int) -> TurnPrompt | None:
        return self._prompts.get(channel_id)
