"""Sighting tables kept in files between runs (``rules.sighting.built_tables.TableStore``).

Building a large board's line-of-sight tables takes the better part of a second; reading them
back takes a few milliseconds. Each set of tables is one file, named by the sighting rule, the
visibility and a digest of the board's content, so a changed board never reads another's. The
folder is a cache and nothing more: deleting it, or any file in it, costs only the time to build
again. A file that is not whole (cut short, changed, from another version) is never read; it is
removed and built anew.

A file: ``MAGIC``, the number of cells and the bytes per table (4 bytes each, little-endian),
the SHA-256 of what follows, then each cell's table as that many little-endian bytes.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)

MAGIC = b"vedette sighting tables 1\n"
_HEAD = len(MAGIC) + 4 + 4 + 32
SUFFIX = ".tables"


class TableFiles:
    """A folder of sighting tables, one file a set."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, key: str) -> Path:
        return self.folder / f"{key}{SUFFIX}"

    def load(self, key: str, cells: int) -> list[int] | None:
        path = self.path(key)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        tables = _decoded(data, cells)
        if tables is None:
            log.warning("sighting tables %s are damaged or stale: building them again", path)
            with contextlib.suppress(OSError):
                path.unlink()
        return tables

    def save(self, key: str, tables: list[int], cells: int) -> None:
        width = cells // 8 + 1
        payload = b"".join(t.to_bytes(width, "little") for t in tables)
        data = (MAGIC + cells.to_bytes(4, "little") + width.to_bytes(4, "little")
                + hashlib.sha256(payload).digest() + payload)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            # Written whole under another name first: a reader never finds half a file.
            handle, temporary = tempfile.mkstemp(dir=self.folder, suffix=".part")
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(data)
                os.replace(temporary, self.path(key))
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except OSError as e:
            log.warning("could not keep sighting tables in %s (%s): they are built again after "
                        "each restart", self.folder, e)


def _decoded(data: bytes, cells: int) -> list[int] | None:
    """The tables a file holds, or ``None`` if it is not a whole file of ``cells`` tables."""
    if len(data) < _HEAD or not data.startswith(MAGIC):
        return None
    at = len(MAGIC)
    stored = int.from_bytes(data[at:at + 4], "little")
    width = int.from_bytes(data[at + 4:at + 8], "little")
    digest = data[at + 8:_HEAD]
    payload = memoryview(data)[_HEAD:]
    if stored != cells or width < 1 or len(payload) != cells * width:
        return None
    if hashlib.sha256(payload).digest() != digest:
        return None
    return [int.from_bytes(payload[i:i + width], "little")
            for i in range(0, cells * width, width)]
