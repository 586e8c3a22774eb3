"""The host's notice of requests to join a started game: one DM listing them.

The notice is a heading and one line per request, each line written when its request is made
(``seats.request_to_host``: who asks, for which side, from where, and how to accept or refuse).
While the notice waits unsent, a new request rewrites it (``storage.seat_notices``): the lines of
requests still open are kept, a line of the same user's earlier request gives way to the new
one, and the new line comes last. A notice started after the last one was sent tells the
requests made since; ``/game status`` lists every open request.

A line is kept as it was written rather than written again, because what it says of where the
user asked from is known only when they ask.
"""

from __future__ import annotations

import re
from collections.abc import Collection

BULLET = "• "
_ASKER = re.compile(re.escape(BULLET) + r"<@(\d+)>")


def heading(game_id: str) -> str:
    return (f"**Requests to join** game `{game_id}`, which has started: each waits for you to "
            "accept or refuse it. /game status lists every open request.")


def compose(game_id: str, waiting: str | None, user_id: int, line: str,
            asking: Collection[int]) -> str:
    """The notice telling the new request of ``user_id`` (its ``line``), written over the
    notice still ``waiting`` unsent (``None``: a new notice), where ``asking`` are the users
    whose requests are open."""
    kept = [old for old in lines(waiting)
            if (asker := _asker(old)) is not None and asker in asking and asker != user_id]
    return "\n".join([heading(game_id), *kept, BULLET + line])


def lines(text: str | None) -> list[str]:
    """The request lines of a notice, in order."""
    return [line for line in (text or "").splitlines() if _asker(line) is not None]


def _asker(line: str) -> int | None:
    found = _ASKER.match(line)
    return int(found.group(1)) if found else None

