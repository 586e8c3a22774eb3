"""The quiet inbox: each side hears of a batch of events in one message, and of what happened
while it did not act, once, in its next turn dossier.

A batch's messages to a side (``umpire.games.routing``) are folded into one:

- **the side's call for orders** (a phase it acts in opens) or **a question it must answer at
  once** goes out now, opened by everything the side has held since its last message: its
  turn dossier;
- **the side's own command**, or a batch that ends or begins a phase the side acts in (a
  deadline, a pass by itself): what it caused for the side goes out now, in one message
  (for a command, the answer its player reads);
- **anything else** (the enemy moved in sight, fired on the side's units, rolled for them; a
  clock or the host acted) is held (``storage.held_news``) for the side's next dossier. It
  was worded when it happened, from the side's view then.

At the end of the game every side gets what it still holds. Within a message, a secret roll
sits right after the result it decides (the rules log the roll first), and a message of more
than one kind of news is laid out as a dossier, in sections (``umpire.words.dossier``).

A player whose Done for the turn stands on a side whose others are still at it (ruling FLOW-70)
is not sent the side's call for orders: what the call opened with (the side's dossier) is held
for that player alone (``holder``), and goes out with the next call or question they are sent,
or at the end of the game.

This decides only *when* a side hears what routing already worded for it: whether a piece goes
now or waits depends on the side's own phase, its own commands and its own questions, all of
which the side knows (ruling INFO-13), never on what the enemy did out of its sight.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from storage.held_news import Held
from storage.json_codec import JsonObject
from umpire.games.routing import Message, Piece
from umpire.words.dossier import Section, dossier_text

#: A piece of a side's message: its section and its words.
Told = tuple[Section, str]


@dataclass(frozen=True, slots=True)
class Folded:
    """A batch's messages with each side's folded into one, what is to be held for later and
    which sides' held news went out.

    ``answer``: the words of the commanding player's answer (their own side's message of the
    batch, which is ``Message.answers``), when the batch had one for their side."""

    messages: list[Message]
    hold: dict[str, list[Held]] = field(default_factory=dict)
    release: frozenset[str] = frozenset()
    answer: str | None = None


def fold(messages: Sequence[Message], held: Mapping[str, Sequence[Held]], *,
         commanding: str | None = None, acknowledged: str | None = None,
         acting: Collection[str] = (), ending: bool = False,
         quiet: Collection[str] = (),
         resting: Mapping[str, Collection[int]] | None = None) -> Folded:
    """Fold a batch's ``messages``: ``held`` is each side's news held before the batch,
    ``commanding`` the side whose player gave the batch's command (``None``: the host, a
    clock), ``acknowledged`` the words the command's answer starts with, ``acting`` the sides
    whose phase the batch ended or began (their message goes now: the phase is theirs),
    ``ending``: the batch ends the game (every side's held news goes out), ``quiet``: sides
    whose players' Done for the turn stands (``umpire.games.standing``): no call for orders,
    and everything else held for their next dossier, unless they gave the command;
    ``resting``: by side, players whose Done for the turn stands on a side that is not quiet:
    the side's call for orders is not sent to them, and what it told is held for each of them
    (under ``holder``)."""
    resting = resting or {}
    by_side: dict[str, list[Message]] = {}
    for m in messages:
        if m.kind == "side":
            by_side.setdefault(m.target, []).append(m)
    out: list[Message] = []
    hold: dict[str, list[Held]] = {}
    released: set[str] = set()
    answer: str | None = None
    for m in messages:
        if m.kind != "side":
            out.append(m)
            continue
        side = m.target
        mine = by_side.pop(side, None)
        if mine is None:
            continue  # folded into the side's first message
        hushed = side in quiet and side != commanding and not ending
        if hushed:
            mine = [p for p in mine if p.piece is not Piece.CALL]
        pieces = beside_results(mine)
        called = any(p.piece in (Piece.CALL, Piece.QUESTION) for p in mine)
        if hushed and not called:
            if pieces:
                hold[side] = [Held(s, t) for s, t in dict.fromkeys(pieces)]
            continue
        if not (ending or called or side == commanding or side in acting):
            hold[side] = [Held(s, t) for s, t in dict.fromkeys(pieces)]
            continue
        if held.get(side):
            released.add(side)
        told = [*_unheld(held.get(side, ())), *pieces]
        one = _one(side, told, mine)
        if side == commanding and not called:
            answer = dossier_text(told, acknowledged)
            one = replace(one, answers=True)
        if not (called or ending):
            out.append(one)
            continue
        # A call or a question: each player's own held news opens theirs; a player whose
        # Done for the turn stands is not called, and holds what the call told the side.
        calling = any(p.piece is Piece.CALL for p in mine)
        apart: list[int] = []
        for user in sorted(resting.get(side, ())) if calling and not ending else ():
            apart.append(user)
            unsaid = beside_results([p for p in mine if p.piece is not Piece.CALL])
            hold[holder(side, user)] = [Held(s, t) for s, t in dict.fromkeys(
                [*_unheld(held.get(side, ())), *unsaid])]
        for user, news in _own(held, side).items():
            if user in apart:
                continue
            apart.append(user)
            released.add(holder(side, user))
            out.append(replace(_one(side, [*_unheld(news), *told], mine), only=(user,)))
        out.append(replace(one, skip=tuple(apart)) if apart else one)
    if ending:
        for key, news in held.items():
            side, _, player = key.partition(HOLDER)
            if player and key not in released and news:
                released.add(key)
                out.append(Message("side", side, dossier_text(_unheld(news)),
                                   only=(int(player),)))
            elif key not in released and news and key not in hold:
                released.add(key)
                out.append(Message("side", key, dossier_text(_unheld(news))))
    return Folded(out, hold, frozenset(released), answer)


#: What separates a side from a player in ``holder``.
HOLDER = "#"


def holder(side: str, user: int) -> str:
    """Whose news is held (``storage.held_news`` keeps it by this): one player of ``side``, for
    news only they did not get (ruling FLOW-70)."""
    return f"{side}{HOLDER}{user}"


def _own(held: Mapping[str, Sequence[Held]], side: str) -> dict[int, Sequence[Held]]:
    """The news held for single players of ``side``, by player."""
    out: dict[int, Sequence[Held]] = {}
    for key, news in held.items():
        mine, _, user = key.partition(HOLDER)
        if mine == side and user.isdigit() and news:
            out[int(user)] = news
    return out


def beside_results(messages: Sequence[Message]) -> list[Told]:
    """The messages' words in order, each with its section, except that secret rolls come
    right after the result that follows them, in its section: the rules log a roll before the
    result it decides, but it reads after it. Rolls with no result after them stay before a
    call for orders, which ends a dossier, among what happened to the side."""
    pieces: list[Told] = []
    rolls: list[str] = []
    for m in messages:
        if m.piece is Piece.ROLL:
            rolls.append(m.text)
        elif m.piece is Piece.CALL:
            pieces += [*((Section.HAPPENED, r) for r in rolls), (m.section, m.text)]
            rolls = []
        else:
            pieces += [(m.section, m.text), *((m.section, r) for r in rolls)]
            rolls = []
    return pieces + [(Section.HAPPENED, r) for r in rolls]


def _unheld(news: Sequence[Held]) -> list[Told]:
    """Held news as pieces (a section this code no longer knows reads as what happened)."""
    known = {s.value for s in Section}
    return [(Section(h.section) if h.section in known else Section.HAPPENED, h.text)
            for h in news]


def _one(side: str, pieces: Sequence[Told], messages: Sequence[Message]) -> Message:
    """One message to ``side`` of ``pieces``, carrying the map, buttons and edit key its
    messages asked for (the last map and key: a later call supersedes an earlier one)."""
    maps = [m.map_for for m in messages if m.map_for]
    buttons: dict[str, JsonObject] = {}
    for m in messages:
        for b in m.buttons:
            buttons[repr(sorted(b.items()))] = b
    keys = [m.edit_key for m in messages if m.edit_key]
    return Message("side", side, dossier_text(pieces), map_for=maps[-1] if maps else None,
                   buttons=tuple(buttons.values()), edit_key=keys[-1] if keys else "")
