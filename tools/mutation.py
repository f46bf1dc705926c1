"""Mutation testing of one module against its own tests (a development tool: not in CI).

    python3 tools/mutation.py odds            # run, then print the survivors
    python3 tools/mutation.py odds --show     # print every survivor's diff (after a run)
    python3 tools/mutation.py odds --recheck  # write each survivor into the source, run the tests

mutmut 3 (`pip install mutmut`, not a project dependency) reads its settings from the
`[tool.mutmut]` section of the pyproject.toml of the folder it runs in, and copies the project into
`mutants/` there. So that the project's own pyproject.toml stays as CI knows it, this script makes a
scratch copy of the checkout (bot, tests, data, pyproject.toml) in `out/mutation/<module>/`, adds a
`[tool.mutmut]` section that mutates only that module and runs only its test files, and runs mutmut
there with at most two workers. Every run starts afresh: mutmut would keep the verdict of a mutant
whose function is unchanged even after new tests were written. See tools/mutation.md for the
scores and the surviving (equivalent) mutants.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: module name → (the file mutated, the test files that are its own tests)
MODULES: dict[str, tuple[str, tuple[str, ...]]] = {
    "odds": ("bot/engine/rallyman/odds.py", ("tests/engine/test_engine_odds.py",)),
    "dice_rules": ("bot/engine/rallyman/dice_rules.py", (
        "tests/engine/test_a06_turn.py", "tests/engine/test_a09_shortcut_cards.py",
        "tests/engine/test_a12_damage.py", "tests/engine/test_engine_bad_input.py",
        "tests/engine/test_a11_loss_of_control.py", "tests/engine/test_dice_rules.py")),
    "splits": ("bot/engine/rallyman/splits.py", ("tests/engine/test_a21_split_times_module.py",)),
    "versioning": ("bot/store/versioning.py", ("tests/store/test_append_action.py",)),
    "damage_bag": ("bot/engine/dirt/damage.py", (
        "tests/dirt/test_dirt_damage_bag.py", "tests/dirt/test_dirt_bag_reload.py",
        "tests/dirt/test_dirt_rally_damage.py")),
    "guard": ("bot/web/guard.py", ("tests/web/test_web_guard.py", "tests/web/test_web_refusals.py")),
    "windows": ("bot/services/play/windows.py", (
        "tests/scheduler/test_rr_windows.py", "tests/services/test_window_close.py")),
    "rr_play": ("bot/engine/roadrally/play.py", (
        "tests/roadrally/test_rr_setup.py", "tests/roadrally/test_rr_turn.py", "tests/roadrally/test_rr_stages.py",
        "tests/roadrally/test_rr_finish.py", "tests/roadrally/test_rr_games.py", "tests/roadrally/test_rr_spaces.py",
        "tests/roadrally/test_rr_json.py", "tests/roadrally/test_rr_secrecy.py",
        "tests/roadrally/test_rr_play_rules.py")),
    "secret_dice": ("bot/engine/core/secret_dice.py", (
        "tests/engine/test_secret_dice.py", "tests/roadrally/test_rr_secrecy.py")),
    "dirt_dice": ("bot/engine/dirt/dice.py", ("tests/dirt/test_dirt_dice.py", "tests/dirt/test_dirt_dice_rules.py")),
    "dirt_dice_rules": ("bot/engine/dirt/dice_rules.py", (
        "tests/dirt/test_dirt_dice_rules.py", "tests/dirt/test_dirt_dice.py")),
}
#: module name → more `[tool.mutmut]` settings: the web tests run aiohttp servers, which hang in a
#: worker forked straight from mutmut's process; a fork server runs them (and the guard does not
#: read the database: its tests run on SQLite alone)
SETTINGS: dict[str, tuple[str, ...]] = {
    "guard": ('process_isolation = "forkserver"', 'pytest_add_cli_args = ["-p", "no:cacheprovider", "-k", '
              '"not postgresql"]'),
    "secret_dice": ('pytest_add_cli_args = ["-p", "no:cacheprovider", "-k", "not postgresql"]',),
    "rr_play": ('pytest_add_cli_args = ["-p", "no:cacheprovider", "-k", "not postgresql"]',),
    "windows": ('pytest_add_cli_args = ["-p", "no:cacheprovider", "-k", "not postgresql"]',),  # on SQLite: 2 cores
}
#: module name → lines taken out of the scratch copy of the mutated file: mutmut leaves a decorated
#: function unmutated, and a memo (`lru_cache`) filled by the clean run that every mutant's worker
#: is forked from would answer with the original's results; without the memo, the same functions
#: are mutated and really run (the results are the same, only slower)
UNCACHED: dict[str, tuple[str, ...]] = {
    "dirt_dice_rules": ("@lru_cache(maxsize=64)", "@lru_cache(maxsize=4096)"),
}


def scratch_source(name: str, work: Path) -> None:
    """The mutated file copied from the checkout into `work`, its memo decorators taken out."""
    target = MODULES[name][0]
    text = (ROOT / target).read_text("utf-8")
    for line in UNCACHED.get(name, ()):
        if line not in text:
            raise SystemExit(f"{target}: no line {line!r} to take out (tools/mutation.py UNCACHED)")
        text = text.replace(line + "\n", "")
    (work / target).write_text(text, "utf-8")


def prepare(name: str) -> Path:
    """The scratch copy for `name`, its sources refreshed from the checkout."""
    target, tests = MODULES[name]
    work = ROOT / "out" / "mutation" / name
    shutil.rmtree(work / "mutants", ignore_errors=True)  # mutmut keeps a verdict while the code is
    work.mkdir(parents=True, exist_ok=True)  # unchanged, even when the tests changed: start afresh
    for folder in ("bot", "tests", "data"):
        shutil.rmtree(work / folder, ignore_errors=True)
        shutil.copytree(ROOT / folder, work / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.sqlite3*", "cache"))
    scratch_source(name, work)
    section = "\n".join([
        "", "[tool.mutmut]",
        'source_paths = ["bot"]',
        f'only_mutate = ["{target}"]',
        'also_copy = ["data"]',
        "pytest_add_cli_args_test_selection = [" + ", ".join(f'"{t}"' for t in tests) + "]",
        *SETTINGS.get(name, ('pytest_add_cli_args = ["-p", "no:cacheprovider"]',)), "",
    ])
    (work / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text("utf-8") + section, "utf-8")
    return work


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("module", choices=sorted(MODULES))
    parser.add_argument("--show", action="store_true", help="only print the survivors' diffs of the last run")
    parser.add_argument("--recheck", action="store_true",
                        help="after a run: write each survivor into the scratch source and run the tests in a new "
                             "process (mutmut switches a mutant on per call, so code run at import time, such as "
                             "a table built once, keeps its original value under mutmut)")
    parser.add_argument("--max-children", type=int, default=2)
    args = parser.parse_args()
    if args.show or args.recheck:
        work = ROOT / "out" / "mutation" / args.module
    else:
        work = prepare(args.module)
        run = subprocess.run(["mutmut", "run", "--max-children", str(args.max_children)], cwd=work,
                             capture_output=True, text=True, check=False)
        counts = [line for line in run.stdout.replace("\r", "\n").splitlines() if "🎉" in line]
        print(counts[-1].strip(" ⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏") if counts else run.stdout[-2000:], run.stderr[-2000:], sep="\n")
    listing = subprocess.run(["mutmut", "results"], cwd=work, capture_output=True, text=True, check=False)
    print(listing.stdout)
    survivors = [line.strip().split(":")[0] for line in listing.stdout.splitlines() if line.strip()]
    if args.show:
        for mutant in survivors:
            subprocess.run(["mutmut", "show", mutant], cwd=work, check=False)
    if args.recheck:
        recheck(work, args.module, survivors)
    return 0


def recheck(work: Path, name: str, survivors: list[str]) -> None:
    """Each survivor written into the scratch source and the module's tests run on it afresh."""
    tests = MODULES[name][1]
    for mutant in survivors:
        subprocess.run(["mutmut", "apply", mutant], cwd=work, check=True, capture_output=True)
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests],
                             cwd=work, capture_output=True, text=True, check=False)
        scratch_source(name, work)
        print(f"    {mutant}: {'killed' if run.returncode else 'survived'} when written into the source")


if __name__ == "__main__":
    sys.exit(main())
