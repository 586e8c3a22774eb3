"""News held for a side's next turn dossier.

What a side learns while it does not act (the enemy's moves in sight, fire on its units, the
rolls that decide them) is worded when it happens, from the side's view then, and held here
until the side's next message: the call for orders of a phase it acts in, a question it must
answer at once, or the end of the game (``umpire.games.inbox``). Holding it and releasing it
happen in the transaction of the commit that causes them, so a crash neither loses news nor
tells it twice.

Every function here runs inside a write transaction (``Conn`` from ``Database.write``) that
holds the game's lock, except ``read``, which any connection may run.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import NamedTuple

from storage.sql import Conn


class Held(NamedTuple):
    """One piece of held news: the section of the dossier it goes in
    (``umpire.words.dossier``) and its words."""

    section: str
    text: str


async def read(conn: Conn, game_id: str) -> dict[str, list[Held]]:
    """Each side's held news, oldest first."""
    found = await conn.fetch(
        "SELECT side, section, text FROM held_news WHERE game_id = ? ORDER BY side, n",
        (game_id,))
    held: dict[str, list[Held]] = {}
    for side, section, text in found:
        held.setdefault(str(side), []).append(Held(str(section), str(text)))
    return held


async def hold(conn: Conn, game_id: str, news: Mapping[str, Sequence[Held]]) -> None:
    """Add ``news`` (by side) after what each side holds already."""
    for side, texts in news.items():
        if not texts:
            continue
        found = await conn.fetch(
            "SELECT coalesce(max(n), 0) FROM held_news WHERE game_id = ? AND side = ?",
            (game_id, side))
        first = int(found[0][0]) + 1
        await conn.executemany(
            "INSERT INTO held_news (game_id, side, n, section, text) VALUES (?, ?, ?, ?, ?)",
            [(game_id, side, first + i, h.section, h.text) for i, h in enumerate(texts)])


async def release(conn: Conn, game_id: str, sides: Collection[str]) -> None:
    """Forget what ``sides`` held: it has been put in a message queued in the same
    transaction."""
    for side in sides:
        await conn.run("DELETE FROM held_news WHERE game_id = ? AND side = ?",
                           (game_id, side))
