"""``/game replay``: a side's map as it stood at the end of a past turn, rebuilt from the log.

The state at the end of turn N is the fold of every event before the first phase of turn N + 1
(ruling FLOW-53); the map is drawn from that state's projection for the side, through the same
``rules.view.project`` and renderer as a map during play, so a past map shows what the side knew
then and nothing it learned later.

Who may replay what (ruling FLOW-54): during play, a player replays their own side only; the
other side's map and the umpire's (``umpire``) only once the game is over. During play every
other side's name is refused with the same words as a side that does not exist, so a forged
button learns nothing.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from dataclasses import dataclass

from rules import events as ev
from rules.reading import event_from_json
from rules.scenario.loader import LoadedScenario
from rules.state import GameState, apply, initial_state
from rules.view import SideView, project
from storage.records import GameRecord
from umpire.answers import UmpireError
from umpire.base import UmpireBase
from umpire.games import seats
from umpire.verify import record
from umpire.words import replies as wording
from umpire.words import whole_truth

#: The side word for the umpire's view of everything.
UMPIRE = "umpire"


def own_side_only(side: str) -> str:
    """The refusal for any side but the player's own during play (an enemy side, the umpire's
    view, or a side that does not exist: the same words for all)."""
    return f"while the game is in play you can replay only your own side's map ({side})"


def no_such_side(sides: Iterable[str]) -> str:
    return f"no such side to replay; choose one of: {', '.join([*sides, UMPIRE])}"


def no_such_turn(first: int, last: int) -> str:
    return f"that turn cannot be replayed: choose a turn from {first} to {last}"


@dataclass(frozen=True, slots=True)
class ReplayFrame:
    """One replayed map: the words, the picture (``None`` when pictures are off), and where it
    stands among the turns that can be replayed (for the Previous and Next buttons)."""

    game_id: str
    side: str
    turn: int
    first: int
    last: int
    text: str
    image: bytes | None


def state_at_turn(initial: GameState, events: Iterable[ev.Event], turn: int) -> GameState:
    """The state at the end of ``turn``: every event folded until the first phase of a later
    turn begins."""
    state = initial
    for e in events:
        if isinstance(e, ev.PhaseBegan) and e.turn > turn:
            break
        state = apply(state, e)
    return state


def frame_text(view: SideView, game_id: str, turn: int, now: bool) -> str:
    when = "as it stands now" if now else f"at the end of turn {turn}"
    return f"Replay of game `{game_id}`: {view.side_name}'s map {when}. " + \
        wording.map_caption(view)


class Replaying(UmpireBase):
    """Replaying a game's past maps for its players (and, after the end, anyone who may read
    it)."""

    async def replay(self, game_id: str, user_id: int, side: str | None = None,
                     turn: int | None = None, *, in_server: bool = False,
                     is_admin: bool = False) -> ReplayFrame:
        """The map of ``side`` (``None``: the asker's own; ``umpire``: everything) at the end
        of ``turn`` (``None``: the latest)."""
        game = await self.repository.get(game_id)
        state = game.state
        player = await self.store.get_player(game_id, user_id)
        if not whole_truth.over(state):
            if player is None:
                raise UmpireError(wording.NOT_PLAYING)
            if side is not None and side.strip() != player.side:
                raise UmpireError(own_side_only(player.side))
            shown = player.side
        else:
            self._require_onlooker(game, user_id, await self.store.players(game_id),
                                   in_server=in_server, is_admin=is_admin,
                                   refusal=seats.NOT_SEEN_REPLAY)
            asked = side.strip() if side is not None else (player.side if player else UMPIRE)
            if asked != UMPIRE and asked not in state.sides:
                raise UmpireError(no_such_side(state.sides))
            shown = asked
        first = game.loaded.scenario.turns[0].turn
        last = state.turn
        turn = last if turn is None else turn
        if not first <= turn <= last:
            raise UmpireError(no_such_turn(first, last))
        view_side = None if shown == UMPIRE else shown
        if turn == last:
            view = await asyncio.to_thread(project, state, view_side)
        else:
            view = await self._past_view(game_id, game.record, game.loaded, turn, view_side)
        image = await self.maps.view_map(view)
        return ReplayFrame(game_id, shown, turn, first, last,
                           frame_text(view, game_id, turn, now=turn == last
                                      and not whole_truth.over(state)), image)

    async def _past_view(self, game_id: str, game_record: GameRecord,
                         loaded: LoadedScenario, turn: int, side: str | None
                         ) -> SideView:
        """The side's view at the end of a past turn, rebuilt from the whole log (off the event
        loop: folding and sighting are CPU work)."""
        without, _ = record.game_options(game_record)
        rows = await self.store.events(game_id)
        logged = [event_from_json(json.dumps(r.payload), r.audience) for r in rows]

        def rebuild() -> SideView:
            return project(state_at_turn(initial_state(loaded, without), logged, turn), side)

        return await asyncio.to_thread(rebuild)
