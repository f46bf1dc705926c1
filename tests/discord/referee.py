"""Discord's own API description as the referee of every request the tests see the bot make.

The fakes (tests/discord/fakes.py) answer like Discord would; they do not know what Discord would
refuse. This module does, from two sources that are not ours:

- Discord's OpenAPI spec (tests/discord/spec/openapi-subset.json, cut from
  github.com/discord/discord-api-spec by tools/discord_spec_subset.py): the request must be an
  operation the spec describes, and its JSON body (or the multipart `payload_json`) must match
  that operation's request schema, `$ref`s resolved through `referencing`;
- Discord's documented limits that the schema does not encode (its README says to follow the
  documentation where they differ): message content 2,000 characters (the schema allows 4,000 on
  channel messages), embeds, action rows and their components, uploads, allowed mentions, and the
  rules of application command registration (name pattern, localisations, option order,
  4,000 characters per command...).

`judge(...)` says what is wrong with one request (an empty list: nothing); `check(...)` is what
the fakes call: it counts the request for the session's summary, keeps what is wrong for the
test's teardown (the bot may swallow the exception) and raises `RefereeViolation`.

What had to be adapted in the spec, and why:
- `SnowflakeType` is a decimal string in the spec; discord.py sends some ids as JSON integers
  (a new upload's attachment id is its index, `{"id": 0}`; `recipient_id`), which Discord
  accepts: a non-negative integer below 2**64 is accepted too;
- unions (`oneOf`, and `anyOf` marked `x-discord-union: oneOf`) of objects whose `type` values
  differ (components, callbacks, command options) are checked as discriminated unions: the
  branch the value's `type` names, alone (`if`/`then`). Same verdicts, but a failure names the
  branch's error instead of "not valid under any of the given schemas", and it is 10 times
  faster (every component tried against every kind of component was ~16 ms a message);
- OpenAPI 3.1 has no `nullable`: the spec writes `["string", "null"]` or `oneOf` with
  `{"type": "null"}`, plain JSON Schema 2020-12; `format` (int32, uri, snowflake...) is not
  asserted, as JSON Schema leaves it.

Where the schema and the documentation differ, the stricter wins (the documented rules run only
on a body the schema accepts): content 2,000 (the schema says 4,000 for channel messages); the
4,000 characters of a command count each field in its longest locale, as the documentation says
("only the longest localization for each field, including the default value"), which is at least
the count of the largest single locale.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC = Path(__file__).with_name("spec") / "openapi-subset.json"
_SCHEMAS = "#/components/schemas/"

MIB = 1024 * 1024
LARGEST_INT = 2**53 - 1  # Discord's integers are JavaScript-safe: min_value/max_value within ±(2**53 − 1)

# Discord's documented limits (discord.com/developers/docs: message, embed, components, commands)
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
COMMAND_NAME = 32
COMMAND_DESCRIPTION = 100
COMMAND_OPTIONS = COMMAND_CHOICES = 25
CHOICE_NAME = CHOICE_VALUE = 100
MAX_LENGTH_BOUND = 6000
COMMAND_CHARACTERS = 4000
GLOBAL_CHAT_COMMANDS = 100
SUBCOMMAND, GROUP = 1, 2

#: operations whose body is a message (an interaction callback holds one in `data`), and those creating one
_MESSAGE_OPERATIONS = {"create_message", "update_message", "execute_webhook", "update_original_webhook_message",
                       "update_webhook_message"}
_NEW_MESSAGE_OPERATIONS = {"create_message", "execute_webhook"}
_COMMAND_SYNC_OPERATIONS = {"bulk_set_application_commands", "bulk_set_guild_application_commands"}


class RefereeViolation(AssertionError):
    """A request Discord would refuse (or that its API does not describe)."""


@dataclass
class Ledger:
    """The session's figures (printed at the end of the run) and the current test's violations."""

    requests: int = 0
    operations: Counter[str] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)  # since the current test started
    total_violations: int = 0


LEDGER = Ledger()


@dataclass(frozen=True)
class Operation:
    operation_id: str
    method: str
    path: str
    schema: dict | None  # the JSON request body's schema; None: the operation takes no body
    multipart: bool  # whether it accepts files


@cache
def _spec() -> dict[str, Any]:
    spec = json.loads(SPEC.read_text(encoding="utf-8"))
    # adaptation (see the module's docstring): snowflakes as JSON integers too
    snowflake = spec["components"]["schemas"]["SnowflakeType"]
    spec["components"]["schemas"]["SnowflakeType"] = {
        "anyOf": [snowflake, {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}]}
    schemas = spec["components"]["schemas"]
    spec["components"]["schemas"] = {name: _discriminated(schema, schemas) for name, schema in schemas.items()}
    spec["paths"] = _discriminated(spec["paths"], schemas)
    return spec


def _kinds(branch: dict, schemas: dict) -> list[Any] | None:
    """The `type` values a union's branch (`{"$ref": ...}` to an object schema) takes, if it says."""
    ref = branch.get("$ref", "")
    if not ref.startswith(_SCHEMAS):
        return None
    kind = schemas[ref[len(_SCHEMAS):]].get("properties", {}).get("type", {})
    return kind.get("enum") or ([kind["const"]] if "const" in kind else None)


def _discriminated(node: Any, schemas: dict) -> Any:
    """`node` with each union of objects told apart by their `type` (components, interaction
    callbacks, command options) checked as such: the branch the value's `type` names, and only
    it, instead of every branch (`oneOf` tries them all: slow, and its failure names none).
    Same verdicts when the branches' `type` values are disjoint; other unions are kept."""
    if isinstance(node, list):
        return [_discriminated(v, schemas) for v in node]
    if not isinstance(node, dict):
        return node
    node = {k: _discriminated(v, schemas) for k, v in node.items()}
    for key in ("oneOf", "anyOf"):
        branches = node.get(key)
        if not isinstance(branches, list):
            continue
        nullable = {"type": "null"} in branches
        typed = [b for b in branches if b != {"type": "null"}]
        kinds = [_kinds(b, schemas) for b in typed]
        flat = [k for ks in kinds if ks for k in ks]
        if not typed or None in kinds or len(flat) != len(set(flat)):
            continue
        rest = {k: v for k, v in node.items() if k not in (key, "x-discord-union")}
        chosen = {"required": ["type"], "properties": {"type": {"enum": flat}},
                  "allOf": [{"if": {"properties": {"type": {"enum": ks}}}, "then": b} for b, ks in zip(typed, kinds)]}
        union = {"if": {"type": "object"}, "then": chosen, "else": {"type": "null" if nullable else "object"}}
        return {**rest, "allOf": [*rest.get("allOf", []), union]}
    return node


@cache
def _registry() -> Registry:
    return Registry().with_resource("urn:discord-openapi", Resource.from_contents(_spec(), DRAFT202012))


_validators: dict[int, jsonschema.Draft202012Validator] = {}


def _validator(schema: dict) -> jsonschema.Draft202012Validator:
    """A validator for `schema` (a part of the cached spec: its id is stable), built once."""
    if id(schema) not in _validators:
        wrapped = {"$id": "urn:discord-request", **schema}
        _validators[id(schema)] = jsonschema.Draft202012Validator(_rebase(wrapped), registry=_registry())
    return _validators[id(schema)]


def _rebase(node: Any) -> Any:
    """`#/components/...` references made absolute to the spec's resource."""
    if isinstance(node, dict):
        return {k: (f"urn:discord-openapi{v}" if k == "$ref" and isinstance(v, str) and v.startswith("#/")
                    else _rebase(v)) for k, v in node.items()}
    if isinstance(node, list):
        return [_rebase(v) for v in node]
    return node


def _schema_of(name: str) -> dict:
    return _spec()["components"]["schemas"][name]


@cache
def _operations() -> list[tuple[re.Pattern[str], Operation]]:
    """Every operation of the subset, literal segments preferred over parameters (`@original`
    before `{message_id}`)."""
    out = []
    for path, item in _spec()["paths"].items():
        for method, op in item.items():
            if method == "parameters":
                continue
            content = (op.get("requestBody") or {}).get("content", {})
            schema = content.get("application/json", {}).get("schema")
            pattern = re.compile("^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(path)) + "$")
            out.append((pattern, Operation(op["operationId"], method.upper(), path, schema,
                                           "multipart/form-data" in content)))
    out.sort(key=lambda item: item[1].path.count("{"))
    return out


def operation(method: str, path: str) -> Operation | None:
    """The spec's operation for `method` on `path`: a route template (`/channels/{channel_id}`)
    or a url (`https://discord.com/api/v10/channels/20?with_response=true`)."""
    path = path.split("?", 1)[0]
    if "/api/v" in path:
        path = re.sub(r"^.*?/api/v\d+", "", path)
    for pattern, op in _operations():
        if op.method == method.upper() and pattern.match(path):
            return op
    return None


def judge(method: str, path: str, body: Any = None, files: Sequence[tuple[str, bytes | int]] = ()) -> list[str]:
    """What Discord would refuse in this request (an empty list: nothing). `files`: the uploads,
    as (file name, bytes or size)."""
    op = operation(method, path)
    if op is None:
        return [f"{method.upper()} {path}: not an operation of Discord's API (spec {SPEC.name})"]
    where = f"{op.method} {op.path} ({op.operation_id})"
    problems = _schema_problems(op, body, files)
    if not problems and isinstance(body, (dict, list)):  # the documented rules read a body of the right types
        problems = documented_problems(op.operation_id, body, files)
    return [f"{where}: {p}" for p in problems]


def check(method: str, path: str, body: Any = None, files: Sequence[tuple[str, bytes | int]] = ()) -> None:
    """`judge` for the fakes: counted for the session, kept for the test's teardown, and raised."""
    op = operation(method, path)
    LEDGER.requests += 1
    LEDGER.operations[op.operation_id if op else f"UNKNOWN {method.upper()} {path}"] += 1
    problems = judge(method, path, body, files)
    if problems:
        LEDGER.violations.extend(problems)
        LEDGER.total_violations += len(problems)
        raise RefereeViolation("Discord would refuse this request:\n" + "\n".join(problems))


def forgive() -> list[str]:
    """The current test's violations, taken back: for the referee's own tests, which plant them
    on purpose (neither the test's teardown nor the session's count sees them)."""
    planted = list(LEDGER.violations)
    LEDGER.violations.clear()
    LEDGER.total_violations -= len(planted)
    return planted


def summary() -> str:
    """One line for the end of the run: how many requests were judged, of which operations."""
    ops = ", ".join(f"{name} {count}" for name, count in sorted(LEDGER.operations.items()))
    return (f"discord referee: {LEDGER.requests} requests validated, {len(LEDGER.operations)} operations: {ops}; "
            f"{LEDGER.total_violations} violations")


# -- the spec's schema ------------------------------------------------------------------------------------------


def _schema_problems(op: Operation, body: Any, files: Sequence[tuple[str, bytes | int]]) -> list[str]:
    if files and not op.multipart:
        return ["sends files to an operation that takes none"]
    if op.schema is None:
        return [] if body in (None, {}, b"", "") else [f"sends a body to an operation that takes none: {body!r:.80}"]
    if body is None:
        return [] if files else ["sends no body where the operation needs one"]
    errors = list(_validator(op.schema).iter_errors(body))
    return [_describe(_explained(min(errors, key=_outermost)))] if errors else []


def _outermost(error: ValidationError) -> tuple[int, bool]:
    """The failure nearest the body's top, a union's last: where the request first goes wrong."""
    return len(error.path), error.validator in ("oneOf", "anyOf")


def _explained(error: ValidationError) -> ValidationError:
    """The error that says why, for a union (`oneOf`/`anyOf`) the body failed: the failure in
    the one branch whose `type` (or JSON type) the value has, else in the branch it matched
    furthest, nearest the top first."""
    while error.validator in ("oneOf", "anyOf") and error.context:
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        fitting = [errs for errs in branches.values()
                   if not any(list(e.relative_path) in ([], ["type"]) and e.validator in ("type", "enum", "const")
                              for e in errs)]
        if all(e.validator == "const" for e in error.context):
            allowed = ", ".join(repr(e.validator_value) for e in error.context)
            return ValidationError(f"{error.instance!r} is not one of {allowed}", path=error.absolute_path)
        # several (or no) branches fit the value's type: the one it went furthest into explains it
        chosen = max(fitting or list(branches.values()),
                     key=lambda errs: (min(len(e.path) for e in errs), -len(errs)))
        error = min(chosen, key=_outermost)
    return error


def _describe(error: ValidationError) -> str:
    path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path) or "body"
    size = {"maxLength": "characters", "minLength": "characters", "maxItems": "items", "minItems": "items",
            "maxProperties": "entries"}.get(str(error.validator))
    if size and isinstance(error.instance, (str, list, dict)):
        return f"schema: {path.lstrip('.')}: {len(error.instance)} {size}, {error.validator} {error.validator_value}"
    return f"schema: {path.lstrip('.')}: {error.message[:300]}"


# -- documented limits the schema does not encode -----------------------------------------------------------------


def documented_problems(operation_id: str, body: Any, files: Sequence[tuple[str, bytes | int]] = ()) -> list[str]:
    """Discord's documented rules for `body` sent to `operation_id`, beside its schema."""
    problems = _file_problems(files)
    if operation_id in _COMMAND_SYNC_OPERATIONS and isinstance(body, list):
        return problems + command_problems(body, global_scope=operation_id == "bulk_set_application_commands")
    if operation_id == "create_interaction_response" and isinstance(body, dict):
        data = body.get("data") or {}
        if body.get("type") in (4, 7) and isinstance(data, dict):
            problems += message_problems(data, files, new=body.get("type") == 4)
        elif body.get("type") in (5, 6) and isinstance(data, dict):
            problems += message_problems(data, files, new=False)
        elif body.get("type") == 8 and isinstance(data, dict):
            problems += autocomplete_problems(data.get("choices") or [])
        return problems
    if operation_id in _MESSAGE_OPERATIONS and isinstance(body, dict):
        problems += message_problems(body, files, new=operation_id in _NEW_MESSAGE_OPERATIONS)
    return problems


def autocomplete_problems(choices: list[dict]) -> list[str]:
    """The suggestions an autocomplete answer offers: as many, and as long, as command choices."""
    problems = [f"choices: {len(choices)}, at most {COMMAND_CHOICES}"] if len(choices) > COMMAND_CHOICES else []
    for i, choice in enumerate(choices):
        name, value = str(choice.get("name") or ""), choice.get("value")
        if not 1 <= len(name) <= CHOICE_NAME:
            problems.append(f"choices[{i}].name: {len(name)} characters, 1 to {CHOICE_NAME}")
        if isinstance(value, str) and len(value) > CHOICE_VALUE:
            problems.append(f"choices[{i}].value: {len(value)} characters, at most {CHOICE_VALUE}")
    return problems


def _file_problems(files: Sequence[tuple[str, bytes | int]]) -> list[str]:
    problems = [f"{len(files)} files: at most {FILES}"] if len(files) > FILES else []
    for name, data in files:
        size = data if isinstance(data, int) else len(data)
        if size > FILE_BYTES:
            problems.append(f"file {name!r}: {size} bytes, over {FILE_BYTES} (10 MiB)")
    return problems


def message_problems(message: dict, files: Sequence[tuple[str, bytes | int]] = (), *, new: bool = True) -> list[str]:
    """A message body (create, edit, interaction answer): `new` when it creates a message, which
    must then hold something to show."""
    problems: list[str] = []
    content = message.get("content")
    if isinstance(content, str) and len(content) > CONTENT:
        problems.append(f"content: {len(content)} characters, at most {CONTENT}")
    if new and not (content or message.get("embeds") or message.get("components") or message.get("sticker_ids")
                    or message.get("poll") or files):
        problems.append("an empty message: no content, embeds, components, stickers, poll or files")
    nonce = message.get("nonce")
    if isinstance(nonce, str) and len(nonce) > NONCE:
        problems.append(f"nonce: {len(nonce)} characters, at most {NONCE}")
    problems += embed_problems(message.get("embeds") or [])
    problems += component_problems(message.get("components") or [], int(message.get("flags") or 0))
    problems += _attachment_problems(message.get("attachments"), files)
    problems += _mention_problems(message.get("allowed_mentions"))
    return problems


def embed_problems(embeds: list[dict]) -> list[str]:
    problems = [f"embeds: {len(embeds)}, at most {EMBEDS}"] if len(embeds) > EMBEDS else []
    total = 0
    for i, embed in enumerate(embeds):
        where = f"embeds[{i}]"
        for key, limit in EMBED_TEXT.items():
            text = embed.get(key) or ""
            total += len(text)
            if len(text) > limit:
                problems.append(f"{where}.{key}: {len(text)} characters, at most {limit}")
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS:
            problems.append(f"{where}.fields: {len(fields)}, at most {EMBED_FIELDS}")
        for j, item in enumerate(fields):
            name, value = item.get("name") or "", item.get("value") or ""
            total += len(name) + len(value)
            if len(name) > FIELD_NAME:
                problems.append(f"{where}.fields[{j}].name: {len(name)} characters, at most {FIELD_NAME}")
            if len(value) > FIELD_VALUE:
                problems.append(f"{where}.fields[{j}].value: {len(value)} characters, at most {FIELD_VALUE}")
        for key, sub, limit in (("footer", "text", FOOTER_TEXT), ("author", "name", AUTHOR_NAME)):
            text = (embed.get(key) or {}).get(sub) or ""
            total += len(text)
            if len(text) > limit:
                problems.append(f"{where}.{key}.{sub}: {len(text)} characters, at most {limit}")
    if total > EMBED_TOTAL:
        problems.append(f"embeds: {total} characters in all, at most {EMBED_TOTAL}")
    return problems


def component_problems(rows: list[dict], flags: int = 0) -> list[str]:
    """Action rows as a message without the IS_COMPONENTS_V2 flag holds them."""
    if flags & COMPONENTS_V2:
        return []  # layout messages: the schema's rules (40 components) are the ones that apply
    problems = [f"components: {len(rows)} action rows, at most {ACTION_ROWS}"] if len(rows) > ACTION_ROWS else []
    seen: set[str] = set()
    for i, row in enumerate(rows):
        where = f"components[{i}]"
        if row.get("type") != 1:
            problems.append(f"{where}: type {row.get('type')} at the top level of a message without "
                            "IS_COMPONENTS_V2 (only action rows)")
            continue
        items = row.get("components") or []
        selects = [c for c in items if c.get("type") in SELECT_TYPES]
        if selects and len(items) > 1:
            problems.append(f"{where}: a select menu shares its row with {len(items) - 1} other component(s)")
        buttons = [c for c in items if c.get("type") == 2]
        if len(buttons) > ROW_BUTTONS:
            problems.append(f"{where}: {len(buttons)} buttons, at most {ROW_BUTTONS}")
        for j, item in enumerate(items):
            problems += _item_problems(f"{where}.components[{j}]", item, seen)
    return problems


def _item_problems(where: str, item: dict, seen: set[str]) -> list[str]:
    problems = []
    custom_id = item.get("custom_id")
    if isinstance(custom_id, str):
        if len(custom_id) > CUSTOM_ID:
            problems.append(f"{where}.custom_id: {len(custom_id)} characters, at most {CUSTOM_ID}")
        if custom_id in seen:
            problems.append(f"{where}.custom_id {custom_id!r}: used twice in one message")
        seen.add(custom_id)
    if item.get("type") == 2:
        label = item.get("label") or ""
        if len(label) > BUTTON_LABEL:
            problems.append(f"{where}.label: {len(label)} characters, at most {BUTTON_LABEL}")
        if item.get("style") == 5:
            if not item.get("url") or custom_id is not None:
                problems.append(f"{where}: a link button needs a url and no custom_id")
        elif item.get("style") != 6 and (not custom_id or item.get("url")):
            problems.append(f"{where}: a button of style {item.get('style')} needs a custom_id and no url")
        if not label and not item.get("emoji") and item.get("style") != 6:
            problems.append(f"{where}: a button with neither label nor emoji")
    if item.get("type") in SELECT_TYPES:
        placeholder = item.get("placeholder") or ""
        if len(placeholder) > PLACEHOLDER:
            problems.append(f"{where}.placeholder: {len(placeholder)} characters, at most {PLACEHOLDER}")
        options = item.get("options") or []
        if len(options) > SELECT_OPTIONS:
            problems.append(f"{where}.options: {len(options)}, at most {SELECT_OPTIONS}")
        for k, choice in enumerate(options):
            for key in ("label", "value", "description"):
                text = choice.get(key) or ""
                if len(text) > SELECT_OPTION_TEXT:
                    problems.append(f"{where}.options[{k}].{key}: {len(text)} characters, at most {SELECT_OPTION_TEXT}")
        values = [choice.get("value") for choice in options]
        if len(set(values)) < len(values):
            problems.append(f"{where}.options: two options with the same value")
        low, high = item.get("min_values"), item.get("max_values")
        low, high = 1 if low is None else low, 1 if high is None else high
        if item.get("type") == 3 and (low > high or high > max(len(options), 1)):
            problems.append(f"{where}: min_values {low} / max_values {high} with {len(options)} options")
    return problems


def _attachment_problems(attachments: list[dict] | None, files: Sequence[tuple[str, bytes | int]]) -> list[str]:
    problems = []
    for i, attachment in enumerate(attachments or []):
        description = attachment.get("description") or ""
        if len(description) > ATTACHMENT_DESCRIPTION:
            problems.append(f"attachments[{i}].description: {len(description)} characters, "
                            f"at most {ATTACHMENT_DESCRIPTION}")
        upload = attachment.get("id")
        if isinstance(upload, int) and upload < FILES and upload >= len(files):
            problems.append(f"attachments[{i}]: names upload {upload}, but the request has {len(files)} file(s)")
    return problems


def _mention_problems(mentions: dict | None) -> list[str]:
    if not mentions:
        return []
    problems = []
    parse = mentions.get("parse") or []
    for kind in ("users", "roles"):
        if kind in parse and mentions.get(kind):
            problems.append(f"allowed_mentions: {kind!r} both in parse and listed (mutually exclusive)")
    return problems


# -- application command registration --------------------------------------------------------------------------

_NAME_PUNCTUATION = frozenset("-_'")
_SCRIPTS = ((0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x11B00, 0x11B5F),  # Devanagari and its extensions
            (0x0E00, 0x0E7F))  # Thai


def valid_command_name(name: str) -> bool:
    """Discord's pattern for chat-input command and option names,
    `^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`, lowercase wherever a letter has a lowercase form."""
    if not 1 <= len(name) <= COMMAND_NAME or name != name.lower():
        return False
    return all(ch in _NAME_PUNCTUATION or unicodedata.category(ch)[0] in "LN"
               or any(lo <= ord(ch) <= hi for lo, hi in _SCRIPTS) for ch in name)


@cache
def discord_locales() -> frozenset[str]:
    """The locales Discord accepts as localisation keys (the spec's `AvailableLocalesEnum`)."""
    return frozenset(item["const"] for item in _schema_of("AvailableLocalesEnum")["oneOf"])


def command_problems(commands: list[dict], *, global_scope: bool = True) -> list[str]:
    """Discord's rules for a bulk overwrite of application commands, beyond its schema."""
    problems = []
    chat = [c for c in commands if c.get("type", 1) == 1]
    if global_scope and len(chat) > GLOBAL_CHAT_COMMANDS:
        problems.append(f"{len(chat)} global chat-input commands, at most {GLOBAL_CHAT_COMMANDS}")
    problems += _duplicates("commands", [(c.get("type", 1), c.get("name")) for c in commands])
    problems += _sibling_problems("commands", chat)
    for command in commands:
        where = f"/{command.get('name')}"
        if command.get("type", 1) == 1:
            problems += _named_problems(where, command)
            problems += _options_problems(where, command.get("options") or [], depth=0)
            count = command_characters(command)
            if count > COMMAND_CHARACTERS:
                problems.append(f"{where}: {count} characters (names, descriptions, choices; each in its longest "
                                f"locale), at most {COMMAND_CHARACTERS}")
    return problems


def _sibling_problems(where: str, items: list[dict]) -> list[str]:
    """Names at one level must differ in every locale too (a locale's name, or the default)."""
    locales = {loc for item in items for loc in item.get("name_localizations") or {}}
    return [problem for loc in sorted(locales)
            for problem in _duplicates(f"{where} [{loc}]",
                                       [(item.get("name_localizations") or {}).get(loc, item.get("name"))
                                        for item in items])]


def _duplicates(where: str, keys: Iterable[Any]) -> list[str]:
    counts = Counter(keys)
    return [f"{where}: {key!r} twice" for key, n in counts.items() if n > 1]


def _named_problems(where: str, item: dict, *, choice: bool = False) -> list[str]:
    """Name, description and their localisations of a command, option (or choice: name only)."""
    problems = []
    locales = discord_locales()
    names = [(None, item.get("name") or ""), *(item.get("name_localizations") or {}).items()]
    for locale, name in names:
        label = f"{where} name" + (f" [{locale}]" if locale else "")
        if locale is not None and locale not in locales:
            problems.append(f"{label}: {locale!r} is not one of Discord's locales")
        if choice:
            if not 1 <= len(name) <= CHOICE_NAME:
                problems.append(f"{label} {name!r}: {len(name)} characters, 1 to {CHOICE_NAME}")
        elif not valid_command_name(name):
            problems.append(f"{label} {name!r}: not a lowercase name of 1-32 letters, digits, - _ '")
    if choice:
        return problems
    descriptions = [(None, item.get("description") or ""),
                                 *(item.get("description_localizations") or {}).items()]
    for locale, text in descriptions:
        label = f"{where} description" + (f" [{locale}]" if locale else "")
        if locale is not None and locale not in locales:
            problems.append(f"{label}: {locale!r} is not one of Discord's locales")
        if not 1 <= len(text) <= COMMAND_DESCRIPTION:
            problems.append(f"{label}: {len(text)} characters, 1 to {COMMAND_DESCRIPTION}")
    return problems


def _options_problems(where: str, options: list[dict], depth: int) -> list[str]:
    problems = [f"{where}: {len(options)} options, at most {COMMAND_OPTIONS}"] if len(options) > COMMAND_OPTIONS else []
    problems += _duplicates(f"{where} options", [o.get("name") for o in options])
    problems += _sibling_problems(f"{where} options", options)
    nested = [o for o in options if o.get("type") in (SUBCOMMAND, GROUP)]
    if nested and len(nested) < len(options):
        problems.append(f"{where}: subcommands mixed with plain options")
    optional_seen = False
    for option in options:
        kind = option.get("type")
        here = f"{where} {option.get('name')}"
        problems += _named_problems(here, option)
        if (kind == GROUP and depth > 0) or (kind == SUBCOMMAND and depth > 1):
            problems.append(f"{here}: a {'group' if kind == GROUP else 'subcommand'} nested {depth + 1} deep")
        if kind == GROUP and any(o.get("type") != SUBCOMMAND for o in option.get("options") or []):
            problems.append(f"{here}: a subcommand group holds something else than subcommands")
        if kind in (SUBCOMMAND, GROUP):
            problems += _options_problems(here, option.get("options") or [], depth + 1)
            continue
        if option.get("required"):
            if optional_seen:
                problems.append(f"{here}: a required option after an optional one")
        else:
            optional_seen = True
        problems += _option_value_problems(here, option)
    return problems


def _option_value_problems(here: str, option: dict) -> list[str]:
    problems = []
    for key in ("min_value", "max_value"):
        value = option.get(key)
        if value is not None and not -LARGEST_INT <= value <= LARGEST_INT:
            problems.append(f"{here} {key} {value}: outside ±(2**53 − 1)")
    if option.get("min_value") is not None and option.get("max_value") is not None \
            and option["min_value"] > option["max_value"]:
        problems.append(f"{here}: min_value above max_value")
    for key, low in (("min_length", 0), ("max_length", 1)):
        value = option.get(key)
        if value is not None and not low <= value <= MAX_LENGTH_BOUND:
            problems.append(f"{here} {key} {value}: outside {low}-{MAX_LENGTH_BOUND}")
    choices = option.get("choices") or []
    if choices and option.get("autocomplete"):
        problems.append(f"{here}: both choices and autocomplete")
    if len(choices) > COMMAND_CHOICES:
        problems.append(f"{here}: {len(choices)} choices, at most {COMMAND_CHOICES}")
    for choice in choices:
        problems += _named_problems(f"{here} choice {choice.get('name')!r}", choice, choice=True)
        value = choice.get("value")
        if isinstance(value, str) and len(value) > CHOICE_VALUE:
            problems.append(f"{here} choice value {value[:20]!r}…: {len(value)} characters, at most {CHOICE_VALUE}")
        if isinstance(value, int) and not -LARGEST_INT <= value <= LARGEST_INT:
            problems.append(f"{here} choice value {value}: outside ±(2**53 − 1)")
    return problems


def command_characters(command: dict) -> int:
    """The characters a command counts toward Discord's 4,000: the names, descriptions and choice
    names and values of the command and of everything under it, each field counted in its
    longest version (Discord's documentation: "only the longest localization for each field,
    including the default value, is counted towards the size limit")."""

    def longest(item: dict, key: str) -> int:
        return max(len(str(text)) for text in [item.get(key) or "", *(item.get(f"{key}_localizations") or {}).values()])

    total = 0
    for item in _walk(command):
        total += longest(item, "name") + longest(item, "description")
        for choice in item.get("choices") or []:
            total += longest(choice, "name") + len(str(choice.get("value", "")))
    return total


def _walk(item: dict) -> Iterable[dict]:
    yield item
    for option in item.get("options") or []:
        yield from _walk(option)
