"""`python -m bot simulate`: a whole rally with AI drivers as one JSON object (issue: full rallies)."""

from __future__ import annotations

import json

import pytest

from bot.__main__ import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["simulate", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_same_seed_prints_the_same_rally_and_every_special_is_reported(capsys):
    args = ("--stages", "pinewood-sprint,gen-3-25,black-moor", "--drivers", "3", "--seed", "7", "--assistance", "1")
    code, first, _ = run(capsys, *args)
    assert code == 0
    code, second, _ = run(capsys, *args)
    assert first == second
    rally = json.loads(first)
    assert [s["stage"] for s in rally["specials"]] == ["pinewood-sprint", "gen-3-25", "black-moor"]
    assert [s["assistance_after"] for s in rally["specials"]] == [True, False, None]
    for special in rally["specials"]:
        assert len(special["drivers"]) == 3
        for driver in special["drivers"]:
            assert set(driver) == {"id", "name", "time", "markers", "lost_black", "flats", "outcome"}
    final = rally["classification"]
    assert [row["rank"] for row in final if row["total"] is not None] == sorted(
        row["rank"] for row in final if row["total"] is not None)
    classified = [row for row in final if row["total"] is not None]
    assert all(row["total"] == sum(row["times"]) for row in classified)  # A17: the sum of the specials
    assert len(rally["reclassifications"]) == 3


def test_a_different_seed_gives_a_different_rally(capsys):
    _, a, _ = run(capsys, "--stages", "pinewood-sprint,black-moor", "--drivers", "2", "--seed", "1")
    _, b, _ = run(capsys, "--stages", "pinewood-sprint,black-moor", "--drivers", "2", "--seed", "2")
    assert json.loads(a)["specials"] != json.loads(b)["specials"]


@pytest.mark.parametrize("args, says", [
    (("--stages", "../../etc/passwd"), "no stage called"),
    (("--stages", "a,b,c,d,e"), "1 to 4 specials, not 5"),
    (("--stages", "pinewood-sprint", "--drivers", "5"), "--drivers is 1 to 4"),
    (("--stages", "pinewood-sprint,black-moor", "--assistance", "3"), "`assistance` is `all`, `none`"),
    (("--stages", "pinewood-sprint", "--modules", "turbo"), "unknown module(s): turbo"),
])
def test_bad_arguments_get_a_specific_error_and_exit_2(capsys, args, says):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and says in err
