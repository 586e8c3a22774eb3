"""A folder of files that are only ever read whole: the bot's cache between runs.

What is kept here (sighting tables, terrain layers) takes long to build and little to read back,
and can always be built again, so the folder is a cache and nothing more: deleting it, or any
file in it, costs only the time to build. Each file begins with a line naming its kind and
format, then the SHA-256 of what follows. A file that is not whole (cut short, changed, of
another kind or format) is never read: it is removed, and built anew by whoever asked. A file
is written under another name first and then renamed, so that no reader finds half a file.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)

_DIGEST = 32


class CacheFiles:
    """Files of one kind in ``folder``: ``key`` + ``suffix`` each, starting with ``magic``.
    ``what`` names the kind in the host's log ("sighting tables")."""

    def __init__(self, folder: Path, *, suffix: str, magic: bytes, what: str) -> None:
        self.folder = folder
        self.suffix = suffix
        self.magic = magic
        self.what = what

    def path(self, key: str) -> Path:
        return self.folder / f"{key}{self.suffix}"

    def read(self, key: str) -> bytes | None:
        """What was kept under ``key``, or ``None`` when nothing whole was."""
        path = self.path(key)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        payload = self._checked(data)
        if payload is None:
            log.warning("%s %s are damaged or stale: building them again", self.what, path)
            with contextlib.suppress(OSError):
                path.unlink()
        return payload

    def write(self, key: str, payload: bytes) -> None:
        """Keep ``payload`` under ``key``. A folder that cannot be written loses nothing but
        the time to build after a restart, so that is logged, not raised."""
        head = self.magic + hashlib.sha256(payload).digest()
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.folder, suffix=".part")
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(head)
                    out.write(payload)
                os.replace(temporary, self.path(key))
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except OSError as e:
            log.warning("could not keep %s in %s (%s): they are built again after each restart",
                        self.what, self.folder, e)

    def _checked(self, data: bytes) -> bytes | None:
        start = len(self.magic) + _DIGEST
        if len(data) < start or not data.startswith(self.magic):
            return None
        payload = data[start:]
        if hashlib.sha256(payload).digest() != data[len(self.magic):start]:
            return None
        return payload
