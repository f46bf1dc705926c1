"""Every link of the README and docs/ to a file of the checkout leads to one, and a link to a
heading (`docs/leagues.md#stewarding-with-a-trail`) to a heading of that file, as GitHub names
its anchors; and every page of docs/ is reachable from the README."""

from __future__ import annotations

import re
from pathlib import Path

from tests.docs_text import ROOT, doc_files

LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.S | re.M)
    return {anchor(heading) for heading in re.findall(r"^#+ (.*)$", text, flags=re.M)}


def link_problems(path: Path, root: Path = ROOT) -> list[str]:
    problems = []
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        file, _, fragment = target.partition("#")
        where = (path.parent / file).resolve() if file else path
        if not where.exists():
            problems.append(f"{path.relative_to(root)}: {target}: no such file")
        elif fragment and where.suffix == ".md" and fragment not in _anchors(where):
            problems.append(f"{path.relative_to(root)}: {target}: no such heading")
    return problems


def test_every_link_of_the_readme_and_docs_leads_somewhere():
    problems = [problem for path in doc_files() for problem in link_problems(path)]
    assert not problems, "\n".join(problems)


def test_every_page_of_docs_is_linked_from_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in LINK.findall(readme)}
    unlinked = [path.relative_to(ROOT).as_posix() for path in doc_files()[1:] if path.resolve() not in linked]
    assert not unlinked, unlinked


def test_a_broken_link_is_found(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# A page\n\n[here](#a-page), [there](#nowhere), [file](missing.md)\n", encoding="utf-8")
    problems = link_problems(page, tmp_path)
    assert problems == ["page.md: #nowhere: no such heading", "page.md: missing.md: no such file"]

