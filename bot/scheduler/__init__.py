"""The deadline scheduler: one loop claims due jobs (bot/services/play/deadlines.py runs them)."""

from bot.scheduler.loop import SchedulerLoop

__all__ = ["SchedulerLoop"]
