"""Seats: who may sit on which side of a game, and when.

- Before the start, members of the game's server seat themselves with ``/game join`` and may
  change side freely; nobody else may join (a game made outside Discord has no server, and no
  such limit).
- After the start, nobody changes side. A join is a *request* the host accepts or refuses; an
  accepted request is announced in the game's channel. A player who left the started game, or
  whose seat the host took away, may only ask to come back to the side they held.
- Leaving a started game and losing a seat are announced in the game's channel too: the other
  side knows who commands the enemy.
- A user has at most one request waiting for the host in a game: asking again, for the same
  side or another, changes nothing and is answered that the request is already with the host.
  To ask for another side, the user withdraws the request (``/game leave``) and asks again: what
  the host was told of a request stays true until the host decides it (ruling FLOW-62).
- A game has at most ``MOST_OPEN_REQUESTS`` requests waiting at once; past that a request is
  refused and nothing is written, so that a flood of accounts cannot bury the host (ruling
  FLOW-62). The host hears of requests in one DM at a time (``umpire.games.seat_notice``).
- In a game whose host umpires (the ``host_umpires`` option, chosen at creation) the host takes
  no side: the host reads every side's units and reports (``umpire.words.whole_truth``), so a seat
  would put the whole truth in one side's hands (ruling ORD-41).

The umpire applies these rules (``Umpire.join``, ``leave``, ``seat``, ``unseat``); this module
holds the decisions and the words, so that they are written once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from rules.scenario.markup import plain
from rules.turn.status import GameStatus

#: The game option by which the host umpires: takes no side and reads the whole truth during play.
HOST_UMPIRES = "host_umpires"


class JoinKind(Enum):
    """What a ``/game join`` becomes."""

    SEAT = "seat"  # before the start: seated at once (or moved to the side chosen)
    REQUEST = "request"  # after the start: a request to the host
    ALREADY = "already"  # already seated on that side: nothing changes


@dataclass(frozen=True)
class JoinDecision:
    kind: JoinKind | None
    refusal: str = ""


NOT_A_MEMBER = ("before the game starts, only members of its server can join it: join from a "
                "channel of that server")
OVER = "the game is over"
NO_SIDE_CHANGE = ("you already command {held}; sides cannot be changed once the game has "
                  "started")
ONLY_FORMER_SIDE = ("you commanded {held} in this game; once it has started you may only ask "
                    "to come back to that side")
HOST_TAKES_NO_SIDE = ("you umpire this game (it was created with host_umpires:true), so you "
                      "take no side: /map, /units and /log show you every side. To play a "
                      "side, create a game without host_umpires")
NOT_SEEN = ("only the game's players and members of its server can see its status; ask in "
            "the game's channel")
NOT_SEEN_REPLAY = ("the replay of a game's maps is for its players and members of its server: "
                   "run /game replay in one of that server's channels, or ask a player or the "
                   "host to share the maps, or the game record posted in the game's channel")
NOT_SEEN_VERIFY = ("checking a game here is for its players and members of its server; anyone "
                   "can check its game record (posted in the game's channel at its end) with "
                   "`vedette verify --record FILE`")


#: The most requests to join one started game that may wait for the host at once.
MOST_OPEN_REQUESTS = 10

ALREADY_ASKED = ("Your request to command {asked} in game `{game_id}` is already with the "
                 "host, who decides it: asking again changes nothing. When you are seated, it "
                 "is announced in the game's channel.")
ALREADY_ASKED_OTHER = ("your request to command {asked} in game `{game_id}` is already with "
                       "the host; you may have one request at a time. To ask for {side_name} "
                       "instead, withdraw it with /game leave, then ask again")
TOO_MANY_ASKING = ("the host of game `{game_id}` already has {most} requests to join waiting, "
                   "the most a game may have; ask in the game's channel, or try again once "
                   "the host has answered some of them")


def started(status: GameStatus) -> bool:
    return status.in_play


def decide_join(status: GameStatus, side: str, *, seated: str | None, former: str | None,
                server_game: bool, in_server: bool, umpire: bool = False) -> JoinDecision:
    """What a join to ``side`` becomes for a user ``seated`` on a side (or not), who held
    ``former`` before leaving the started game (or not). ``server_game``: the game belongs to a
    Discord server; ``in_server``: the user is a member of it; ``umpire``: the user is the host
    of a game the host umpires, who never takes a side."""
    if status == GameStatus.ENDED:
        return JoinDecision(None, OVER)
    if umpire:
        return JoinDecision(None, HOST_TAKES_NO_SIDE)
    if status == GameStatus.SETUP:
        if server_game and not in_server:
            return JoinDecision(None, NOT_A_MEMBER)
        return JoinDecision(JoinKind.SEAT)
    if seated is not None:
        if seated != side:
            return JoinDecision(None, NO_SIDE_CHANGE)
        return JoinDecision(JoinKind.ALREADY)
    if former is not None and former != side:
        return JoinDecision(None, ONLY_FORMER_SIDE)
    return JoinDecision(JoinKind.REQUEST)


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def request_to_host(game_id: str, user_id: int, side: str, side_name: str, *,
                    in_server: bool, former: bool) -> str:
    """The host's notice of a request to join after the start."""
    where = "" if in_server else " (they asked from outside the game's server)"
    back = " They held this side before and left it." if former else ""
    return (f"{mention(user_id)} asks to command {side_name} ({side}) in game `{game_id}`"
            f"{where}.{back} To accept: `/host seat user:{mention(user_id)} side:{side} "
            f"game:{game_id}` (announced in the game's channel). To refuse: "
            f"`/host unseat user:{mention(user_id)} game:{game_id}`.")


def roster_announcement(seated: Sequence[tuple[str, Sequence[int]]]) -> str:
    """Who commands each side as play begins, told to everyone: a seat taken before the start
    is otherwise told to no one, and a player could seat a second account with the enemy and
    read its every secret unseen."""
    parts = [f"{name}: {', '.join(mention(u) for u in users)}" for name, users in seated]
    return "**Seats** as play begins. " + "; ".join(parts) + "."


def seated_announcement(user_id: int, side_name: str, by: int) -> str:
    return (f"**Seat:** {mention(user_id)} now commands {side_name}, seated by "
            f"{mention(by)} after the start.")


def left_announcement(user_id: int, side_name: str) -> str:
    return (f"**Seat:** {mention(user_id)} has left {side_name}. They may come back to "
            f"{side_name} only, and only if the host seats them again.")


def unseated_announcement(user_id: int, side_name: str, by: int, reason: str) -> str:
    why = f" Reason: {plain(reason)}" if reason else ""
    return (f"**Seat:** {mention(by)} has taken {mention(user_id)}'s seat on {side_name} "
            f"away.{why}")
