"""The house has no import cycles: one-way flow cog → service → engine/store/render.

Every import between modules of `bot` counts, at module level or inside a function (a lazy
import hides a cycle, it does not remove it); only imports under `if TYPE_CHECKING:` are left
out, since they never run. `from package import submodule` depends on the submodule.
"""

from __future__ import annotations

import ast
from pathlib import Path

import bot

PACKAGE = Path(bot.__file__).resolve().parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST, modules: set[str]) -> set[str]:
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("bot"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bot"):
            submodules = {f"{node.module}.{a.name}" for a in node.names} & modules
            found.update(submodules)
            if len(submodules) < len(node.names):  # names defined by the module itself
                found.add(node.module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
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


def test_bot_has_no_import_cycle():
    graph = import_graph()
    assert "bot.services.work" in graph and graph["bot.services.lobby"]  # the scan really reads the code
    cycle = find_cycle(graph)
    assert cycle is None, " → ".join(cycle or [])
