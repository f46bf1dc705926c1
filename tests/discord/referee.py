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
  4,000 characters per command...): tests/discord/message_limits.py and command_rules.py.

`judge(...)` says what is wrong with one request (an empty list: nothing); `check(...)` is what
the fakes call: it counts the request for the session's summary, keeps what is wrong for the
test's teardown (the bot may swallow the exception) and raises `RefereeViolation`. The fakes'
answers to the reads the bot learns from (a server with its roles, a member, a channel: the bot
keeps none of them, having no gateway intent) are judged the same way against the spec's answer
schema (`judge_answer`, `check_answer`).

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
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests.discord import command_rules, message_limits

SPEC = Path(__file__).with_name("spec") / "openapi-subset.json"
_SCHEMAS = "#/components/schemas/"


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
    answer: dict | None = None  # the success answer's schema, for the reads the fakes answer (else None)


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
            answer = op.get("responses", {}).get("200", {}).get("content", {}).get("application/json", {})
            out.append((pattern, Operation(op["operationId"], method.upper(), path, schema,
                                           "multipart/form-data" in content, answer.get("schema"))))
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


def judge_answer(method: str, path: str, answer: Any) -> list[str]:
    """What is wrong with a fake's answer to a read whose answer the spec keeps (a server, a member,
    a channel: `ANSWERED` in tools/discord_spec_subset.py): what the bot reads must be what
    Discord's own answer can be. Any other operation: nothing to judge."""
    op = operation(method, path)
    if op is None or op.answer is None:
        return []
    errors = list(_validator(op.answer).iter_errors(answer))
    if not errors:
        return []
    worst = _describe(_explained(min(errors, key=_outermost)))
    return [f"the answer to {op.method} {op.path} ({op.operation_id}): {worst}"]


def check_answer(method: str, path: str, answer: Any) -> None:
    """`judge_answer` for the fakes: kept for the test's teardown, and raised (a fake that answers
    what Discord could not is a broken test, not a bot's fault, but fails all the same)."""
    problems = judge_answer(method, path, answer)
    if problems:
        LEDGER.violations.extend(problems)
        LEDGER.total_violations += len(problems)
        raise RefereeViolation("Discord could not answer this:\n" + "\n".join(problems))


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


# -- documented limits the schema does not encode (tests/discord/message_limits.py, command_rules.py) ------------


def documented_problems(operation_id: str, body: Any, files: Sequence[tuple[str, bytes | int]] = ()) -> list[str]:
    """Discord's documented rules for `body` sent to `operation_id`, beside its schema."""
    problems = message_limits.file_problems(files)
    if operation_id in _COMMAND_SYNC_OPERATIONS and isinstance(body, list):
        return problems + command_problems(body, global_scope=operation_id == "bulk_set_application_commands")
    if operation_id == "create_interaction_response" and isinstance(body, dict):
        data = body.get("data") or {}
        if body.get("type") in (4, 7) and isinstance(data, dict):
            problems += message_limits.message_problems(data, files, new=body.get("type") == 4)
        elif body.get("type") in (5, 6) and isinstance(data, dict):
            problems += message_limits.message_problems(data, files, new=False)
        elif body.get("type") == 8 and isinstance(data, dict):
            problems += command_rules.autocomplete_problems(data.get("choices") or [])
        return problems
    if operation_id in _MESSAGE_OPERATIONS and isinstance(body, dict):
        problems += message_limits.message_problems(body, files, new=operation_id in _NEW_MESSAGE_OPERATIONS)
    return problems


@cache
def discord_locales() -> frozenset[str]:
    """The locales Discord accepts as localisation keys (the spec's `AvailableLocalesEnum`)."""
    return frozenset(item["const"] for item in _schema_of("AvailableLocalesEnum")["oneOf"])


def command_problems(commands: list[dict], *, global_scope: bool = True) -> list[str]:
    """Discord's documented command rules (tests/discord/command_rules.py), with its locales."""
    return command_rules.command_problems(commands, discord_locales(), global_scope=global_scope)
