"""`python -m bot bench engine|render --game NAME` finds a game's bench by its file's name,
`bench/<kind>_<game>.py`: a game's bench needs no line in `bot/cli/bench.py`."""

from __future__ import annotations

from bot.cli import bench as bench_cli
from bot.paths import ROOT


def test_each_games_bench_file_is_found_by_its_name():
    files = {p.stem for kind in bench_cli.GAME_KINDS for p in (ROOT / "bench").glob(f"{kind}_*.py")}
    assert set(bench_cli.GAME_BENCHES.values()) == files
    assert bench_cli.GAME_BENCHES[("engine", "roadrally")] == "engine_roadrally"
    assert bench_cli.GAME_BENCHES[("render", "dirt")] == "render_dirt"
    assert set(bench_cli.GAMES) == {"rallyman", "dirt", "roadrally"}


def test_a_new_bench_file_is_a_new_choice(tmp_path, monkeypatch):
    (tmp_path / "bench").mkdir()
    for name in ("engine_dicedash.py", "render_dicedash.py", "engine.py", "store.py"):
        (tmp_path / "bench" / name).write_text("", encoding="utf-8")
    monkeypatch.setattr(bench_cli, "ROOT", tmp_path)
    assert bench_cli._game_benches() == {("engine", "dicedash"): "engine_dicedash",
                                         ("render", "dicedash"): "render_dicedash"}
