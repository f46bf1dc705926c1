"""Reproducible benchmarks: each module `bench/<name>.py` has `run() -> dict` and prints one JSON line.

Run from the repository root: `python -m bench.render` or `python -m bot bench render`.
"""
