"""Sighting tables kept in files between runs (``rules.sighting.built_tables.TableStore``).

Building a large board's line-of-sight tables takes the better part of a second; reading them
back takes a few milliseconds. Each set of tables is one file of the bot's cache folder
(``storage.cache.files``), named by the sighting rule, the visibility and a digest of the
board's content, so a changed board never reads another's.

What a file holds: the number of cells and the bytes per table (4 bytes each, little-endian),
then each cell's table as that many little-endian bytes.
"""

from __future__ import annotations

from pathlib import Path

from storage.cache.files import CacheFiles

MAGIC = b"vedette sighting tables 2\n"
SUFFIX = ".tables"


class TableFiles:
    """A folder of sighting tables, one file a set."""

    def __init__(self, folder: Path) -> None:
        self.files = CacheFiles(folder, suffix=SUFFIX, magic=MAGIC, what="sighting tables")

    def load(self, key: str, cells: int) -> list[int] | None:
        payload = self.files.read(key)
        return None if payload is None else _decoded(payload, cells)

    def save(self, key: str, tables: list[int], cells: int) -> None:
        width = cells // 8 + 1
        self.files.write(key, cells.to_bytes(4, "little") + width.to_bytes(4, "little")
                         + b"".join(t.to_bytes(width, "little") for t in tables))


def _decoded(payload: bytes, cells: int) -> list[int] | None:
    """The tables ``payload`` holds, or ``None`` if it is not ``cells`` tables."""
    if len(payload) < 8:
        return None
    stored = int.from_bytes(payload[:4], "little")
    width = int.from_bytes(payload[4:8], "little")
    body = memoryview(payload)[8:]
    if stored != cells or width < 1 or len(body) != cells * width:
        return None
    return [int.from_bytes(body[i:i + width], "little") for i in range(0, cells * width, width)]
