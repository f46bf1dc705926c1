"""Rallyman classic's own tools: `python -m bot stage` (its stage files), `simulate` (a course
driven by its AI) and `render` (its board and previews as PNG files)."""
