"""Discord's message limits checked on a recorded request (tests/discord/fakes.py `Sent`): what
Discord would refuse with a 400. The limits are the bot's own (bot/views/outgoing.py), checked
here on the JSON the library actually sends, not on what the bot meant to send."""

from __future__ import annotations

from typing import Any

from bot.views import outgoing as lim


def message_of(call: Any) -> dict | None:
    """The message a request creates or edits (an interaction callback's `data`), or None."""
    body = call.body if isinstance(call.body, dict) else None
    if body is None:
        return None
    if call.url.endswith("/callback"):
        return body.get("data") if body.get("type") in (4, 7) else None
    if call.method in ("POST", "PATCH") and ("/messages" in call.url or "/webhooks/" in call.url):
        return body
    return None


def problems(call: Any) -> list[str]:
    """What in `call` is over one of Discord's limits (empty: Discord takes it)."""
    message = message_of(call)
    if message is None:
        return []
    found = []
    content = message.get("content") or ""
    if len(content) > lim.MAX_CONTENT:
        found.append(f"content of {len(content)} characters")
    if "content" in message and content is not None and not content.strip() and not (
            message.get("embeds") or call.files or message.get("components") or message.get("attachments")):
        if call.method == "POST":
            found.append("an empty message")
    embeds = message.get("embeds") or []
    if len(embeds) > lim.MAX_EMBEDS:
        found.append(f"{len(embeds)} embeds")
    total = 0
    for embed in embeds:
        fields = embed.get("fields") or []
        if len(fields) > lim.MAX_EMBED_FIELDS:
            found.append(f"{len(fields)} fields")
        if len(embed.get("description") or "") > lim.MAX_EMBED_DESCRIPTION:
            found.append("an embed description over 4,096")
        total += len(embed.get("title") or "") + len(embed.get("description") or "") \
            + len((embed.get("footer") or {}).get("text") or "") + len((embed.get("author") or {}).get("name") or "") \
            + sum(len(f.get("name") or "") + len(f.get("value") or "") for f in fields)
    if total > lim.MAX_EMBEDS_TOTAL:
        found.append(f"embeds of {total} characters")
    rows = message.get("components") or []
    if len(rows) > lim.MAX_ROWS:
        found.append(f"{len(rows)} action rows")
    for row in rows:
        items = row.get("components") or []
        if len(items) > lim.MAX_ROW_BUTTONS:
            found.append(f"{len(items)} components in a row")
        for item in items:
            if not 0 < len(item.get("custom_id") or "x") <= lim.MAX_CUSTOM_ID:
                found.append(f"custom_id {item.get('custom_id')!r}")
            if len(item.get("label") or "") > lim.MAX_BUTTON_LABEL:
                found.append(f"label {item.get('label')!r}")
            if len(item.get("placeholder") or "") > lim.MAX_PLACEHOLDER:
                found.append("a placeholder over 150")
            options = item.get("options") or []
            if len(options) > lim.MAX_SELECT_OPTIONS:
                found.append(f"{len(options)} options")
            for option in options:
                if any(len(option.get(k) or "") > lim.MAX_OPTION_TEXT for k in ("label", "value", "description")):
                    found.append(f"option {option!r}")
    nonce = message.get("nonce")
    if nonce is not None and len(str(nonce)) > lim.MAX_NONCE:
        found.append(f"nonce {nonce!r}")
    if len(call.files) > lim.MAX_FILES:
        found.append(f"{len(call.files)} files")
    for name, data in call.data.items():
        if len(data) > lim.MAX_FILE_ASSUMED:
            found.append(f"file {name} of {len(data)} bytes")
    for attachment in message.get("attachments") or []:
        if len(attachment.get("description") or "") > lim.MAX_ATTACHMENT_DESCRIPTION:
            found.append(f"attachment description of {attachment['filename']}")
    return found


def over_limits(calls: list[Any]) -> list[tuple[str, str, list[str]]]:
    """Every request of `calls` Discord would refuse: (method, url, what is over)."""
    return [(c.method, c.url, found) for c in calls if (found := problems(c))]
