"""A throwaway PostgreSQL server for the tests: a real server that the test run starts and stops itself.

Tests never touch the network and never use a developer's database, so the PostgreSQL backend is not
tested against a server somewhere: ``PgServer.start()`` runs ``initdb`` into a fresh temporary folder
(in /dev/shm when it has room, else $TMPDIR) and starts ``postgres`` on it, listening only on 127.0.0.1
on a free port (its unix socket inside that folder), tuned for speed rather than safety (fsync off:
nothing in it needs to survive). Each test that wants a database gets a fresh empty one from
``create_database()`` (tests/conftest.py's ``pg_url`` drops it again after the test); ``stop()`` shuts
the server down at once and removes the folder (also at interpreter exit, and on Linux the server gets
SIGQUIT if the test process dies without running its exit handlers).

The server binaries come from the system's packages when it has them (``apt-get install postgresql``;
CI installs them in ``.ci/run``), else from the ``pgserver`` wheel of the ``test`` extra, which ships
``initdb``, ``postgres`` and ``pg_ctl`` for Linux and macOS (so ``pip install -e '.[test]'`` on a
machine with Python alone is enough). They are looked up in ``$RALLYBOT_PG_BIN`` (a bin folder), then
``pg_config --bindir``, then the newest ``/usr/lib/postgresql/*/bin``, then PATH, then the wheel's
``pgserver/pginstall/bin``: the system's programs win when present. When none is found the tests that
need the server fail with a message saying what to install: they are never skipped.

initdb and postgres refuse to run as root; as root they run as the ``postgres`` system user (else
``nobody``), which owns the temporary folder. When that user cannot reach the programs' folder (a
wheel installed under /root, mode 700), their installation (bin, lib, share) is copied into the
temporary folder first.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = ["PgServer", "PgServerError", "find_bin_dir"]

USER = "rallybot"
HOST = "127.0.0.1"
START_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0
PORT_ATTEMPTS = 5
SHM_MIN_FREE = 1 << 30  # a database is ~8 MB and each test's is dropped after it; containers often give /dev/shm 64 MB

SERVER_SETTINGS = {
    "listen_addresses": HOST,
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "300",
    "shared_buffers": "32MB",
}

INSTALL_HINT = (
    "Install the test extra, whose `pgserver` wheel ships them (`python3 -m pip install -e '.[test]'`), "
    "or the PostgreSQL server from the system's packages (Debian/Ubuntu: `sudo apt-get install postgresql`), "
    "or set RALLYBOT_PG_BIN to the folder that holds initdb and postgres."
)
SYSTEM_ROOT = Path("/usr/lib/postgresql")  # Debian's and Ubuntu's <version>/bin folders
INSTALL_PARTS = ("bin", "lib", "share")  # what a relocatable installation needs beside its programs

_DB_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


class PgServerError(RuntimeError):
    """The throwaway server could not be found, started or used."""


def _has_server(folder: Path) -> bool:
    return all((folder / name).is_file() and os.access(folder / name, os.X_OK) for name in ("initdb", "postgres"))


def _version_key(folder: Path) -> tuple[int, ...]:
    # /usr/lib/postgresql/<version>/bin: "15" or "9.6"
    return tuple(int(part) for part in re.findall(r"\d+", folder.parent.name)) or (0,)


def find_bin_dir() -> Path:
    """The folder holding initdb and postgres, or PgServerError saying what is missing and how to install it."""
    looked: list[str] = []

    env = os.environ.get("RALLYBOT_PG_BIN")
    if env:
        folder = Path(env)
        if _has_server(folder):
            return folder
        raise PgServerError(f"RALLYBOT_PG_BIN={env} does not hold the programs initdb and postgres. {INSTALL_HINT}")
    looked.append("$RALLYBOT_PG_BIN (not set)")

    pg_config = shutil.which("pg_config")
    if pg_config:
        try:
            out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, timeout=10, check=True)
        except (OSError, subprocess.SubprocessError):
            looked.append(f"`{pg_config} --bindir` (failed)")
        else:
            folder = Path(out.stdout.strip())
            if _has_server(folder):
                return folder
            looked.append(f"`pg_config --bindir` ({folder}: no initdb/postgres, pg_config alone is the client side)")
    else:
        looked.append("`pg_config --bindir` (no pg_config on PATH)")

    candidates = sorted((p for p in SYSTEM_ROOT.glob("*/bin") if _has_server(p)), key=_version_key)
    if candidates:
        return candidates[-1]
    looked.append(f"{SYSTEM_ROOT}/*/bin (none)")

    initdb = shutil.which("initdb")
    if initdb:
        for folder in (Path(initdb).parent, Path(os.path.realpath(initdb)).parent):
            if _has_server(folder):
                return folder
        looked.append(f"PATH (found {initdb} but no postgres beside it)")
    else:
        looked.append("PATH (no initdb)")

    wheel = wheel_bin_dir()
    if wheel is not None:
        return wheel
    looked.append("the pgserver wheel (not installed)")

    raise PgServerError(
        "The PostgreSQL server programs initdb and postgres were not found; looked in: "
        + "; ".join(looked)
        + ". "
        + INSTALL_HINT
    )


def wheel_bin_dir() -> Path | None:
    """The bin folder of the ``pgserver`` wheel's PostgreSQL (``pgserver/pginstall/bin``), when the
    wheel is installed and ships the server; the package itself is never imported (only its files
    are used)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("pgserver")
    except (ImportError, ValueError):
        return None
    for root in (spec.submodule_search_locations or []) if spec is not None else []:
        folder = Path(root) / "pginstall" / "bin"
        if _has_server(folder):
            return folder
    return None


def _reachable_by(path: Path, uid: int, gid: int) -> bool:
    """Whether the user (uid, gid) may enter every folder down to `path` and read it."""
    import stat

    for folder in (path, *path.parents):
        try:
            mode = folder.stat()
        except OSError:
            return False
        if mode.st_uid == uid:
            needed = stat.S_IXUSR | (stat.S_IRUSR if folder == path else 0)
        elif mode.st_gid == gid:
            needed = stat.S_IXGRP | (stat.S_IRGRP if folder == path else 0)
        else:
            needed = stat.S_IXOTH | (stat.S_IROTH if folder == path else 0)
        if mode.st_mode & needed != needed:
            return False
    return True


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def _parent_dir() -> str | None:
    """Where the temporary folder goes: /dev/shm when it has room (creating a database on disk costs 4-5 times as
    much, the copy of template1 being I/O-bound), else the usual temp folder ($TMPDIR)."""
    shm = "/dev/shm"
    try:
        stats = os.statvfs(shm)
    except OSError:
        return None
    if stats.f_bavail * stats.f_frsize >= SHM_MIN_FREE and os.access(shm, os.W_OK | os.X_OK):
        return shm
    return None


def _run_as() -> tuple[int, int] | None:
    """(uid, gid) to run initdb and postgres as, or None when this process is not root."""
    if os.geteuid() != 0:
        return None
    import pwd

    for name in ("postgres", "nobody"):
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        return entry.pw_uid, entry.pw_gid
    raise PgServerError("Running as root, and neither a `postgres` nor a `nobody` user exists to run PostgreSQL as.")


def _die_with_parent_hook() -> Any:
    """A preexec_fn asking Linux to send SIGQUIT (immediate shutdown) to the server when this process dies."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    pr_set_pdeathsig = 1
    parent = os.getpid()

    def hook() -> None:
        prctl(pr_set_pdeathsig, signal.SIGQUIT)
        if os.getppid() != parent:  # the parent died before the hook ran
            os.kill(os.getpid(), signal.SIGQUIT)

    return hook


class PgServer:
    """One throwaway PostgreSQL server: start(), url(), create_database(), stop()."""

    def __init__(self, bin_dir: Path | str | None = None) -> None:
        self.bin_dir = Path(bin_dir) if bin_dir is not None else None
        self.port: int | None = None
        self.folder: Path | None = None
        self.start_seconds: float | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._counter = itertools.count(1)
        self._run_as: tuple[int, int] | None = None

    # -- paths -----------------------------------------------------------------------------------
    @property
    def data_dir(self) -> Path:
        assert self.folder is not None, "server not started"
        return self.folder / "data"

    @property
    def log_path(self) -> Path:
        assert self.folder is not None, "server not started"
        return self.folder / "postgres.log"

    def log_tail(self, chars: int = 4000) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError as exc:
            return f"(no server log: {exc})"
        return text[-chars:]

    # -- lifecycle -------------------------------------------------------------------------------
    def start(self) -> PgServer:
        if self._proc is not None:
            return self
        began = time.monotonic()
        bin_dir = self.bin_dir or find_bin_dir()
        self.bin_dir = bin_dir
        self._run_as = _run_as()
        self.folder = Path(tempfile.mkdtemp(prefix="rallybot-pg-", dir=_parent_dir()))
        atexit.register(self._stop_at_exit)
        try:
            if self._run_as is not None:
                os.chown(self.folder, *self._run_as)
                if not _reachable_by(bin_dir, *self._run_as):
                    self.bin_dir = self._copy_installation(bin_dir)
            self._initdb()
            self._start_postgres()
        except BaseException:
            self.stop()
            raise
        self.start_seconds = time.monotonic() - began
        return self

    def _copy_installation(self, bin_dir: Path) -> Path:
        """A copy of the installation around `bin_dir` inside the temporary folder, for a server user
        who cannot reach the original; its new bin folder. PostgreSQL finds its files relative to its
        programs (bin, lib, share) and a wheel's programs their libraries in the `*.libs` folders two
        levels up (their RPATH: `$ORIGIN/../../../pgserver.libs`), so the copy keeps that layout."""
        assert self.folder is not None
        root = bin_dir.parent  # .../pgserver/pginstall
        top = self.folder / "programs"
        copy = top / root.parent.name / root.name
        for part in INSTALL_PARTS:
            if (root / part).is_dir():
                shutil.copytree(root / part, copy / part, symlinks=True)
        for libs in root.parent.parent.glob("*.libs"):
            shutil.copytree(libs, top / libs.name, symlinks=True)
        for folder, dirs, _files in os.walk(top):  # the server's user reads the copy (files keep their modes)
            os.chmod(folder, 0o755)
        return copy / "bin"

    def _child_args(self) -> dict[str, Any]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        env.update(LC_ALL="C", LANG="C")
        args: dict[str, Any] = {"cwd": self.folder, "env": env, "stdin": subprocess.DEVNULL}
        if self._run_as is not None:
            uid, gid = self._run_as
            args.update(user=uid, group=gid, extra_groups=[])
        return args

    def _initdb(self) -> None:
        assert self.bin_dir is not None
        cmd = [
            str(self.bin_dir / "initdb"),
            "-D", str(self.data_dir),
            "--auth=trust", f"--username={USER}", "--encoding=UTF8", "--locale=C", "-N",
        ]  # fmt: skip
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, **self._child_args())
        if done.returncode != 0:
            raise PgServerError(
                f"initdb failed (exit {done.returncode}): {' '.join(cmd)}\n{done.stdout}\n{done.stderr}".rstrip()
            )

    def _start_postgres(self) -> None:
        assert self.bin_dir is not None and self.folder is not None
        for attempt in range(1, PORT_ATTEMPTS + 1):
            port = _free_port()
            cmd = [str(self.bin_dir / "postgres"), "-D", str(self.data_dir), "-p", str(port),
                   "-c", f"unix_socket_directories={self.folder}"]  # fmt: skip
            for name, value in SERVER_SETTINGS.items():
                cmd += ["-c", f"{name}={value}"]
            with open(self.log_path, "ab") as log:
                log.write(f"--- rallybot: starting on port {port} (attempt {attempt})\n".encode())
                log.flush()
                self._proc = subprocess.Popen(
                    cmd,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,  # Ctrl-C in the terminal is for pytest, which then stops the server
                    preexec_fn=_die_with_parent_hook(),
                    **self._child_args(),
                )
            self.port = port
            if self._wait_ready():
                return
            log_text = self.log_tail()
            self._proc = None
            if "could not bind" not in log_text and "could not create any TCP/IP sockets" not in log_text:
                break
        raise PgServerError(f"PostgreSQL did not start; its log ({self.log_path}):\n{self.log_tail()}")

    def _wait_ready(self) -> bool:
        """True once the postmaster says it is ready and the port answers; False if it exited first."""
        assert self._proc is not None
        pid_file = self.data_dir / "postmaster.pid"
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                return False
            try:
                lines = pid_file.read_text().splitlines()
            except OSError:
                lines = []
            # postmaster.pid: pid, data dir, start time, port, socket dir, listen address, shm key, status
            if len(lines) >= 8 and lines[0].strip() == str(self._proc.pid) and lines[7].strip() == "ready":
                with contextlib.suppress(OSError), socket.create_connection((HOST, self.port), timeout=1):
                    return True
            time.sleep(0.02)
        self._kill()
        raise PgServerError(
            f"PostgreSQL did not accept connections within {START_TIMEOUT:.0f} s; its log ({self.log_path}):\n"
            f"{self.log_tail()}"
        )

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGQUIT)  # immediate shutdown: children are told to quit, no checkpoint
        try:
            proc.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(STOP_TIMEOUT)

    def stop(self) -> None:
        """Immediate shutdown, then remove the temporary folder. Safe to call twice."""
        try:
            self._kill()
        finally:
            folder, self.folder = self.folder, None
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)
            atexit.unregister(self._stop_at_exit)

    def _stop_at_exit(self) -> None:
        with contextlib.suppress(Exception):
            self.stop()

    def __enter__(self) -> PgServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- databases -------------------------------------------------------------------------------
    def url(self, dbname: str) -> str:
        if self.port is None or self._proc is None:
            raise PgServerError("the PostgreSQL test server is not running (call start() first)")
        return f"postgresql://{USER}@{HOST}:{self.port}/{dbname}"

    async def create_database(self, name: str | None = None) -> str:
        """Create a fresh empty database (a unique name when none is given) and return its URL."""
        import asyncpg

        if name is None:
            name = f"t_{next(self._counter)}_{os.getpid()}"
        if not _DB_NAME.fullmatch(name):
            raise ValueError(f"database name {name!r}: use lower-case letters, digits and _")
        conn = await asyncpg.connect(self.url("postgres"))
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()
        return self.url(name)

    async def drop_database(self, name_or_url: str) -> None:
        """Drop a database made by create_database(), closing any connection still open to it (PostgreSQL >= 13)."""
        import asyncpg

        name = name_or_url.rsplit("/", 1)[-1]
        if not _DB_NAME.fullmatch(name):
            raise ValueError(f"database name {name!r}: use lower-case letters, digits and _")
        conn = await asyncpg.connect(self.url("postgres"))
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()
