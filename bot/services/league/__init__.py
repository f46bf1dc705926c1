"""Leagues: members, rounds, runs, ghosts, closing and judging rounds, exports."""
