"""The bot's settings, from the environment and an optional `.env` file (no extra dependency).

    DISCORD_TOKEN   the bot token (Discord developer portal → your application → Bot)
    RALLYBOT_DB     the database: an SQLite file (default data/rallybot.sqlite3) or a postgresql:// URL
    DATABASE_URL    a postgresql:// URL (Heroku-style hosts set it): used when RALLYBOT_DB is not set
    RALLYBOT_DB_POOL  PostgreSQL connections per process (default 8), all opened at start
                    (RALLYBOT_DB_POOL_OPEN: how many of them, the others when needed)
    SHARD_COUNT     Discord shards in all (several processes share the bot); SHARD_IDS: this
                    process's shards (`0,1` or `0-3`; default all of them)
    DEV_GUILD_ID    a test server: commands are synced there instantly instead of globally
    LOG_LEVEL       DEBUG, INFO (default), WARNING or ERROR
    RALLYBOT_WEB_PORT  serve the spectators' web page (bot/web/) on this port (unset: no web page)
    RALLYBOT_WEB_HOST  the address it listens on (default 127.0.0.1, behind a reverse proxy;
                    0.0.0.0: every interface)
    RALLYBOT_WEB_PROXY  `1`: the web page is behind a reverse proxy, each client's request budget
                    is counted on the address the proxy adds to X-Forwarded-For
    RALLYBOT_PUBLIC_URL  the web page's public address (https://rally.example.org): a public
                    league's results and standings posts link to it (unset: no links)
    RALLYBOT_RENDER_WORKERS  render worker processes (0: draw in a thread of the bot, the smallest
                    hosts; unset: from the CPUs and the memory budget; RALLYBOT_RENDER_PROCESSES
                    is its old name)
    RALLYBOT_MEMORY_MB  the memory the whole bot may use, in MB (unset: 80 % of the container's
                    limit, else 300): sizes the render pool and its caches (bot/sizing.py)
    RALLYBOT_SERVERS  the Discord servers this process serves, counted in that budget (4 MB a
                    1,000; unset: 1,000 a shard of SHARD_IDS, else none counted)

`.env` at the top of the checkout (or the file named by RALLYBOT_DOTENV) holds `KEY=value`
lines (`#` comments, optional quotes, optional `export `); a variable already set in the
environment wins over the file.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import sizing
from bot.paths import ROOT, default_db
from bot.store.shards import Shards

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class ConfigError(ValueError):
    """A setting has a value the bot cannot use; the text names the variable and the fix."""


def read_dotenv(path: Path) -> dict[str, str]:
    """The `KEY=value` pairs of a .env file ({} when there is none)."""
    if not path.is_file():
        return {}
    values: dict[str, str] = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export "):].lstrip()
        key, sep, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key.isidentifier():
            raise ConfigError(f"{path}:{number}: expected KEY=value, got {raw.strip()!r}")
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        values[key] = value
    return values


def apply_dotenv(path: Path | None = None, environ: MutableMapping[str, str] | None = None) -> None:
    """Copy the .env values that the environment does not set yet into it (so RALLYBOT_DATA and
    friends work too). Called by `python -m bot run` and `sync`, never at import."""
    environ = os.environ if environ is None else environ
    path = path or Path(environ.get("RALLYBOT_DOTENV") or ROOT / ".env")
    for key, value in read_dotenv(path).items():
        environ.setdefault(key, value)


@dataclass(frozen=True)
class Settings:
    token: str | None = field(default=None, repr=False)  # a secret: never in a repr, a log line or a traceback
    db: Path | str = field(default_factory=default_db)  # an SQLite file or a postgresql:// URL
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    shards: Shards = field(default_factory=Shards.everything)
    web_port: int | None = None
    web_host: str = "127.0.0.1"
    web_proxy: bool = False
    public_url: str | None = None
    render_workers: int | None = None  # None: from the host (bot/sizing.py)
    memory_mb: int | None = None  # None: from the host
    servers: int = 0  # the Discord servers the memory plan counts (from_env: RALLYBOT_SERVERS, else the shards')

    def render_plan(self) -> sizing.RenderPlan:
        """The render workers and cache budgets these settings give on this host."""
        return sizing.host_plan(self.render_workers, self.memory_mb, web=self.web_port is not None,
                                servers=self.servers)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        token = (env.get("DISCORD_TOKEN") or "").strip() or None
        try:
            db = default_db(env)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        guild_text = (env.get("DEV_GUILD_ID") or "").strip()
        if guild_text and not guild_text.isdigit():
            raise ConfigError(f"DEV_GUILD_ID must be a server id (digits only), not {guild_text!r}. "
                              "In Discord: Settings → Advanced → Developer Mode, "
                              "then right-click the server → Copy Server ID.")
        level = (env.get("LOG_LEVEL") or "INFO").strip().upper()
        if level not in LOG_LEVELS:
            raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}.")
        return cls(token=token, db=db, dev_guild_id=int(guild_text) if guild_text else None, log_level=level,
                   shards=shards_from(env), web_port=web_port_from(env),
                   web_host=(env.get("RALLYBOT_WEB_HOST") or "").strip() or "127.0.0.1",
                   web_proxy=(env.get("RALLYBOT_WEB_PROXY") or "").strip().lower() in ("1", "yes", "true", "on"),
                   public_url=public_url_from(env), **render_from(env))


WORKERS_ENV = "RALLYBOT_RENDER_WORKERS"
WORKERS_OLD_ENV = "RALLYBOT_RENDER_PROCESSES"  # its name before, still read
MEMORY_ENV = "RALLYBOT_MEMORY_MB"
SERVERS_ENV = "RALLYBOT_SERVERS"
MAX_SERVERS = 10_000_000


def servers_default(shards: Shards) -> int:
    """The servers counted when RALLYBOT_SERVERS is unset: 1,000 a shard this process serves
    (about what Discord's recommended shard count gives), none without sharding."""
    return sizing.SERVERS_PER_SHARD * len(set(shards.ids)) if shards.count else 0


def servers_from(env: Mapping[str, str]) -> int:
    """RALLYBOT_SERVERS: a whole number of servers; unset: `servers_default` of the shards."""
    text = (env.get(SERVERS_ENV) or "").strip()
    if not text:
        return servers_default(shards_from(env))
    if not text.isdigit() or int(text) > MAX_SERVERS:
        raise ConfigError(f"{SERVERS_ENV} must be the number of Discord servers this process serves "
                          f"(0 to {MAX_SERVERS:,}), not {text[:20]!r}.")
    return int(text)


def render_from(env: Mapping[str, str]) -> dict[str, Any]:
    """RALLYBOT_RENDER_WORKERS (or its old name) and RALLYBOT_MEMORY_MB, checked against each
    other and the web page (RALLYBOT_WEB_PORT: its process is in the budget): a budget below what
    the workers asked for (or the least plan) need is refused with the smallest value that works
    (`bot.sizing.minimum_mb`), the servers of RALLYBOT_SERVERS (`servers_from`) counted."""
    web = web_port_from(env) is not None
    servers = servers_from(env)
    page = (" and the web page" if web else "") + (f" with {servers:,} Discord servers" if servers else "")
    name = WORKERS_ENV if (env.get(WORKERS_ENV) or "").strip() else WORKERS_OLD_ENV
    text = (env.get(name) or "").strip()
    workers = None
    if text:
        if not text.isdigit() or int(text) > sizing.MAX_WORKERS:
            raise ConfigError(f"{name} must be a whole number of render workers from 0 to {sizing.MAX_WORKERS} "
                              f"(0: draw in a thread of the bot), not {text[:20]!r}.")
        workers = int(text)
    text = (env.get(MEMORY_ENV) or "").strip()
    memory = None
    if text:
        least = sizing.minimum_mb(0 if workers is None else workers, web, servers)
        if not text.isdigit() or len(text) > 7:
            raise ConfigError(f"{MEMORY_ENV} must be a whole number of megabytes (at least {least}), "
                              f"not {text[:20]!r}.")
        memory = int(text)
        if memory < least:
            if workers:
                raise ConfigError(f"{MEMORY_ENV}={memory} is too small for {workers} render worker"
                                  f"{'s' if workers > 1 else ''}{page}: the smallest value that works is {least} "
                                  f"(or {WORKERS_ENV}=0, which works from {sizing.minimum_mb(0, web, servers)}).")
            raise ConfigError(f"{MEMORY_ENV}={memory} is too small to draw a board{page}: the smallest value "
                              f"that works is {least} (with {WORKERS_ENV}=0).")
    return {"render_workers": workers, "memory_mb": memory, "servers": servers}


def web_port_from(env: Mapping[str, str]) -> int | None:
    """RALLYBOT_WEB_PORT: a TCP port (1-65535), or unset for no web page."""
    text = (env.get("RALLYBOT_WEB_PORT") or "").strip()
    if not text:
        return None
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise ConfigError(f"RALLYBOT_WEB_PORT must be a port number from 1 to 65535, not {text!r}.")
    return int(text)


def public_url_from(env: Mapping[str, str]) -> str | None:
    """RALLYBOT_PUBLIC_URL: an http(s):// address without spaces, or unset."""
    text = (env.get("RALLYBOT_PUBLIC_URL") or "").strip()
    if not text:
        return None
    if not text.startswith(("https://", "http://")) or any(c.isspace() for c in text) or len(text) > 200:
        raise ConfigError(f"RALLYBOT_PUBLIC_URL must be an address like https://rally.example.org, not {text!r}.")
    return text.rstrip("/")


def _shard_list(text: str) -> list[int]:
    ids: list[int] = []
    for part in text.replace(" ", "").split(","):
        first, dash, last = part.partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ConfigError(f"SHARD_IDS must be shard numbers like `0,1` or `0-3`, not {text!r}.")
        if dash and int(last) < int(first):  # `3-1` would name no shard at all
            raise ConfigError(f"SHARD_IDS must count up in a range (`1-3`, not `{part}`), not {text!r}.")
        ids.extend(range(int(first), int(last) + 1) if dash else [int(first)])
    return ids


def shards_from(env: Mapping[str, str]) -> Shards:
    """The shards this process serves, from SHARD_COUNT and SHARD_IDS (see the module docstring)."""
    count_text = (env.get("SHARD_COUNT") or "").strip()
    ids_text = (env.get("SHARD_IDS") or "").strip()
    if not count_text:
        if ids_text:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (how many shards the bot has in all).")
        return Shards.everything()
    if not count_text.isdigit() or int(count_text) < 1:
        raise ConfigError(f"SHARD_COUNT must be a whole number of shards, at least 1, not {count_text!r}.")
    count = int(count_text)
    ids = _shard_list(ids_text) if ids_text else list(range(count))
    try:
        return Shards(count, tuple(ids))
    except ValueError as exc:
        raise ConfigError(f"SHARD_IDS: {exc}.") from None
