"""Game ids people can say: the scenario's name and a number, such as ``flank-march-3``.

The number counts the games of that scenario made in the same server: 1 + the highest number
that server has used for it (rulings FLOW-40, FLOW-41). Games made outside Discord (no server)
are numbered among themselves. An id is the game's key in the whole database, so a number that
another server's game already holds is passed over. Ids fit the bot's button ids
(``bot.views.GAME_ID``: letters, digits, ``-`` and ``_``, at most 40 characters).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: The longest game id (the bot's button ids carry it).
MAX_ID = 40
#: Room kept for ``-`` and the number.
_NUMBER_ROOM = 7


def stem(scenario_id: str) -> str:
    """The scenario's part of its games' ids: the scenario id, cut to leave room for the
    number."""
    return scenario_id[:MAX_ID - _NUMBER_ROOM].rstrip("-_") or "game"


def number_of(game_id: str, scenario_id: str) -> int | None:
    """The number in a game id made from ``scenario_id``, or ``None`` if it is not one."""
    found = re.fullmatch(re.escape(stem(scenario_id)) + r"-([1-9][0-9]{0,5})", game_id)
    return int(found[1]) if found else None


def next_game_id(scenario_id: str, guild_id: int | None,
                 existing: Iterable[tuple[str, int | None]]) -> str:
    """The id for a new game of ``scenario_id`` in server ``guild_id``, given the games that
    exist (each as its id and its server)."""
    games = list(existing)
    taken = {gid for gid, _ in games}
    used = [n for gid, guild in games if guild == guild_id
            and (n := number_of(gid, scenario_id)) is not None]
    number = max(used, default=0) + 1
    while f"{stem(scenario_id)}-{number}" in taken:  # another server's game holds it
        number += 1
    return f"{stem(scenario_id)}-{number}"
