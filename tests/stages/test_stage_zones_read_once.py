"""A shipped stage is built from the zones read once per process (a render worker's first board
of a stage read every zone file again: ~10 ms)."""

from __future__ import annotations

from bot.engine.rallyman.stages import loader


def test_a_shipped_stage_is_built_from_the_zones_read_once(monkeypatch):
    first = loader.load_stage.__wrapped__("greystone-col")  # the cache's own function: built anew
    loader.shipped_zones()

    def read_again(folder=None):
        raise AssertionError("the zone files were read again")

    monkeypatch.setattr(loader, "load_zones", read_again)
    again = loader.load_stage.__wrapped__("greystone-col")
    assert again == first and again is not first
