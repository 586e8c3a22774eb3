"""Who reads the whole truth, and what it looks like.

Once the game is over its seed and record are public, so nothing is hidden any more: a player's
``/map`` shows the umpire's view, ``/units`` every side's units, ``/log`` every side's reports
(ruling FLOW-52). During play only one person reads them: the host of a game created with the
``host_umpires`` option, who takes no side (ruling ORD-41). Anyone else's read starts from their
own side's view (``umpire.reads.reading``): a Manage Server moderator, a second account, a player.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rules.scenario.markup import plain
from rules.state import GameState
from rules.turn.status import GameStatus
from rules.view import own_view
from storage.records import DeliveryRecord
from umpire.games.options import core_option
from umpire.games.seats import HOST_UMPIRES
from umpire.words import replies as wording

#: Said under the map of a finished game, so that nobody mistakes it for their side's view.
MAP_NOTE = " The game is over: this map shows the whole truth, every side's units."
#: Said under the umpiring host's map during play.
UMPIRE_MAP_NOTE = (" You umpire this game: this map shows the whole truth, every side's units; "
                   "no player sees it before the end.")


def over(state: GameState) -> bool:
    """Whether the game is over, so that its players may read the whole truth."""
    return state.status == GameStatus.ENDED


def host_umpires(state: GameState) -> bool:
    """Whether the game was created with the ``host_umpires`` option."""
    return core_option(state.loaded.scenario.scenario.options, HOST_UMPIRES) is True


def umpires(state: GameState, host_user_id: int, user_id: int) -> bool:
    """Whether ``user_id`` umpires the game: its host, in a game the host umpires. Only the
    host's own account: a Manage Server moderator stands in for the host's tools, not for the
    host's eyes."""
    return user_id == host_user_id and host_umpires(state)


def shown_side(state: GameState, side: str) -> str | None:
    """The view a player's read is made from: their side's during play, the umpire's (``None``)
    once the game is over."""
    return None if over(state) else side


def map_note(state: GameState) -> str:
    """Said under a map of the whole truth: why the reader may see it."""
    return MAP_NOTE if over(state) else UMPIRE_MAP_NOTE


def units_text(state: GameState) -> str:
    """Every side's units as the side itself knows them (all of them, nothing guessed), side by
    side in the scenario's order."""
    parts = [f"**{plain(state.side_name(side))}**\n{wording.units_text(own_view(state, side))}"
             for side in state.sides]
    why = "The game is over" if over(state) else "You umpire this game"
    return f"{why}: every side's units.\n\n" + "\n\n".join(parts)


def log_entries(state: GameState, deliveries: Iterable[DeliveryRecord],
                side_of_player: Mapping[str, str]) -> list[str]:
    """Every message of the game, public or to a side, oldest first, each side's marked with
    its name. A message sent to each player of a shared side is listed once."""
    out: list[str] = []
    last: tuple[str, str] | None = None
    for d in deliveries:
        if d.kind == "public":
            side = ""
        elif d.kind == "side":
            side = d.target
        elif d.kind == "player" and d.target in side_of_player:
            side = side_of_player[d.target]
        else:
            continue
        # One message to a side's players is stored once per player, one after the other.
        if (side, d.text) == last:
            continue
        last = (side, d.text)
        out.append(f"[{plain(state.side_name(side))}] {d.text}" if side else d.text)
    return out
