"""Text that scenario authors or players supplied (titles, unit, side and place names, the
host's reasons), made literal inside Vedette's messages.

Messages use light markdown (``**bold**``, code spans). A name such as ``**Jackson**`` or a pause
reason such as ``@everyone look`` must read as typed, never format the message around it or call
anyone: markdown characters are escaped with a backslash, mentions are broken with a zero-width
space, and line breaks become spaces (a name is one line)."""

from __future__ import annotations

import re

#: Characters that start markdown, masked links, mentions, channels, emoji and timestamps.
_SPECIAL = re.compile(r"([\\*_`~|\[\]<>#])")
_MENTION = re.compile(r"@(everyone|here)")
ZERO_WIDTH_SPACE = "\u200b"


def plain(text: str) -> str:
    """``text`` as it must appear literally in a message."""
    one_line = " ".join(text.splitlines())
    return _MENTION.sub(f"@{ZERO_WIDTH_SPACE}\\1", _SPECIAL.sub(r"\\\1", one_line))
