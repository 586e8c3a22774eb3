"""The after-action report, posted in the game's channel when the game ends.

When the game is over nothing is hidden any more, so the report is written from the whole truth
(the final state and the whole log), never from one side's view: each side's losses measured
against the order of battle, the victory result where the scenario defines one, the seed, and
every secret roll of the game with whom it was told to. A long list of rolls goes in an attached
text file, so that the channel's post stays short (ruling FLOW-51).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.chancellorsville.events import VictoryDecided
from rules.chancellorsville.victory import MODULE as RAID_VICTORY
from rules.forces.location import Eliminated, Withdrawn
from rules.forces.words import COMBAT_KINDS
from rules.reading import event_from_json
from rules.scenario.markup import plain
from rules.scenario.tables import result_meaning
from rules.state import GameState
from rules.turn.victory import VictoryReached
from rules.view import public_view
from storage.records import NewDelivery
from umpire.verify.check import logged_outcome, roll_words
from umpire.verify.record import LoggedEvent

#: Rule modules that decide a victory at the end of the game (their result is an event in the
#: log). A scenario playing none of them, and with no ``[victory]`` of its own, defines no
#: victory conditions.
VICTORY_MODULES = frozenset({RAID_VICTORY})
#: The events that carry such a result, each able to word itself for everyone, with how it was
#: reached.
VICTORY_EVENTS = frozenset({VictoryDecided.model_fields["type"].default,
                            VictoryReached.model_fields["type"].default})
#: Rolls listed in the post itself; more go in the attached file (with the first few shown).
MAX_ROLLS_IN_POST = 12
#: Eliminated units named per side in the post; the rest are counted.
MAX_NAMED = 8


@dataclass(frozen=True, slots=True)
class SideLosses:
    """One side's losses at the end: strength points lost for good, strength points straggling
    (recoverable, out of the line at the end), and the units eliminated."""

    side: str
    name: str
    strength_lost: int
    stragglers: int
    eliminated: tuple[str, ...] = field(default=())


def losses(state: GameState) -> list[SideLosses]:
    """Each side's losses, in the scenario's order of sides.

    A combat unit's loss is its order-of-battle strength less what it has at the end, standing
    or straggling; a unit stronger at the end than it began (a host's correction) counts as no
    loss, never a gain. A withdrawn unit never fought here and counts for nothing; a unit still
    to arrive has lost nothing. Every eliminated unit is named, leaders too (ruling FLOW-50)."""
    start = {u.id: u.strength for u in state.loaded.scenario.units}
    out = []
    for side in state.sides:
        lost = straggling = 0
        gone: list[str] = []
        for u in sorted(state.units.values(), key=lambda u: u.name):
            if u.side != side or isinstance(u.location, Withdrawn):
                continue
            if isinstance(u.location, Eliminated):
                gone.append(plain(u.name))
            if u.kind in COMBAT_KINDS:
                lost += max(0, start.get(u.id, u.strength) - u.strength - u.stragglers)
                straggling += u.stragglers
        out.append(SideLosses(side, plain(state.side_name(side)), lost, straggling, tuple(gone)))
    return out


def losses_line(found: SideLosses) -> str:
    named = ", ".join(found.eliminated[:MAX_NAMED])
    if len(found.eliminated) > MAX_NAMED:
        named += f" and {len(found.eliminated) - MAX_NAMED} more"
    gone = (f"{len(found.eliminated)} unit(s) eliminated ({named})" if found.eliminated
            else "no unit eliminated")
    return (f"- {found.name}: {found.strength_lost} strength point(s) lost, "
            f"{found.stragglers} straggling at the end, {gone}.")


def victory_text(state: GameState, events: Sequence[LoggedEvent]) -> str:
    """The victory result, worded for everyone, or why there is none."""
    decided = [e for e in events if e.type in VICTORY_EVENTS]
    if decided:
        # Every result read is told (a scenario may have a chart of its own beside a module's).
        return "\n".join(event_from_json(json.dumps(e.payload), e.audience)
                         .report(public_view(state)).strip() for e in decided)
    if not VICTORY_MODULES & set(state.modules) and state.loaded.scenario.victory is None:
        return ("**Result.** This scenario defines no victory conditions: the losses above "
                "are the result.")
    # Worded apart from a decided result's "Victory." line, so that nobody misreads it as one.
    return ("**Result.** The victory chart was not read in this game (it was switched off, "
            "or the game ended before it started).")


def roll_lines(state: GameState, events: Sequence[LoggedEvent]) -> list[str]:
    """Every secret roll of the game, in the order of the log, each with whom it was told to:
    a side's rolls carry the number its messages gave them; the umpire's own rolls (fire and
    close combat) name the sides whose reports gave their result, and read "umpire only" when
    no side's did. Units are named, never given by their ids, and each result says what it
    means."""
    told: dict[str, int] = {}
    out = []
    for index, e in enumerate(events):
        if e.type != "die_rolled" or e.audience == "public":
            continue
        if e.audience.startswith("side:"):
            side = e.audience.removeprefix("side:")
            told[side] = told.get(side, 0) + 1
            who = f"{plain(state.side_name(side))} roll {told[side]}"
        else:
            sides = " and ".join(plain(state.side_name(s)) for s in result_told_to(events, index))
            who = f"the umpire's roll, its result told to {sides}" if sides else "umpire only"
        payload = {**e.payload, "purpose": named_purpose(state, str(e.payload.get("purpose")))}
        meaning = (result_meaning(state.loaded.ruleset.tables, str(e.payload.get("table", "")),
                                  str(e.payload.get("result", "")))
                   or logged_outcome(events, index))
        out.append(f"log event {e.seq} ({who}): {roll_words(payload, meaning)}")
    return out


def result_told_to(events: Sequence[LoggedEvent], index: int) -> list[str]:
    """The sides told the result of the umpire's roll ``events[index]``: those a report after
    it (before the next roll on the same table) gives that result to, as a combat report does
    (its ``result``). A report that could not show the result (on a counter the firers could
    not identify) carries none, and tells nothing."""
    roll = events[index].payload
    sides: list[str] = []
    for e in events[index + 1:]:
        if e.type == "die_rolled":
            if e.payload.get("table") == roll.get("table"):
                break
            continue  # another roll (a morale check) is no report of this one
        if (e.audience.startswith("side:") and roll.get("result")
                and e.payload.get("result") == roll.get("result")):
            side = e.audience.removeprefix("side:")
            if side not in sides:
                sides.append(side)
    return sides


def named_purpose(state: GameState, purpose: str) -> str:
    """A roll's purpose with the units the umpire's rolls give by id ("close combat by
    fitz-lee at C1922") given by name. The purpose is logged as rolled (the dice are drawn
    from it), so the names are put in only here."""
    found = re.fullmatch(r"(?P<what>close combat|fire) by (?P<ids>.+?) at (?P<at>.+)", purpose)
    if found is None:
        return purpose
    names = [plain(state.units[uid].name) if uid in state.units else uid
             for uid in found["ids"].split(", ")]
    return f"{found['what']} by {' and '.join(names)} at {found['at']}"


def rolls_file_name(game_id: str) -> str:
    return f"vedette-{game_id}-secret-rolls.txt"


def report_text(state: GameState, game_id: str, seed_hex: str,
                events: Sequence[LoggedEvent], rolls: Sequence[str]) -> str:
    """The report's words; the rolls in full when there are few, else a pointer to the file."""
    lines = [f"**After-action report, game `{game_id}`** (turn {state.turn}).", "Losses:"]
    lines += [losses_line(found) for found in losses(state)]
    lines.append(victory_text(state, events))
    lines.append(f"Seed: `{seed_hex}` (check every roll with `/game verify`).")
    if not rolls:
        lines.append("Secret rolls: none were made in this game.")
    elif len(rolls) <= MAX_ROLLS_IN_POST:
        lines.append(f"Secret rolls, now public ({len(rolls)}):")
        lines += [f"- {r}" for r in rolls]
    else:
        lines.append(f"Secret rolls, now public: all {len(rolls)} are in the attached file "
                     f"`{rolls_file_name(game_id)}`.")
    return "\n".join(lines)


def report_delivery(state: GameState, game_id: str, seed_hex: str,
                    events: Sequence[LoggedEvent]) -> NewDelivery:
    """The report as one public post, with the rolls attached when they are many."""
    rolls = roll_lines(state, events)
    text = report_text(state, game_id, seed_hex, events, rolls)
    if len(rolls) <= MAX_ROLLS_IN_POST:
        return NewDelivery("public", "", text)
    body = (f"Secret rolls of game {game_id}, in the order of the log ({len(rolls)}):\n"
            + "\n".join(rolls) + "\n")
    return NewDelivery("public", "", text, body.encode("utf-8"), rolls_file_name(game_id))
