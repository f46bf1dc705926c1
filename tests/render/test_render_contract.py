"""What the renderer promises the rest of the bot: pure (no discord, no database), PNG level 1–6,
and a CLI / bench entry that fails clearly when its part is missing."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest
from render_helpers import decode

import bot.render
from bot.cli import bench as bench_cli
from bot.render.encode import to_png
from bot.render.options import RenderOptions
from bot.render.rallyman import tool as render_cli
from tests.import_scan import forbidden_imports

FORBIDDEN = ("discord", "aiosqlite", "sqlite3", "asyncio")


def test_render_imports_no_discord_and_no_database():
    root = Path(bot.render.__file__).parent
    assert len(list(root.glob("*.py"))) > 5
    assert forbidden_imports(root, FORBIDDEN) == []


def test_png_levels_outside_1_to_6_are_refused():
    with pytest.raises(ValueError):
        RenderOptions(compress_level=9)
    from PIL import Image
    with pytest.raises(ValueError):
        to_png(Image.new("RGB", (4, 4)), 9)
    assert decode(to_png(Image.new("RGB", (4, 4)), 1)).size == (4, 4)


def test_cli_preview_writes_a_png(tmp_path, capsys, hill, monkeypatch):
    monkeypatch.setattr("bot.engine.rallyman.stages.catalogue.load_stage", lambda name: hill)
    out = tmp_path / "p.png"
    args = argparse.Namespace(stage="snapshot-hill", seed=1, turns=None, width=1080, out=out)
    assert render_cli.run(args) == 0
    assert decode(out.read_bytes()).width == 1080
    assert "preview" in capsys.readouterr().out


def test_cli_turns_without_the_engine_exits_2(tmp_path, capsys, hill, monkeypatch):
    monkeypatch.setattr("bot.engine.rallyman.stages.catalogue.load_stage", lambda name: hill)
    monkeypatch.setitem(sys.modules, "bot.engine.rallyman.simulate", None)  # import now fails
    args = argparse.Namespace(stage="snapshot-hill", seed=1, turns=3, width=1080, out=tmp_path / "b.png")
    assert render_cli.run(args) == 2
    assert render_cli.NO_ENGINE in capsys.readouterr().err
    assert not (tmp_path / "b.png").exists()


def test_cli_unknown_stage_exits_2(tmp_path, capsys):
    args = argparse.Namespace(stage="no-such-stage", seed=1, turns=None, width=1080, out=tmp_path / "x.png")
    assert render_cli.run(args) == 2
    assert "no stage named" in capsys.readouterr().err


def test_bench_of_a_missing_module_exits_2(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "bench.engine", None)
    assert bench_cli.run(argparse.Namespace(name="engine")) == 2
    assert "bench/engine.py" in capsys.readouterr().err
