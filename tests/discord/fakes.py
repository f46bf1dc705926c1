"""A real `RallyBot` and its real command tree, with Discord's network replaced by recorders.

Nothing here opens a socket. Interactions are built from raw gateway payloads (as Discord sends
them) and fed to `bot._connection.parse_interaction_create`, the same entry point the gateway
uses, so option parsing, the command tree, transformers, autocomplete and the dynamic-item
button store all run for real. What the bot answers goes through discord.py's two outgoing
paths, each faked at its narrowest point:

- interaction responses and followups use the webhook adapter from the context variable
  `discord.webhook.async_.async_context`; `RecordingAdapter.request` records them;
- channel messages and edits (scheduler posts, removing old buttons, adding a drawn picture to
  a delivered post) use `bot.http.request`, replaced by `RecordingHTTP`; it keeps the messages
  it was sent as Discord would (an edit changes only what it lists, keeps the message's id, and
  keeps or uploads the attachments its `attachments` list names), and it also answers what
  private run threads need (fetching a channel, creating a thread in it, adding a member,
  deleting a thread), a command sync, and the reads of what the bot keeps no cache of (it asks
  for no gateway intent, so no GUILD_CREATE is fed): the guild with its roles, its name, a member
  with their roles (the roles the member's last interaction carried), a channel;
- every request is judged by Discord's API spec and documented limits (tests/discord/referee.py):
  one Discord would refuse raises at the request and fails the test at its teardown; the answers
  to those reads are judged by the spec's answer schemas too;
- attachments a command receives are read from Discord's CDN (`bot.http.get_from_cdn`): the
  harness serves them from `Harness.cdn` (url → bytes).
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import discord
import yarl
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.client import RallyBot
from bot.config import Settings
from tests.discord import referee

APP_ID = 4242
GUILD = 10
CHANNEL = 20
PNG = b"\x89PNG\r\n\x1a\nfake-board"
WEBP = b"RIFF\x00\x00\x00\x00WEBPfake-replay"
EVERYTHING = discord.Permissions.all()
_ids = itertools.count(900_000)


class FakeRenderer:
    """Images as a few fixed bytes: the Discord layer only forwards them."""

    def board(self, game, stage, view, lang="en") -> bytes:
        return PNG

    def preview(self, game, stage, lang="en") -> bytes:
        return PNG

    def results(self, game, view, lang="en") -> bytes:
        return PNG

    def table(self, view, lang="en") -> bytes:
        return PNG

    def career(self, card, lang="en") -> bytes:
        return PNG

    def animation(self, game, frames, winners=None, lang="en") -> bytes:
        return WEBP


class FakeClock:
    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 5, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@dataclass
class Sent:
    """One request the bot made: method, url, JSON body, attached file names."""

    method: str
    url: str
    body: Any
    files: list[str] = field(default_factory=list)
    reply: Any = None
    data: dict[str, bytes] = field(default_factory=dict)  # the attached files' bytes, by name
    via: str = "webhook"  # "webhook": interaction response/followup; "http": channel message/edit
    error: BaseException | None = None  # the failure a fake Discord answered with

    @property
    def content(self) -> str:
        body = self.body or {}
        return (body.get("data") or body).get("content") or ""

    @property
    def ephemeral(self) -> bool:
        body = self.body or {}
        return bool((body.get("data") or body).get("flags", 0) & 64)


def _file_bytes(file: discord.File) -> bytes:
    """What an attached file holds, read without disturbing the request that sends it."""
    position = file.fp.tell()
    data = file.fp.read()
    file.fp.seek(position)
    return data


def _body(payload: Any, multipart: Any) -> Any:
    if multipart:
        for part in multipart:
            if part.get("name") == "payload_json":
                return json.loads(part["value"])
    return payload


def user_payload(user_id: int, name: str, bot: bool = False) -> dict:
    return {"id": str(user_id), "username": name.lower(), "discriminator": "0", "avatar": None,
            "global_name": name, "bot": bot, "public_flags": 0, "flags": 0, "primary_guild": None}


def text_channel_payload(channel_id: int, name: str = "rally") -> dict:
    return {"id": str(channel_id), "type": 0, "guild_id": str(GUILD), "name": name, "position": 0, "flags": 0,
            "permission_overwrites": [], "nsfw": False, "parent_id": None}


def thread_payload(thread_id: int, parent_id: int = CHANNEL, name: str = "run", private: bool = True,
                   owner_id: int = APP_ID) -> dict:
    """A thread as Discord describes it (12: private, 11: public)."""
    return {"id": str(thread_id), "type": 12 if private else 11, "guild_id": str(GUILD), "parent_id": str(parent_id),
            "owner_id": str(owner_id), "name": name, "message_count": 0, "member_count": 1, "flags": 0,
            "total_message_sent": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": 10080, "invitable": not private,
                                "archive_timestamp": "2026-05-01T12:00:00+00:00", "locked": False}}


def message_payload(message_id: int, body: dict | None, channel_id: int = CHANNEL) -> dict:
    body = body or {}
    return {"id": str(message_id), "channel_id": str(channel_id), "type": 0, "content": body.get("content", ""),
            "author": user_payload(APP_ID, "rallybot", bot=True), "attachments": [], "embeds": [], "mentions": [],
            "mention_roles": [], "pinned": False, "mention_everyone": False, "tts": False,
            "timestamp": "2026-05-01T12:00:00+00:00", "edited_timestamp": None, "flags": body.get("flags", 0),
            "components": body.get("components", []), "application_id": str(APP_ID)}


def attachment_payload(filename: str, data: bytes) -> dict:
    """An uploaded file as Discord describes it in a message."""
    attachment_id = next(_ids)
    url = f"https://cdn.discordapp.com/attachments/{CHANNEL}/{attachment_id}/{filename}"
    return {"id": str(attachment_id), "filename": filename, "size": len(data), "url": url, "proxy_url": url}


def _uploaded(call: Sent, kept: list[dict]) -> list[dict]:
    """The attachments a message has after `call`: its `attachments` list, each entry an
    attachment of `kept` (by id) or the upload at that index of the request's files."""
    listed = (call.body or {}).get("attachments")
    if listed is None:
        return [attachment_payload(name, call.data.get(name, b"")) for name in call.files] if call.files else kept
    by_id = {a["id"]: a for a in kept}
    out = []
    for entry in listed:
        if str(entry["id"]) in by_id:
            out.append(by_id[str(entry["id"])])
        else:
            name = call.files[int(entry["id"])]
            out.append(attachment_payload(name, call.data.get(name, b"")))
    return out


def _refereed(call: Sent, route: Any, files: list[discord.File] | None) -> None:
    """Discord's API spec and documented limits judge the request (tests/discord/referee.py):
    one it would refuse fails as Discord would (recorded with `error` set) and fails the test."""
    try:
        referee.check(route.method, route.url, call.body, [(f.filename, _file_bytes(f)) for f in files or []])
    except referee.RefereeViolation as violation:
        call.error = violation
        raise


class RecordingAdapter(AsyncWebhookAdapter):
    """Interaction callbacks and webhook followups, recorded; answers like Discord would."""

    def __init__(self, sent: list[Sent]) -> None:
        super().__init__()
        self.sent = sent

    async def request(self, route, session=None, *, payload=None, multipart=None, proxy=None, proxy_auth=None,
                      files=None, reason=None, auth_token=None, params=None) -> Any:
        call = Sent(route.method, route.url, _body(payload, multipart), [f.filename for f in files or []],
                    data={f.filename: _file_bytes(f) for f in files or []})
        self.sent.append(call)
        _refereed(call, route, files)
        if route.url.endswith("/callback"):
            call.reply = {"interaction": {"id": str(next(_ids)), "type": (call.body or {}).get("type", 0),
                                          "response_message_loading": (call.body or {}).get("type") == 5}}
        elif route.method in ("POST", "PATCH", "GET"):
            call.reply = message_payload(next(_ids), call.body)
        return call.reply


class FakeResponse:
    """What discord.HTTPException reads from an aiohttp response; `method` and `url` are the
    failed request's, filled in when a fake Discord answers a request with it (`answered`)."""

    def __init__(self, status: int, retry_after: float | None = None) -> None:
        self.status = status
        self.reason = {400: "Bad Request", 403: "Forbidden", 404: "Not Found", 413: "Payload Too Large",
                       429: "Too Many Requests", 500: "Internal Server Error",
                       503: "Service Unavailable"}.get(status, "Error")
        self.headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
        self.method: str | None = None
        self.url: yarl.URL | None = None


def answered(exc: BaseException, route: Any) -> BaseException:
    """`exc` as the answer to `route` (discord.py's errors keep the response of their request)."""
    response = getattr(exc, "response", None)
    if isinstance(response, FakeResponse):
        response.method, response.url = route.method, yarl.URL(route.url)
    return exc


def http_error(status: int, code: int = 0, retry_after: float | None = None, *, message: str | None = None,
               errors: dict | None = None) -> discord.HTTPException:
    """The exception discord.py raises for that answer (Forbidden, NotFound, DiscordServerError...);
    `message` and `errors` (Discord's tree of refused fields) as Discord's JSON body has them."""
    response = FakeResponse(status, retry_after)
    data: dict[str, Any] = {"code": code, "message": message or response.reason}
    if errors is not None:
        data["errors"] = errors
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status)
    if kind is None:
        kind = discord.DiscordServerError if status >= 500 else discord.HTTPException
    return kind(response, data)  # type: ignore[arg-type]


class RecordingHTTP:
    """Stands in for `bot.http.request`: channel messages, edits, DM channels.

    `fail(exc, times=1, path=...)` makes the next matching requests raise `exc` (an
    `http_error(...)`, `asyncio.TimeoutError()`...) instead of succeeding: a Discord that fails
    any step of posting; `exc` may also be a function of the request (`Sent`) that returns the
    exception (an answer naming what the request holds). Failed requests are recorded too (with
    `reply` None and `error` set). A bulk overwrite of the slash commands (PUT) is answered with
    the commands it sent, as Discord registers them."""

    def __init__(self, sent: list[Sent]) -> None:
        self.sent = sent
        self.failures: list[list[Any]] = []  # [exception, times left, path fragment]
        self.threads: dict[int, dict] = {}  # threads created and not deleted: id → payload
        self.hooks: list[list[Any]] = []  # [path fragment, coroutine function, times left]
        self.messages: dict[int, dict] = {}  # the channel messages posted, as Discord shows them now
        self.members: dict[int, tuple[int, ...]] = {}  # the test guild's members seen, and their roles
        self.guild_name = "Club"  # the test guild's name, as `GET /guilds/{id}` answers

    def before(self, path: str, action: Any, times: int = 1) -> None:
        """Await `action()` when the next matching request arrives, before it is answered: what
        happens meanwhile elsewhere (another command racing this one)."""
        self.hooks.append([path, action, times])

    def fail(self, exc: BaseException | Callable[[Sent], BaseException], times: int = 1,
             path: str = "/messages") -> None:
        self.failures.append([exc, times, path])

    async def __call__(self, route, *, files=None, form=None, **kwargs) -> Any:
        for hook in self.hooks:
            if hook[2] > 0 and hook[0] in route.url:
                hook[2] -= 1
                await hook[1]()
        call = Sent(route.method, route.url, _body(kwargs.get("json"), form), [f.filename for f in files or []],
                    via="http", data={f.filename: _file_bytes(f) for f in files or []})
        self.sent.append(call)
        _refereed(call, route, files)
        for failure in self.failures:
            exc, times, path = failure
            if times > 0 and path in route.url:
                failure[1] -= 1
                call.error = answered(exc if isinstance(exc, BaseException) else exc(call), route)
                raise call.error
        if route.path == "/users/@me/channels":
            recipient = (call.body or {}).get("recipient_id")
            call.reply = {"id": str(next(_ids)), "type": 1, "last_message_id": None,
                          "recipients": [user_payload(int(recipient), f"user{recipient}")]}
        elif route.method == "POST" and route.path == "/channels/{channel_id}/threads":
            body = call.body or {}
            thread = thread_payload(next(_ids), parent_id=route.channel_id, name=body.get("name", "thread"),
                                    private=body.get("type") == 12)
            self.threads[int(thread["id"])] = thread
            call.reply = thread
        elif route.method == "GET" and route.path == "/channels/{channel_id}":
            call.reply = self.threads.get(route.channel_id) or text_channel_payload(route.channel_id)
        elif route.method == "GET" and route.path == "/guilds/{guild_id}":
            call.reply = guild_payload({r for roles in self.members.values() for r in roles}, self.guild_name)
        elif route.method == "GET" and route.path.startswith("/guilds/{guild_id}/members/"):  # discord.py: {member_id}
            user_id = int(route.url.rsplit("/", 1)[1])
            if user_id not in self.members:
                call.error = answered(http_error(404, 10007, message="Unknown Member"), route)
                raise call.error
            call.reply = member_payload(user_id, self.members[user_id])
        elif route.method == "DELETE" and route.path == "/channels/{channel_id}":
            self.threads.pop(route.channel_id, None)
        elif route.method == "POST" and route.path == "/channels/{channel_id}/messages":
            call.reply = message_payload(next(_ids), call.body, channel_id=route.channel_id)
            call.reply["attachments"] = _uploaded(call, [])
            self.messages[int(call.reply["id"])] = call.reply
        elif route.method == "PATCH" and route.path == "/channels/{channel_id}/messages/{message_id}":
            message_id = int(route.url.rsplit("/", 1)[1])
            shown = dict(self.messages.get(message_id) or message_payload(message_id, {}, route.channel_id))
            body = call.body or {}
            shown.update({k: body[k] for k in ("content", "components", "flags") if k in body})
            shown["attachments"] = _uploaded(call, shown.get("attachments", []))
            shown["edited_timestamp"] = "2026-05-01T12:00:01+00:00"
            self.messages[message_id] = call.reply = shown
        elif route.method == "PUT" and route.url.endswith("/commands"):
            call.reply = [dict(command, id=str(next(_ids)), application_id=str(APP_ID), version="1")
                          for command in call.body or []]
        elif route.method in ("POST", "PATCH"):
            channel = route.channel_id or CHANNEL
            call.reply = message_payload(next(_ids), call.body, channel_id=channel)
        referee.check_answer(route.method, route.url, call.reply)
        return call.reply


def _base(user: tuple[int, str], *, manage: bool = False, app_permissions: discord.Permissions = EVERYTHING,
          interaction_type: int = 2, channel: dict | None = None, roles: tuple[int, ...] = (),
          locale: str = "en-US", guild_locale: str = "en-US", member: discord.Permissions | None = None) -> dict:
    """An interaction from `user` in the test channel (or in `channel`, a channel payload such as
    `thread_payload(...)`), with the member's `roles` ids; `member`: the member's own permissions
    (default: all with `manage`, else a plain member's)."""
    user_id, name = user
    member_perms = member if member is not None else discord.Permissions.all() if manage else discord.Permissions(
        view_channel=True, send_messages=True, use_application_commands=True)
    interaction_id = next(_ids)
    return {
        "id": str(interaction_id), "application_id": str(APP_ID), "type": interaction_type,
        "token": f"token-{interaction_id}", "version": 1, "guild_id": str(GUILD),
        "channel_id": (channel or {}).get("id", str(CHANNEL)),
        "channel": channel or text_channel_payload(CHANNEL),
        "member": {"user": user_payload(user_id, name), "roles": [str(r) for r in roles],
                   "joined_at": "2025-01-01T00:00:00+00:00",
                   "deaf": False, "mute": False, "flags": 0, "permissions": str(member_perms.value)},
        "app_permissions": str(app_permissions.value), "locale": locale, "guild_locale": guild_locale,
        "attachment_size_limit": 8 * 1024 * 1024, "entitlements": [], "authorizing_integration_owners": {},
        "context": 0,
    }


def option(name: str, value: Any, *, focused: bool = False) -> dict:
    kind = 5 if isinstance(value, bool) else 4 if isinstance(value, int) else 3
    data = {"name": name, "type": kind, "value": value}
    if focused:
        data["focused"] = True
    return data


def command_payload(user, name: str, sub: str | None = None, options: list[dict] | None = None, *,
                    autocomplete: bool = False, resolved: dict | None = None, **kwargs) -> dict:
    """`sub` is a subcommand (`create`) or a subcommand of a group (`round add`)."""
    payload = _base(user, interaction_type=4 if autocomplete else 2, **kwargs)
    opts = options or []
    if sub is not None:
        *group, leaf = sub.split()
        opts = [{"name": leaf, "type": 1, "options": opts}]
        if group:
            opts = [{"name": group[0], "type": 2, "options": opts}]
    payload["data"] = {"id": str(next(_ids)), "name": name, "type": 1, "options": opts}
    if resolved:
        payload["data"]["resolved"] = resolved
    return payload


def user_option(name: str, user: tuple[int, str]) -> tuple[dict, dict]:
    """A user option (a member of the guild) and its `resolved` part."""
    user_id, username = user
    member = {"roles": [], "joined_at": "2025-01-01T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0,
              "permissions": "0"}
    return ({"name": name, "type": 6, "value": str(user_id)},
            {"users": {str(user_id): user_payload(user_id, username)}, "members": {str(user_id): member}})


def role_payload(role_id: int, name: str = "organisers") -> dict:
    return {"id": str(role_id), "name": name, "color": 0, "hoist": False, "position": 0 if role_id == GUILD else 1,
            "permissions": "0", "managed": False, "mentionable": True, "flags": 0, "icon": None, "unicode_emoji": None,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None}}


def guild_payload(roles: set[int] | frozenset[int] = frozenset(), name: str = "Club") -> dict:
    """The test guild as `GET /guilds/{id}` answers it (what `Client.fetch_guild` reads): its roles,
    the @everyone role (the guild's id) and `roles`; no channels nor members (that answer has none)."""
    return {"id": str(GUILD), "name": name, "owner_id": "1",
            "roles": [role_payload(GUILD, "@everyone")] + [role_payload(r) for r in sorted(roles)],
            "emojis": [], "stickers": [], "features": [], "icon": None, "description": None, "home_header": None,
            "splash": None, "discovery_splash": None, "banner": None, "application_id": None, "region": "deprecated",
            "afk_channel_id": None, "afk_timeout": 300, "system_channel_id": None, "system_channel_flags": 0,
            "widget_enabled": False, "widget_channel_id": None, "verification_level": 0,
            "default_message_notifications": 0, "mfa_level": 0, "explicit_content_filter": 0, "max_presences": None,
            "max_members": 500000, "max_stage_video_channel_users": 50, "max_video_channel_users": 25,
            "vanity_url_code": None, "premium_tier": 0, "premium_subscription_count": 0, "preferred_locale": "en-US",
            "rules_channel_id": None, "safety_alerts_channel_id": None, "public_updates_channel_id": None,
            "premium_progress_bar_enabled": False, "nsfw": False, "nsfw_level": 0, "incidents_data": None}


def member_payload(user_id: int, roles: tuple[int, ...] = ()) -> dict:
    """A member as `GET /guilds/{id}/members/{user_id}` answers it (what `Guild.fetch_member` reads)."""
    return {"user": user_payload(user_id, f"user{user_id}"), "roles": [str(r) for r in roles], "nick": None,
            "avatar": None, "banner": None, "communication_disabled_until": None, "flags": 0,
            "joined_at": "2025-01-01T00:00:00+00:00", "pending": False, "premium_since": None, "mute": False,
            "deaf": False}


def role_option(name: str, role_id: int) -> tuple[dict, dict]:
    return {"name": name, "type": 8, "value": str(role_id)}, {"roles": {str(role_id): role_payload(role_id)}}


def attachment_option(name: str, filename: str, size: int, url: str) -> tuple[dict, dict]:
    """An attachment option; the file's bytes are served by `Harness.cdn[url]`."""
    attachment_id = str(next(_ids))
    attachment = {"id": attachment_id, "filename": filename, "size": size, "url": url, "proxy_url": url,
                  "content_type": "application/json"}
    return {"name": name, "type": 11, "value": attachment_id}, {"attachments": {attachment_id: attachment}}


def channel_option(name: str, channel_id: int) -> tuple[dict, dict]:
    channel = {"id": str(channel_id), "type": 0, "name": "league", "permissions": str(EVERYTHING.value)}
    return {"name": name, "type": 7, "value": str(channel_id)}, {"channels": {str(channel_id): channel}}


def click_payload(user, message: dict, custom_id: str, **kwargs) -> dict:
    payload = _base(user, interaction_type=3, **kwargs)
    payload["message"] = message
    payload["data"] = {"custom_id": custom_id, "component_type": 2}
    return payload


def posts(calls: list[Sent]) -> list[Sent]:
    """The messages among `calls` that reached Discord (followups and channel posts), without
    callbacks, edits, DM channel openings and failed attempts; a channel post as it shows once
    the edits among `calls` added its picture (`as_shown`)."""
    return [as_shown(c, calls) for c in calls if c.method == "POST" and not c.url.endswith("/callback")
            and c.error is None and not c.url.endswith(("/users/@me/channels", "/threads"))]


def channel_posts(calls: list[Sent]) -> list[Sent]:
    """The messages the outbox sender delivered to channels (not interaction answers), as shown."""
    return [c for c in posts(calls) if c.via == "http"]


def attachment_edits(calls: list[Sent], post: Sent | None = None) -> list[Sent]:
    """The edits among `calls` that changed a channel message's attachments (a picture added
    after its text), of `post`'s message only when given; failed ones too (`error` set)."""
    return [c for c in calls if c.via == "http" and c.method == "PATCH" and "attachments" in (c.body or {})
            and (post is None or c.url == f"{post.url}/{post.reply['id']}")]


def as_shown(post: Sent, calls: list[Sent]) -> Sent:
    """A channel post as readers see it once the successful edits among `calls` changed its
    attachments (text first: its picture comes by an edit of the same message): `files`, `data`
    and the body's `attachments` are the message's, in its order; `reply` stays Discord's answer
    to the post itself. The post as sent stays in `calls` unchanged."""
    if post.via != "http" or not isinstance(post.reply, dict):
        return post
    edits = [c for c in attachment_edits(calls, post) if c.error is None]
    if not edits:
        return post
    attachments = edits[-1].body["attachments"]
    data = dict(post.data)
    for edit in edits:
        data.update(edit.data)
    return dataclasses.replace(post, files=[a["filename"] for a in attachments], data=data,
                               body=dict(post.body or {}, attachments=attachments))


def private_answers(calls: list[Sent]) -> list[str]:
    """What the user alone read: the edit of the deferred answer, or ephemeral messages."""
    out = []
    for c in calls:
        if c.via != "webhook" or c.error is not None:
            continue
        if c.method == "PATCH" and "/messages/@original" in c.url:
            out.append(c.content)
        elif c.method == "POST" and c.url.endswith("/callback") and (c.body or {}).get("type") == 4:
            out.append(c.content)
        elif c.method == "POST" and not c.url.endswith("/callback") and c.ephemeral:
            out.append(c.content)
    return out


def buttons_of(message: dict) -> list[str]:
    return [c["custom_id"] for row in message.get("components", []) for c in row.get("components", [])]


class Harness:
    """A bot on a temp database, not logged in, with both network paths recorded."""

    def __init__(self, db: Path, clock: FakeClock | None = None, *, sync: bool = False) -> None:
        self.db = db
        self.sync = sync  # sync the slash commands at start-up (`RallyBot.sync_in_background`)
        self.clock = clock or FakeClock()
        self.sent: list[Sent] = []  # both paths, in order
        self.webhooks = RecordingAdapter(self.sent)
        self.http = RecordingHTTP(self.sent)
        self.bot: RallyBot | None = None
        self.cdn: dict[str, bytes] = {}  # attachments users send: url → bytes
        self._token = None

    async def __aenter__(self) -> Harness:
        self._token = async_context.set(self.webhooks)
        self.bot = RallyBot(Settings(db=self.db), clock=self.clock, renderer=FakeRenderer(),
                            seed_source=lambda: 7, start_loops=False, sync=self.sync)
        self.bot.http.request = self.http  # type: ignore[method-assign]
        self.bot.http.get_from_cdn = self._cdn  # type: ignore[method-assign]
        await self.bot._async_setup_hook()  # what login() does first: bind the event loop
        state = self.bot._connection  # what login() learns from Discord: who the bot is
        state.user = discord.ClientUser(state=state, data=user_payload(APP_ID, "rallybot", bot=True))
        state.application_id = APP_ID
        # no GUILD_CREATE: the bot asks for no gateway intent (bot/client.py), so Discord sends none;
        # the guild is known only from each interaction's payload (and READY's stub, fed by nobody here)
        await self.bot.setup_hook()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.bot.close()
        async_context.reset(self._token)

    async def _cdn(self, url: str) -> bytes:
        return self.cdn[url]

    async def dispatch(self, payload: dict, *, deliver: bool = True) -> list[Sent]:
        """Feed one interaction to the gateway handler; wait for everything it started, then (with
        `deliver`) let the outbox sender deliver what is owed, as its running loop would."""
        before = len(self.sent)
        member = payload.get("member")
        if member is not None:  # the member, as Discord would answer a fetch of them: these roles
            self.http.members[int(member["user"]["id"])] = tuple(int(r) for r in member.get("roles", ()))
        self.bot._connection.parse_interaction_create(payload)
        await self.settle()
        if deliver:
            await self.bot.sender.flush()
        return self.sent[before:]

    async def settle(self) -> None:
        for _ in range(10):
            pending = [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()
                       and (t.get_name().startswith(("CommandTree", "discord-ui")))]
            if not pending:
                return
            await asyncio.gather(*pending, return_exceptions=True)

    async def command(self, user, name: str, sub: str | None = None, /, *,
                      special: tuple[tuple[dict, dict], ...] = (), payload: dict | None = None,
                      **values: Any) -> list[Sent]:
        """Send `/name sub` with `values` as plain options, plus `special` (option, resolved) pairs
        (`user_option`, `role_option`, `attachment_option`...); `payload` holds `_base` keywords
        (`channel=`, `roles=`, `manage=`, `app_permissions=`)."""
        options = [option(k, v) for k, v in values.items()]
        resolved: dict = {}
        for opt, part in special:
            options.append(opt)
            for kind, items in part.items():
                resolved.setdefault(kind, {}).update(items)
        return await self.dispatch(command_payload(user, name, sub, options, resolved=resolved or None,
                                                   **(payload or {})))

    def last_turn_message(self) -> dict:
        """The last public message with buttons the bot posted, as Discord would return it."""
        for call in reversed(self.sent):
            if call.method == "POST" and isinstance(call.reply, dict) and buttons_of(call.reply):
                return call.reply
        raise AssertionError("no turn message with buttons was posted")
