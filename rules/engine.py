"""The rules engine: given a state, a side's command and the dice, the events that follow.

```decide`` never changes anything itself. It refuses a command it cannot accept with a
``Refusal`` whose words depend only on what the commanding side may know (an enemy unit's name
gets the same answer as a name that belongs to no unit), or returns the events, which the umpire
stores and folds. After every command the sides' sighting is brought up to date.
"""

from __future__ import annotations

import hashlib

import rules.modules.built  # noqa: F401  (every built module, registered)
from rules import commands as cmd
from rules import events as ev
from rules.knowledge.passing import seen_on_the_way
from rules.knowledge.sighted import faces_turned
from rules.modules.registry import in_force, owner_of
from rules.orders.core import done, formation, move
from rules.orders.host import host_order
from rules.outcome import DiceSource as DiceSource  # re-exported: the umpire's dice
from rules.outcome import Outcome as Outcome  # re-exported: callers build on it from here
from rules.reading import parse_command
from rules.refusal import Refusal as Refusal  # re-exported: callers catch it from here
from rules.state import GameState
from rules.turn import opening, reaction, victory
from rules.turn.status import GameStatus

#: The reason given when the game ends because its last turn has been played.
LAST_TURN_PLAYED = "The last turn has been played."
START = "start"
END = "end"


def start(state: GameState, seed_sha256: str, dice: DiceSource, *, user: int | None = None,
          sources_commitment: str = "") -> Outcome:
    """Begin play: announce the dice commitment (and the commitment to the scenario's and
    ruleset's texts) and open the first phase."""
    if state.status != GameStatus.SETUP:
        raise Refusal("the game has already started")
    out = Outcome(state, dice)
    out.add(ev.CommandAccepted(audience="umpire", kind=START, command={"kind": START},
                               host=True, user=user))
    out.add(ev.GameStarted(seed_sha256=seed_sha256, sources_commitment=sources_commitment))
    for module in in_force(out.state.modules):
        module.on_game_start(out)
    victory.track(out)
    if opening.waiting(out.state) is None:
        opening.open_play(out)
    # else the first step opens once the choices asked before play are made (rules.turn.opening)
    return out


def end(state: GameState, seed_hex: str, reason: str, dice: DiceSource, *,
        user: int | None = None) -> Outcome:
    """The host ends the game: the seed is revealed so that every roll can be checked."""
    if state.status == GameStatus.ENDED:
        raise Refusal("the game is already over")
    out = Outcome(state, dice)
    out.add(ev.CommandAccepted(audience="umpire", kind=END, command={"kind": END,
                                                                     "reason": reason},
                               host=True, user=user))
    if state.status != GameStatus.SETUP and opening.waiting(state) is None:
        # A game ended before it started has no result: nothing was played to score, and no
        # roll may be made on a seed whose commitment was never published. Nor has one ended
        # while its first turn still waited for a choice made before play (ruling CV-41).
        _game_ends(out)
    out.add(ev.GameEnded(audience="public", seed_hex=seed_hex, reason=reason))
    return out


def end_if_over(out: Outcome, seed_hex: str) -> bool:
    """When the command played the last phase, the game ends in the same batch of events, with
    the seed: a finished game can never be left unended."""
    if out.finished and out.state.status != GameStatus.ENDED:
        _game_ends(out)
        out.add(ev.GameEnded(audience="public", seed_hex=seed_hex, reason=LAST_TURN_PLAYED))
    return out.finished


def _game_ends(out: Outcome) -> None:
    """The modules' last word (victory rolls, scores), then the scenario's victory conditions,
    before the seed is revealed."""
    for module in in_force(out.state.modules):
        module.on_game_end(out)
    victory.decide(out)


def decide(state: GameState, side: str, command: cmd.Command, dice: DiceSource,
           host: bool = False, request_id: str | None = None, *, user: int | None = None
           ) -> Outcome:
    """The events that follow from ``side``'s command (``host`` for the host's tools).

    The first event records the command in full, with who gave it (``user``) and its
    ``request_id`` when there is one, so that the same request is never applied twice and the
    whole game can be decided again from its log; it comes first so that every later event,
    and every roll, keeps its place in the log.
    """
    out = Outcome(state, dice)
    out.add(ev.CommandAccepted(audience="umpire",
                               request="" if request_id is None else request_key(request_id),
                               kind=command.kind, command=command.model_dump(mode="json"),
                               side=side, host=host, user=user))
    if command.host_only:
        if not host:
            raise Refusal("only the game's host can do that")
        host_order(out, command)
        opening.open_when_chosen(state, out)
        return out
    if state.status == GameStatus.SETUP:
        raise Refusal("the game has not started yet")
    if state.status == GameStatus.PAUSED:
        raise Refusal("the game is paused by the host")
    if state.status == GameStatus.ENDED:
        raise Refusal("the game is over")
    if not isinstance(command, cmd.Answer):
        opening.require_begun(state)
    match command:
        case cmd.Move():
            move(out, side, command)
        case cmd.SetFormation():
            formation(out, side, command)
        case cmd.Done():
            done(out, side)
        case cmd.Answer(question=question, choice=choice):
            reaction.answer_own(out, side, question, choice)
            opening.open_when_chosen(state, out)
        case _:
            module = owner_of(command)
            if module is None or module.name not in state.modules:
                raise Refusal("that order belongs to rules this game does not play")
            module.decide(out, side, command)
    # What the command did to the faces of counters, told to their owners once it is done:
    # where they were turned face up on the way, then how they stand now.
    for seen in seen_on_the_way(out.turned_on_the_way):
        out.add(seen)
    for e in faces_turned(state, out.state):
        out.add(e)
    return out


def redecide(state: GameState, accepted: ev.CommandAccepted, seed_hex: str, dice: DiceSource,
             *, sources_commitment: str = "") -> Outcome:
    """Decide a logged command again, as the umpire did: the same events must follow.
    ``sources_commitment`` is what the start commits to for the texts being checked.

    Raises ``Refusal`` when the rules refuse it, ``ValueError`` when the log does not hold the
    command in full (a log written before commands were kept)."""
    if accepted.command is None:
        raise ValueError(f"only the kind of the {accepted.kind!r} command was logged")
    if accepted.kind == START:
        return start(state, hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest(), dice,
                     user=accepted.user, sources_commitment=sources_commitment)
    if accepted.kind == END:
        return end(state, seed_hex, str(accepted.command.get("reason", "")), dice,
                   user=accepted.user)
    command = parse_command(accepted.command)
    out = decide(state, accepted.side, command, dice, accepted.host,
                 accepted.request or None, user=accepted.user)
    end_if_over(out, seed_hex)
    return out


def request_key(request_id: str) -> str:
    """How a request id is kept in the log: as given when short, else its SHA-256 (so that two
    long ids never collide on a common prefix)."""
    if len(request_id) <= 100:
        return request_id
    return "sha256:" + hashlib.sha256(request_id.encode()).hexdigest()
