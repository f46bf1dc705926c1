"""What a console reader sees: each line printed with who sees it (`[channel]`, `[only alice]`,
`[#run-alice-r1]`), in its reader's language, with Discord mentions written as a terminal shows them."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol, TextIO

from bot.i18n import render, t

_USER_MENTION = re.compile(r"<@!?(\d{1,20})>")
_CHANNEL_MENTION = re.compile(r"<#(\d{1,20})>")
_ROLE_MENTION = re.compile(r"<@&(\d{1,20})>")


class Say(Protocol):
    """How the console's parts print: `Console._print` (one door, so a test can read every line)."""

    def __call__(self, name: str | None, lines: Iterable[str], ephemeral: bool, prefix: str | None = None,
                 lang: str | None = None) -> None: ...


class Printer:
    """Prints lines for their readers. `names` (user id → console name) and `channels` (channel id →
    its label, "" for the main channel) are shared with the parts that learn them."""

    def __init__(self, out: TextIO | None, lang: str, channels: dict[int, str]) -> None:
        self.out = out
        self.lang = lang  # the server's language
        self.readers: dict[str, str] = {}  # console user → their own language (`alice@fr: …`)
        self.names: dict[int, str] = {}
        self.channels = channels
        self.header: str | None = None  # printed before the next line (the time jobs ran at)

    def mentions(self, text: str) -> str:
        """Discord mentions as a terminal shows them: `@alice`, `#run-alice-r1`, `@role-987654321987654321`."""
        def user(match: re.Match[str]) -> str:
            name = self.names.get(int(match.group(1)))
            return f"@{name}" if name else match.group(0)

        def channel(match: re.Match[str]) -> str:
            label = self.channels.get(int(match.group(1)))
            return f"#{label or 'channel'}" if label is not None else match.group(0)

        text = _USER_MENTION.sub(user, text)
        text = _CHANNEL_MENTION.sub(channel, text)
        return _ROLE_MENTION.sub(lambda m: f"@role-{m.group(1)}", text)

    def print(self, name: str | None, lines: Iterable[str], ephemeral: bool, prefix: str | None = None,
              lang: str | None = None) -> None:
        """Print lines (messages) for their readers: a private answer in its reader's language, a
        post in `lang` (the rally's or the league's)."""
        if self.out is None:
            return
        if lang is None:
            lang = self.readers.get(name.lower(), self.lang) if ephemeral and name else self.lang
        if prefix is None:
            prefix = t("console.prefix_only", lang, name=name) if ephemeral and name \
                else t("console.prefix_channel", lang) if not ephemeral else t("console.prefix_you", lang)
        for line in lines:
            if self.header is not None:
                print(self.header, file=self.out)
                self.header = None
            for part in self.mentions(render(line, lang)).split("\n"):
                print(f"{prefix} {part.replace('**', '')}", file=self.out)
        self.out.flush()
