"""The turn prompt last posted in each channel, kept in memory for the dice autocomplete.

The outbox sender remembers each turn prompt it delivers (or forgets the channel's when a post
closes the turn); `/roll`'s autocomplete (bot/cogs/autocomplete.py) reads it, so it answers
within Discord's 3 s without a database read. It keeps the last `CHANNELS` channels (never
more, however many channels play); a channel forgotten is unknown, and its autocomplete
asks the service, as after a restart.
"""

from __future__ import annotations

from collections import OrderedDict

from bot.services.reply import TurnPrompt

CHANNELS = 4096  # channels whose prompt is kept (a prompt is a few hundred bytes to a few KB)


class OptionsCache:
    """Channel id → the turn prompt last posted there (None: no open turn known)."""

    def __init__(self, size: int = CHANNELS) -> None:
        self.size = size
        self._prompts: OrderedDict[int, TurnPrompt | None] = OrderedDict()

    def remember(self, channel_id: int, prompt: TurnPrompt | None) -> None:
        self._prompts[channel_id] = prompt
        self._prompts.move_to_end(channel_id)
        while len(self._prompts) > self.size:
            self._prompts.popitem(last=False)

    def __len__(self) -> int:
        return len(self._prompts)

    def forget(self, channel_id: int) -> None:
        """Unknown again (the next autocomplete asks the service)."""
        self._prompts.pop(channel_id, None)

    def known(self, channel_id: int) -> bool:
        return channel_id in self._prompts

    def get(self, channel_id: int) -> TurnPrompt | None:
        return self._prompts.get(channel_id)
