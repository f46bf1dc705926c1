"""Persistence of rallies in SQLite (one connection on its own thread): connection, migrations, repositories.

All SQL of the bot lives in this package; services call these repositories, cogs never do.
"""

from bot.store.check import CheckReport, Mismatch
from bot.store.errors import (
    AlreadyJoined,
    ChannelBusy,
    NotFound,
    RallyFull,
    SchemaTooNew,
    SchemaTooOld,
    StaleVersion,
    StoreError,
    WrongStatus,
)
from bot.store.rows import Action, Driver, Job, Message, OutboxRow, Rally
from bot.store.store import Store

__all__ = [
    "Action",
    "AlreadyJoined",
    "ChannelBusy",
    "CheckReport",
    "Driver",
    "Job",
    "Message",
    "Mismatch",
    "NotFound",
    "OutboxRow",
    "Rally",
    "RallyFull",
    "SchemaTooNew",
    "SchemaTooOld",
    "StaleVersion",
    "Store",
    "StoreError",
    "WrongStatus",
]
