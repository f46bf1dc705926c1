"""Discord's documented limits of a message that its OpenAPI schema does not encode.

From Discord's documentation (Messages, Embeds, Message components, Uploading files): message
content 2,000 characters (the schema allows 4,000 on channel messages), embeds and their parts,
action rows of buttons or one select menu, custom ids, labels, options and placeholders, uploads
(10 files of at most 10 MiB), attachment descriptions (alt text), allowed mentions. Each function
returns what is wrong (an empty list: nothing), for tests/discord/referee.py to report.
"""

from __future__ import annotations

from collections.abc import Sequence

MIB = 1024 * 1024
CONTENT = 2000
EMBEDS, EMBED_TOTAL, EMBED_FIELDS = 10, 6000, 25
EMBED_TEXT = {"title": 256, "description": 4096}
FIELD_NAME, FIELD_VALUE, FOOTER_TEXT, AUTHOR_NAME = 256, 1024, 2048, 256
ACTION_ROWS, ROW_BUTTONS, CUSTOM_ID, BUTTON_LABEL = 5, 5, 100, 80
SELECT_OPTIONS, SELECT_OPTION_TEXT, PLACEHOLDER = 25, 100, 150
ATTACHMENT_DESCRIPTION, FILE_BYTES, FILES = 1024, 10 * MIB, 10
NONCE = 25
COMPONENTS_V2 = 1 << 15  # message flag IS_COMPONENTS_V2: layout components at the top level
SELECT_TYPES = {3, 5, 6, 7, 8}


def too_long(where: str, text: object, limit: int) -> list[str]:
    """`where: N characters, at most LIMIT` when `text` (a string, else nothing) is longer."""
    size = len(text) if isinstance(text, str) else 0
    return [f"{where}: {size} characters, at most {limit}"] if size > limit else []


def too_many(where: str, items: Sequence[object], limit: int, what: str = "") -> list[str]:
    return [f"{where}: {len(items)}{what}, at most {limit}"] if len(items) > limit else []


def file_problems(files: Sequence[tuple[str, bytes | int]]) -> list[str]:
    problems = too_many("files", files, FILES)
    for name, data in files:
        size = data if isinstance(data, int) else len(data)
        if size > FILE_BYTES:
            problems.append(f"file {name!r}: {size} bytes, over {FILE_BYTES} (10 MiB)")
    return problems


def message_problems(message: dict, files: Sequence[tuple[str, bytes | int]] = (), *, new: bool = True) -> list[str]:
    """A message body (create, edit, interaction answer): `new` when it creates a message, which
    must then hold something to show."""
    content = message.get("content")
    problems = too_long("content", content, CONTENT) + too_long("nonce", message.get("nonce"), NONCE)
    if new and not (content or message.get("embeds") or message.get("components") or message.get("sticker_ids")
                    or message.get("poll") or files):
        problems.append("an empty message: no content, embeds, components, stickers, poll or files")
    problems += embed_problems(message.get("embeds") or [])
    problems += component_problems(message.get("components") or [], int(message.get("flags") or 0))
    problems += _attachment_problems(message.get("attachments"), files)
    problems += _mention_problems(message.get("allowed_mentions"))
    return problems


def embed_problems(embeds: list[dict]) -> list[str]:
    problems = too_many("embeds", embeds, EMBEDS)
    texts: list[object] = []
    for i, embed in enumerate(embeds):
        where = f"embeds[{i}]"
        parts = [(f"{where}.{key}", embed.get(key), limit) for key, limit in EMBED_TEXT.items()]
        fields = embed.get("fields") or []
        problems += too_many(f"{where}.fields", fields, EMBED_FIELDS)
        for j, item in enumerate(fields):
            parts += [(f"{where}.fields[{j}].name", item.get("name"), FIELD_NAME),
                      (f"{where}.fields[{j}].value", item.get("value"), FIELD_VALUE)]
        parts += [(f"{where}.footer.text", (embed.get("footer") or {}).get("text"), FOOTER_TEXT),
                  (f"{where}.author.name", (embed.get("author") or {}).get("name"), AUTHOR_NAME)]
        for label, text, limit in parts:
            problems += too_long(label, text, limit)
            texts.append(text)
    total = sum(len(t) for t in texts if isinstance(t, str))
    if total > EMBED_TOTAL:
        problems.append(f"embeds: {total} characters in all, at most {EMBED_TOTAL}")
    return problems


def component_problems(rows: list[dict], flags: int = 0) -> list[str]:
    """Action rows as a message without the IS_COMPONENTS_V2 flag holds them."""
    if flags & COMPONENTS_V2:
        return []  # layout messages: the schema's rules (40 components) are the ones that apply
    problems = too_many("components", rows, ACTION_ROWS, " action rows")
    seen: set[str] = set()
    for i, row in enumerate(rows):
        where = f"components[{i}]"
        if row.get("type") != 1:
            problems.append(f"{where}: type {row.get('type')} at the top level of a message without "
                            "IS_COMPONENTS_V2 (only action rows)")
            continue
        items = row.get("components") or []
        if any(c.get("type") in SELECT_TYPES for c in items) and len(items) > 1:
            problems.append(f"{where}: a select menu shares its row with {len(items) - 1} other component(s)")
        problems += too_many(where, [c for c in items if c.get("type") == 2], ROW_BUTTONS, " buttons")
        for j, item in enumerate(items):
            problems += _item_problems(f"{where}.components[{j}]", item, seen)
    return problems


def _item_problems(where: str, item: dict, seen: set[str]) -> list[str]:
    custom_id = item.get("custom_id")
    problems = too_long(f"{where}.custom_id", custom_id, CUSTOM_ID)
    if isinstance(custom_id, str):
        if custom_id in seen:
            problems.append(f"{where}.custom_id {custom_id!r}: used twice in one message")
        seen.add(custom_id)
    if item.get("type") == 2:
        problems += _button_problems(where, item)
    if item.get("type") in SELECT_TYPES:
        problems += _select_problems(where, item)
    return problems


def _button_problems(where: str, button: dict) -> list[str]:
    label, custom_id, style = button.get("label"), button.get("custom_id"), button.get("style")
    problems = too_long(f"{where}.label", label, BUTTON_LABEL)
    if style == 5:
        if not button.get("url") or custom_id is not None:
            problems.append(f"{where}: a link button needs a url and no custom_id")
    elif style != 6 and (not custom_id or button.get("url")):
        problems.append(f"{where}: a button of style {style} needs a custom_id and no url")
    if not label and not button.get("emoji") and style != 6:
        problems.append(f"{where}: a button with neither label nor emoji")
    return problems


def _select_problems(where: str, select: dict) -> list[str]:
    options = select.get("options") or []
    problems = too_long(f"{where}.placeholder", select.get("placeholder"), PLACEHOLDER)
    problems += too_many(f"{where}.options", options, SELECT_OPTIONS)
    for k, choice in enumerate(options):
        for key in ("label", "value", "description"):
            problems += too_long(f"{where}.options[{k}].{key}", choice.get(key), SELECT_OPTION_TEXT)
    values = [choice.get("value") for choice in options]
    if len(set(values)) < len(values):
        problems.append(f"{where}.options: two options with the same value")
    low, high = select.get("min_values"), select.get("max_values")
    low, high = 1 if low is None else low, 1 if high is None else high
    if select.get("type") == 3 and (low > high or high > max(len(options), 1)):
        problems.append(f"{where}: min_values {low} / max_values {high} with {len(options)} options")
    return problems


def _attachment_problems(attachments: list[dict] | None, files: Sequence[tuple[str, bytes | int]]) -> list[str]:
    problems = []
    for i, attachment in enumerate(attachments or []):
        problems += too_long(f"attachments[{i}].description", attachment.get("description"), ATTACHMENT_DESCRIPTION)
        upload = attachment.get("id")
        if isinstance(upload, int) and upload < FILES and upload >= len(files):
            problems.append(f"attachments[{i}]: names upload {upload}, but the request has {len(files)} file(s)")
    return problems


def _mention_problems(mentions: dict | None) -> list[str]:
    parse = (mentions or {}).get("parse") or []
    return [f"allowed_mentions: {kind!r} both in parse and listed (mutually exclusive)"
            for kind in ("users", "roles") if kind in parse and (mentions or {}).get(kind)]
