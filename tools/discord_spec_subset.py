"""Cut Discord's OpenAPI spec down to what the bot's tests referee (tests/discord/spec/).

    python tools/discord_spec_subset.py PATH/openapi.json    # writes tests/discord/spec/openapi-subset.json

Discord publishes its HTTP API as one OpenAPI 3.1 file (github.com/discord/discord-api-spec,
`specs/openapi.json`, over a megabyte). The tests (tests/discord/referee.py) need only the
operations the bot calls and the request schemas those reference, transitively (and the list of
Discord's locales): this script keeps exactly that. Responses are dropped (the referee judges what
the bot sends, not what Discord answers), so a response-only schema is not kept either. Run it on
a newer openapi.json to follow Discord's changes; copy that release's LICENSE beside the subset
and update the commit in the README there.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "discord" / "spec" / "openapi-subset.json"

#: path template → the methods the bot uses there (discord.py's own route templates, as the spec spells them)
OPERATIONS: dict[str, tuple[str, ...]] = {
    "/interactions/{interaction_id}/{interaction_token}/callback": ("post",),
    "/webhooks/{webhook_id}/{webhook_token}": ("post",),
    "/webhooks/{webhook_id}/{webhook_token}/messages/@original": ("get", "patch", "delete"),
    "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": ("get", "patch", "delete"),
    "/channels/{channel_id}": ("get", "delete"),
    "/channels/{channel_id}/messages": ("post",),
    "/channels/{channel_id}/messages/{message_id}": ("get", "patch", "delete"),
    "/channels/{channel_id}/threads": ("post",),
    "/channels/{channel_id}/thread-members/{user_id}": ("put", "delete"),
    "/users/@me/channels": ("post",),
    "/applications/{application_id}/commands": ("get", "put"),
    "/applications/{application_id}/guilds/{guild_id}/commands": ("get", "put"),
    "/guilds/{guild_id}": ("get",),
    "/guilds/{guild_id}/members/{user_id}": ("get",),
}

#: operations whose success answer (200) is kept too: the fakes build these answers (what the bot
#: reads of a server, a member, a channel) and the referee judges them as Discord's own
ANSWERED: dict[str, tuple[str, ...]] = {
    "/channels/{channel_id}": ("get",),
    "/guilds/{guild_id}": ("get",),
    "/guilds/{guild_id}/members/{user_id}": ("get",),
}

#: schemas the referee reads beside the operations': the locales Discord accepts as localisation keys
EXTRA_SCHEMAS = ("AvailableLocalesEnum",)

_PREFIX = "#/components/schemas/"


def _refs(node: Any) -> set[str]:
    """The component schema names `node` references directly."""
    found: set[str] = set()
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_PREFIX):
            found.add(ref[len(_PREFIX):])
        for value in node.values():
            found |= _refs(value)
    elif isinstance(node, list):
        for value in node:
            found |= _refs(value)
    return found


def subset(spec: dict[str, Any], operations: dict[str, tuple[str, ...]] = OPERATIONS,
           answered: dict[str, tuple[str, ...]] = ANSWERED) -> dict[str, Any]:
    """The spec with only `operations` (without their responses, but the 200 answer of those in
    `answered`) and the schemas they need.

    A missing path or method is an error: the bot calls it, so a spec without it is not one the
    tests can referee with."""
    paths: dict[str, Any] = {}
    missing = []
    for path, methods in operations.items():
        item = spec["paths"].get(path, {})
        kept: dict[str, Any] = {k: v for k, v in item.items() if k == "parameters"}
        for method in methods:
            if method not in item:
                missing.append(f"{method.upper()} {path}")
                continue
            kept[method] = {k: v for k, v in item[method].items() if k != "responses"}
            if method in answered.get(path, ()):
                kept[method]["responses"] = {"200": {k: v for k, v in item[method]["responses"]["200"].items()
                                                     if k == "content"}}
        paths[path] = kept
    if missing:
        raise KeyError("the spec lacks operations the bot uses: " + ", ".join(missing))
    schemas = spec["components"]["schemas"]
    needed: set[str] = set()
    todo = _refs(paths) | set(EXTRA_SCHEMAS)
    while todo:
        name = todo.pop()
        if name in needed:
            continue
        needed.add(name)
        todo |= _refs(schemas[name]) - needed
    return {"openapi": spec["openapi"], "info": spec["info"], "servers": spec.get("servers", []), "paths": paths,
            "components": {"schemas": {name: schemas[name] for name in sorted(needed)}}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("spec", type=Path, help="Discord's openapi.json")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    cut = subset(json.loads(args.spec.read_text(encoding="utf-8")))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(cut, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    operations = sum(len(m) for m in OPERATIONS.values())
    print(f"{args.out}: {operations} operations, {len(cut['components']['schemas'])} schemas")
    return 0


if __name__ == "__main__":
    sys.exit(main())
