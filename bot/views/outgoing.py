"""What the bot sends Discord: Discord's documented limits, and the one way every message goes.

Discord refuses (400) a message over its limits, and the organiser sees nothing: a deferred
"thinking…" answer that never resolves, an announcement never posted. So every reply, post,
follow-up and edit of the bot goes through this module, which holds the limits
(https://discord.com/developers/docs/resources/message, .../interactions/message-components)
and shapes what is sent to fit them:

- text longer than one message is split into several (`split_text`): between lines, a single
  over-long line at a word boundary (a word longer than a message, cut where it must); nothing
  is cut off with "…", nothing is lost, the order is kept;
- a private answer (`answer_privately`): the first part is the interaction's answer (the first
  response, or the edit of the deferred "thinking…"), the others ephemeral follow-ups in order;
- a channel post (`post_parts`): the parts in order, each with its own nonce;
- in both, the menu or buttons and the files go with the LAST part: a select menu or turn buttons
  sit under the whole text they act on, as a file sits under the text that introduces it; the
  last part is also the message a channel post records (its turn buttons are taken off later)
  and the one its picture is added to by an edit;
- components are clamped here too (`label`, `custom_id_fits`, `option_text`, `placeholder`), and
  an attachment's alt text (`alt_text`);
- the edits of a delivered message: its attachments (a picture added, `edit_attachments`), its
  buttons taken off (`take_buttons_off`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

#: A message's text (`content`).
MAX_CONTENT = 2000
#: Embeds: all their text together, how many a message carries, fields in one, a description.
MAX_EMBEDS_TOTAL = 6000
MAX_EMBEDS = 10
MAX_EMBED_FIELDS = 25
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_TITLE = 256
#: Components: action rows in a message, buttons in a row (so 25 buttons a message).
MAX_ROWS = 5
MAX_ROW_BUTTONS = 5
MAX_BUTTONS = MAX_ROWS * MAX_ROW_BUTTONS
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
#: A select menu: its options, an option's label / value / description, its placeholder.
MAX_SELECT_OPTIONS = 25
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
#: Attachments: a file's description (alt text), files in a message, a file's size.
MAX_ATTACHMENT_DESCRIPTION = 1024
MAX_FILES = 10
MAX_FILE_DEFAULT = 10 * 1024 * 1024  # what Discord documents for a server without boosts
MAX_FILE_ASSUMED = 8 * 1024 * 1024  # what the bot keeps to (every server has accepted it for years)
#: A message nonce (the outbox's "post once" key).
MAX_NONCE = 25
#: What Discord shows for an empty text (an empty message is refused).
EMPTY = "\u200b"


def split_text(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """`text` as messages of at most `limit` characters, at least one, none blank.

    Cut between lines, as many whole lines to a message as fit; a line longer than a message is
    cut at its last space that fits (the space itself becomes the break), a word longer than a
    message where it must. Blank lines at a break are dropped (the break shows the same), and a
    blank text is `EMPTY`."""
    parts: list[str] = []
    current: list[str] = []
    size = -1  # the length of "\n".join(current)
    for line in text.split("\n"):
        for piece in _line_pieces(line, limit):
            if size + 1 + len(piece) > limit:
                parts.append("\n".join(current))
                current, size = [], -1
            if current or piece.strip():  # no blank line opens a message
                current.append(piece)
                size += 1 + len(piece)
    parts.append("\n".join(current))
    return [part.strip("\n") for part in parts if part.strip()] or [EMPTY]


def _line_pieces(line: str, limit: int) -> list[str]:
    """One line as pieces of at most `limit` characters, cut at spaces where it can."""
    pieces: list[str] = []
    while len(line) > limit:
        cut = line.rfind(" ", 1, limit + 1)
        if cut <= 0:
            pieces.append(line[:limit])
            line = line[limit:]
        else:
            pieces.append(line[:cut])
            line = line[cut + 1:]
    pieces.append(line)
    return pieces


def embed_size(embed: discord.Embed) -> int:
    """The characters of an embed that count toward Discord's 6,000 a message: title,
    description, fields' names and values, footer, author."""
    return len(embed.title or "") + len(embed.description or "") + len(embed.footer.text or "") \
        + len(embed.author.name or "") + sum(len(f.name or "") + len(f.value or "") for f in embed.fields)


def embed_batches(embeds: Sequence[discord.Embed]) -> list[list[discord.Embed]]:
    """`embeds` in order, as few messages' worth as Discord takes (at most 10 a message, 6,000
    characters in all); an embed over the limits on its own is a caller's error."""
    batches: list[list[discord.Embed]] = []
    size = 0
    for embed in embeds:
        n = embed_size(embed)
        if n > MAX_EMBEDS_TOTAL or len(embed.description or "") > MAX_EMBED_DESCRIPTION \
                or len(embed.fields) > MAX_EMBED_FIELDS or len(embed.title or "") > MAX_EMBED_TITLE:
            raise ValueError(f"an embed over Discord's limits ({n} characters, {len(embed.fields)} fields)")
        if not batches or len(batches[-1]) == MAX_EMBEDS or size + n > MAX_EMBEDS_TOTAL:
            batches.append([])
            size = 0
        batches[-1].append(embed)
        size += n
    return batches


def label(text: str, limit: int = MAX_BUTTON_LABEL) -> str:
    """A button label (or any short component text) within its limit, cut at a word if it must."""
    return text if len(text) <= limit else _line_pieces(text, limit - 1)[0] + "…"


def option_text(text: str) -> str:
    """A select option's label or description within Discord's 100 characters."""
    return label(text, MAX_OPTION_TEXT)


def placeholder(text: str) -> str:
    """A select menu's placeholder within Discord's 150 characters."""
    return label(text, MAX_PLACEHOLDER)


def alt_text(text: str) -> str:
    """An attachment's description (its alt text) within Discord's 1,024 characters."""
    return label(text, MAX_ATTACHMENT_DESCRIPTION)


def custom_id_fits(custom_id: str) -> bool:
    """Whether a component's custom_id is one Discord takes (1 to 100 characters): a custom_id
    carries what a click means, so one that does not fit is left out, never cut."""
    return 0 < len(custom_id) <= MAX_CUSTOM_ID


def nonce(stem: str, part: int) -> str:
    """The nonce of part `part` of the post whose nonces start with `stem` (`rb<row id>`): the stem
    itself for the first part (what a one-message post has always carried), `stem.N` for the
    others; unique per part, so each part is posted once however often the post is sent again."""
    value = stem if part == 0 else f"{stem}.{part}"
    if len(value) > MAX_NONCE:
        raise ValueError(f"nonce {value!r} is longer than Discord's {MAX_NONCE} characters")
    return value


def ping_part(parts: Sequence[str], ping: Sequence[int]) -> int | None:
    """The part whose mentions may notify: the last one naming a pinged user (the ping is the
    post's last line); none may in the others, so a user named earlier too is notified once."""
    holding = [i for i, part in enumerate(parts) if any(f"<@{user}>" in part for user in ping)]
    return holding[-1] if holding else None


async def answer_privately(interaction: discord.Interaction, text: str, *, view: discord.ui.View | None = None,
                           files: Sequence[discord.File] = (), embeds: Sequence[discord.Embed] = (),
                           followup: bool = False) -> None:
    """Only the user sees it, in as many messages as it takes: the first is the first response,
    or the edit of a deferred slash command's "thinking…", or (after a deferred click, or with
    `followup`: the answer itself could not be edited) a follow-up; the others ephemeral
    follow-ups, in order; `view`, `files` and `embeds` with the last (embeds beyond what one
    message carries in further follow-ups: `embed_batches`)."""
    batches = embed_batches(embeds)
    parts: list[str | None] = [*split_text(text), *(None for _ in batches[1:])]
    last = len(parts) - 1
    for i, part in enumerate(parts):
        extra: dict[str, Any] = {}
        if i == last and view is not None:
            extra["view"] = view
        if i == last and files:
            extra["files"] = list(files)
        if batches and i >= last - len(batches) + 1:
            extra["embeds"] = batches[i - (last - len(batches) + 1)]
        if i == 0 and not interaction.response.is_done():
            await interaction.response.send_message(part, ephemeral=True, **extra)
        elif i == 0 and not followup and interaction.type is not discord.InteractionType.component:
            if "files" in extra:
                extra["attachments"] = extra.pop("files")
            await interaction.edit_original_response(content=part, **extra)
        elif part is None:  # embeds only
            await interaction.followup.send(ephemeral=True, **extra)
        else:
            await interaction.followup.send(part, ephemeral=True, **extra)


async def post_parts(channel: Any, text: str, *, stem: str, ping: Sequence[int], allowed: discord.AllowedMentions,
                     last: dict[str, Any]) -> Any:
    """`text` posted in `channel` as one message or several, in order, each with its own nonce
    (`nonce(stem, i)`, sent with `enforce_nonce`); the ping notifies from one part (`ping_part`);
    `last` (the view, the files) goes with the last part, whose message is returned."""
    parts = split_text(text)
    pinging = ping_part(parts, ping)
    message = None
    for i, part in enumerate(parts):
        kwargs: dict[str, Any] = {"content": part, "nonce": nonce(stem, i),
                                  "allowed_mentions": allowed if i == pinging else discord.AllowedMentions.none()}
        if i == len(parts) - 1:
            kwargs.update(last)
        message = await channel.send(**kwargs)
    return message


async def edit_attachments(message: Any, files: Sequence[discord.File], kept: Sequence[Any]) -> Any:
    """A delivered message's attachments become `files` (uploaded now) then `kept` (its own,
    listed by id: Discord drops those an edit does not list); its text and buttons untouched.
    More than Discord's 10 is a caller's error."""
    if len(files) + len(kept) > MAX_FILES:
        raise ValueError(f"{len(files) + len(kept)} attachments: Discord takes {MAX_FILES}")
    return await message.edit(attachments=[*files, *kept])


async def take_buttons_off(message: Any) -> Any:
    """A delivered message without its buttons (an old turn's); its text and files untouched."""
    return await message.edit(view=None)
