"""DIRT stages as data (RULES B2, B7–B11, B13.7): text format, model, validator, geometry, catalogue."""
