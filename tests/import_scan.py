"""One import scan for the purity tests: which modules a package's own source imports."""

from __future__ import annotations

import ast
from pathlib import Path


def forbidden_imports(folder: Path, forbidden: tuple[str, ...]) -> list[str]:
    """`file: module` for every absolute import in `folder/**/*.py` whose top package is forbidden
    (`file` relative to `folder`, so a module moved into a sub-package is still scanned)."""
    offenders = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offenders += [f"{path.relative_to(folder).as_posix()}: {n}" for n in names if n.split(".")[0] in forbidden]
    return offenders
