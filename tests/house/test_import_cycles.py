"""The house has no import cycles: one-way flow cog → service → engine/store/render.

Every import between modules of `bot` counts, at module level, inside a function (a lazy
import hides a cycle, it does not remove it) or under `if TYPE_CHECKING:` (a type-only import
still makes the two modules know each other: the lower one is given what it needs instead, a
`Host` Protocol of its own). `from package import submodule` depends on the submodule.
"""

from __future__ import annotations

import ast
from pathlib import Path

import bot

PACKAGE = Path(bot.__file__).resolve().parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.AST, modules: set[str]) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("bot"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bot"):
            submodules = {f"{node.module}.{a.name}" for a in node.names} & modules
            found.update(submodules)
            if len(submodules) < len(node.names):  # names defined by the module itself
                found.add(node.module)
    return {m for m in found if m in modules}


def import_graph() -> dict[str, set[str]]:
    files = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(files)
    return {name: _imports(ast.parse(path.read_text(encoding="utf-8")), modules) - {name}
            for name, path in files.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = walk(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = walk(node)
            if found:
                return found
    return None


def test_the_finder_sees_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_scan_counts_lazy_and_type_only_imports():
    modules = {"bot.client", "bot.views", "bot.views.sender", "bot.scheduler.loop"}
    source = """
from typing import TYPE_CHECKING
from bot.views import sender
if TYPE_CHECKING:
    from bot.client import RallyBot
def later():
    import bot.scheduler.loop
"""
    assert _imports(ast.parse(source), modules) == {"bot.views.sender", "bot.client", "bot.scheduler.loop"}
    graph = {"bot.client": {"bot.views.sender"}, "bot.views.sender": _imports(ast.parse(source), modules)}
    assert find_cycle(graph) == ["bot.client", "bot.views.sender", "bot.client"]


def test_bot_has_no_import_cycle():
    graph = import_graph()
    assert "bot.services.work" in graph and graph["bot.services.play.lobby"]  # the scan really reads the code
    cycle = find_cycle(graph)
    assert cycle is None, " → ".join(cycle or [])
