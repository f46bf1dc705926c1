"""The README keeps exactly two set-up commands, install-and-run and install-and-test, and CI
(`.ci/run`) runs the second one: the same install (with the linters between it and the tests) and
the same test command, so a README that changes its test command changes what CI runs too."""

from __future__ import annotations

import re
import shlex

from tests.docs_text import ROOT


def _setup_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = readme.split("## Set-up")[1].split("\n## ")[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", setup, flags=re.S)]


def _ci_lines() -> list[list[str]]:
    """The commands `.ci/run` runs at its top level, split as the shell splits them."""
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    return [shlex.split(line) for line in lines if line.startswith("python3 ")]


def test_the_readme_has_two_set_up_commands_run_and_test():
    run, test = _setup_commands()
    assert run == "python3 -m pip install -e . && python3 -m bot"
    assert test.split(" && ")[0] == "python3 -m pip install -e '.[test]'"


def test_ci_runs_the_readmes_test_command():
    _, test = _setup_commands()
    install, tests = (shlex.split(part) for part in test.split(" && "))
    ci = _ci_lines()
    installs = [line for line in ci if line[:4] == ["python3", "-m", "pip", "install"]]
    assert len(installs) == 1 and [w for w in installs[0] if not w.startswith("--")] == install
    assert ci[-1] == tests, "the last command of .ci/run is the README's test command"
