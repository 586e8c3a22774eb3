"""Online backups with SQLite's backup API: safe while the bot is running and writing."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import uuid
from pathlib import Path

from storage.db import BUSY_TIMEOUT_MS
from storage.errors import StorageError


def backup_file(source: Path, dest: Path, *, overwrite: bool = False) -> Path:
    """Copy the live database ``source`` to ``dest``, consistently, as one self-contained file.

    Blocking: ``Store.backup`` runs it in a worker thread. The copy is made from a snapshot of
    ``source`` (a WAL read transaction), so writers carry on meanwhile and the copy holds every
    transaction committed before it started and none after. It is written to a temporary file
    next to ``dest``, checked, switched out of WAL mode (no ``-wal`` file to forget), and only then
    renamed to ``dest``: ``dest`` is never half-written.
    """
    source = source.resolve()
    dest = dest.resolve()
    if dest == source:
        raise StorageError(f"cannot back up {source} onto itself")
    if dest.exists() and not overwrite:
        raise StorageError(f"backup destination {dest} exists (pass overwrite=True to replace it)")
    if not dest.parent.is_dir():
        raise StorageError(f"backup destination folder {dest.parent} does not exist")
    partial = dest.with_name(f".{dest.name}.{uuid.uuid4().hex}.partial")
    try:
        _copy(source, partial)
        for sidecar in ("-wal", "-shm", "-journal"):  # a stale WAL would be replayed on open
            with contextlib.suppress(FileNotFoundError):
                os.remove(f"{dest}{sidecar}")
        os.replace(partial, dest)
    except sqlite3.Error as error:
        raise StorageError(f"backup of {source} to {dest} failed: {error}") from error
    finally:
        for leftover in ("", "-journal", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                os.remove(f"{partial}{leftover}")
    return dest


def _copy(source: Path, partial: Path) -> None:
    src = sqlite3.connect(source, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    try:
        src.execute("PRAGMA query_only = ON")
        dst = sqlite3.connect(partial, isolation_level=None)
        try:
            src.backup(dst)
            mode = dst.execute("PRAGMA journal_mode = DELETE").fetchone()[0]
            if str(mode).lower() != "delete":
                raise StorageError(f"backup {partial} stayed in journal mode {mode!r}")
            check = dst.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise StorageError(f"backup {partial} failed its integrity check: {check}")
        finally:
            dst.close()
    finally:
        src.close()
