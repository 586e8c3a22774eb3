"""A throwaway PostgreSQL server for the tests, benchmarks and test scripts.

``server()`` gives the session's server, once per process:

- ``VEDETTE_TEST_POSTGRES`` (a ``postgresql://`` URL) if it is set: a server someone runs;
- otherwise one started here, when ``initdb`` is found (on ``PATH`` or in
  ``/usr/lib/postgresql/*/bin``): a fresh cluster in a temporary folder, listening on 127.0.0.1
  on a free port, trusting local logins. PostgreSQL refuses to run as root, so as root it runs
  as the ``postgres`` user (``runuser -u postgres --``), in a folder that user owns. It is
  stopped, and its folder removed, at ``stop()`` or when the process ends (``atexit``; and a
  small watchdog process stops it if the process is killed).

Without either, ``server()`` raises ``Unavailable`` saying what is missing. ``fresh_schema``
makes an empty schema and returns a URL whose connections use it (``?search_path=…``): cheap
isolation per test (see ``tests/conftest.py``).

By default the server started here does not wait for its disk (``fsync=off``): the tests do not
survive power cuts. ``start(durable=True)`` runs it as a real server would, for benchmarks.

From a script: ``python -m tests.support.pg_server`` starts one, prints its URL and stops it on
Enter.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ENV_URL = "VEDETTE_TEST_POSTGRES"
ENV_REQUIRE = "VEDETTE_REQUIRE_POSTGRES"
DATABASE = "vedette_test"


class Unavailable(Exception):
    """No PostgreSQL server for the tests; the message says what is missing."""


def required() -> bool:
    """Whether a missing server fails the run (``VEDETTE_REQUIRE_POSTGRES=1``, set by CI)."""
    return os.environ.get(ENV_REQUIRE, "") not in ("", "0")


def find_bin() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: from ``PATH``, else the newest of
    Debian's ``/usr/lib/postgresql/*/bin``."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    return Path(candidates[-1]).parent if candidates else None


@dataclass
class Server:
    """A running server: ``url`` names its test database."""

    url: str
    folder: Path | None = None
    bin: Path | None = None
    _as: list[str] = field(default_factory=list)
    _watchdog: subprocess.Popen[bytes] | None = None

    def stop(self) -> None:
        """Stop the server started here (and remove its folder); nothing for an outside one."""
        if self.folder is None or self.bin is None:
            return
        folder, self.folder = self.folder, None
        _stop_cluster(self._as, self.bin, folder)
        if self._watchdog is not None:
            self._watchdog.kill()
            self._watchdog.wait()


def _stop_cluster(prefix: list[str], bin_dir: Path, folder: Path) -> None:
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run([*prefix, str(bin_dir / "pg_ctl"), "-D", str(folder / "data"),
                        "-m", "fast", "-w", "-t", "60", "stop"],
                       capture_output=True, timeout=90, check=False)
    shutil.rmtree(folder, ignore_errors=True)


# Run beside the server: when the process that started it ends without stopping it (killed,
# so that atexit never ran), stop it. Arguments: that process's pid, then _stop_cluster's.
_WATCHDOG = """
import json, os, sys, time
from pathlib import Path
from tests.support.pg_server import _stop_cluster
owner, prefix, bin_dir, folder = int(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3], sys.argv[4]
while os.getppid() == owner:
    time.sleep(0.5)
_stop_cluster(prefix, Path(bin_dir), Path(folder))
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _run_as() -> tuple[list[str], int | None, int | None]:
    """The command prefix to run PostgreSQL's programs, and the uid/gid to own its folder."""
    if os.geteuid() != 0:
        return [], None, None
    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        raise Unavailable("running as root, and there is no 'postgres' user to run the "
                          "PostgreSQL server as") from None
    if not shutil.which("runuser"):
        raise Unavailable("running as root, and there is no runuser to start PostgreSQL as "
                          "the 'postgres' user")
    return ["runuser", "-u", "postgres", "--"], user.pw_uid, user.pw_gid


def start(*, durable: bool = False) -> Server:
    """Start a throwaway server (see the module's text); ``Unavailable`` if it cannot."""
    bin_dir = find_bin()
    if bin_dir is None:
        raise Unavailable("no PostgreSQL server: initdb is not on PATH nor in "
                          f"/usr/lib/postgresql/*/bin, and {ENV_URL} is not set")
    prefix, uid, gid = _run_as()
    folder = Path(tempfile.mkdtemp(prefix="vedette-pg-"))
    if uid is not None and gid is not None:
        os.chown(folder, uid, gid)
    data = folder / "data"
    try:
        _check([*prefix, str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres",
                         "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"], "initdb")
        settings = ["-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={folder}",
                    "-c", "max_connections=300", "-c", "shared_buffers=64MB"]
        if not durable:
            settings += ["-c", "fsync=off", "-c", "synchronous_commit=off",
                         "-c", "full_page_writes=off"]
        for attempt in range(3):
            port = _free_port()
            done = subprocess.run(
                [*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"),
                          "-w", "-t", "60", "-o", " ".join([*settings, "-p", str(port)]), "start"],
                capture_output=True, text=True, timeout=90, check=False)
            if done.returncode == 0:
                break
            if attempt == 2:
                log = (folder / "log").read_text(errors="replace")[-2000:]
                raise Unavailable(f"the PostgreSQL server did not start: {done.stderr} {log}")
        server = Server(f"postgresql://postgres@127.0.0.1:{port}/{DATABASE}", folder, bin_dir,
                        prefix)
        atexit.register(server.stop)
        server._watchdog = subprocess.Popen(
            [sys.executable, "-c", _WATCHDOG, str(os.getpid()), json.dumps(prefix),
             str(bin_dir), str(folder)],
            cwd=Path(__file__).resolve().parents[2], stdin=subprocess.DEVNULL,
            start_new_session=True)
        createdb = [*prefix, str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(port),
                    "-U", "postgres", DATABASE]
        try:  # a natural-language collation, so that the tests see the schema's own "C" order
            _check([*createdb, "--template=template0", "--locale-provider=icu",
                    "--icu-locale=en-US", "--locale=C.UTF-8"], "createdb")
        except Unavailable:
            _check(createdb, "createdb")
        return server
    except BaseException:
        if (data / "postmaster.pid").exists():
            subprocess.run([*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-m",
                                     "immediate", "stop"], capture_output=True, check=False)
        shutil.rmtree(folder, ignore_errors=True)
        raise


def _check(command: list[str], what: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False,
                          cwd="/")
    if done.returncode != 0:
        raise Unavailable(f"{what} failed: {done.stderr.strip() or done.stdout.strip()}")


_SERVER: Server | None = None
_FAILED: str | None = None


def server() -> Server:
    """The process's server: ``VEDETTE_TEST_POSTGRES``, or one started here (once)."""
    global _SERVER, _FAILED
    if _SERVER is not None:
        return _SERVER
    if _FAILED is not None:
        raise Unavailable(_FAILED)
    url = os.environ.get(ENV_URL, "").strip()
    try:
        _SERVER = Server(url) if url else start()
    except Unavailable as error:
        _FAILED = str(error)
        raise
    return _SERVER


def stop() -> None:
    """Stop the process's server if it was started here."""
    global _SERVER
    if _SERVER is not None:
        _SERVER.stop()
        _SERVER = None


def with_schema(url: str, schema: str) -> str:
    """``url`` whose connections use ``schema`` first (asyncpg passes unknown query
    parameters to the server as settings)."""
    parts = urlsplit(url)
    query = f"{parts.query}&search_path={schema}" if parts.query else f"search_path={schema}"
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, parts.fragment))


async def fresh_schema(url: str) -> tuple[str, str]:
    """A new, empty schema in the database at ``url``: its name and a URL that uses it."""
    import asyncpg

    name = f"t_{uuid.uuid4().hex[:16]}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE SCHEMA {name}")
    finally:
        await conn.close()
    return name, with_schema(url, name)


async def drop_schema(url: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
    finally:
        await conn.close()


if __name__ == "__main__":  # pragma: no cover
    running = server()
    print(running.url, flush=True)
    with contextlib.suppress(EOFError, KeyboardInterrupt):
        input()
    stop()
