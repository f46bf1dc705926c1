"""Rallyman: DIRT (RULES Part B), the hexagonal-tile game of the Rallyman family.

A separate game from classic Rallyman: nothing here imports `bot.engine.rallyman`; shared pieces come
from `bot.engine.core`. Its rules are partly provisional (RULES B13).
"""
