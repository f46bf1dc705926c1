"""Careers: a driver's stats, achievements and ratings across servers."""
