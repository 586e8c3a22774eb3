"""Turning events into words for their audience, in the players' terms: printed labels and unit
names, never internal ids or coordinates.

Every text here is built from the event (whose audience already limits who gets it) and from the
addressed side's own view, so a message to one side never carries what that side may not know.
What authors and players wrote (titles, names, reasons) goes in through ``plain``: it reads as
written and never formats the message or mentions anyone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules import events as ev
from rules.board import Board
from rules.grid import Cell
from rules.knowledge import information_model, known_name, known_order
from rules.markup import plain
from rules.state import GameState
from rules.turns import turn_spec, visibility


@dataclass(frozen=True, slots=True)
class Message:
    """A message before it is addressed: ``public``, a ``side`` (target: side id) or the
    ``host``. ``map_for`` asks for the addressed side's map to go with it."""

    kind: str
    target: str
    text: str
    map_for: str | None = None


def turn_heading(state: GameState, turn: int) -> str:
    spec = turn_spec(state.loaded.scenario, turn)
    vis = visibility(state.loaded.scenario, state.loaded.ruleset, turn)
    return (f"Turn {turn} - {spec.time}, day {spec.day}, {spec.light}; visibility {vis} hexes")


def messages_for(before: GameState, events: list[ev.Event], after: GameState,
                 game_id: str = "", rolls_told: Mapping[str, int] | None = None
                 ) -> list[Message]:
    """The messages a batch of events gives rise to, in order.

    A secret roll's words name the game and the roll's place among the rolls told to that side
    (``rolls_told``: how many each side was told before this batch), so that it can be found
    in the log when the game is over. Not its place in the whole log: that would count the
    other side's hidden events."""
    out: list[Message] = []
    board = after.loaded.board
    user = next((e.user for e in events if isinstance(e, ev.CommandAccepted)), None)
    told = dict(rolls_told or {})
    for e in events:
        match e:
            case ev.GameStarted(seed_sha256=sha, sources_commitment=binding):
                texts = (f"\nScenario commitment (binds the scenario and ruleset texts this game "
                         f"is played from): `{binding}`." if binding else "")
                out.append(Message("public", "", (
                    f"**{plain(after.loaded.scenario.scenario.title)}** has begun.\n"
                    f"Dice commitment (SHA-256 of the secret seed): `{sha}`.{texts} The seed is "
                    "published when the game ends, so every roll can be checked; keep this "
                    "message to compare with `vedette verify`.")))
            case ev.PhaseBegan(turn=turn, side=side, step=step):
                phase = after.steps[step]
                title = plain(phase.title)
                whose = f"{plain(after.side_name(side))} " if side else ""
                if step == 0:
                    out.append(Message("public", "", f"**{turn_heading(after, turn)}**"))
                if not phase.acting(after.sides):
                    continue  # a phase nobody acts in passes without a word
                out.append(Message("public", "", f"{whose}{title} (turn {turn})"))
                for acting in phase.acting(after.sides):
                    out.append(Message("side", acting, f"Your orders, please: {whose}"
                                       f"{title}, turn {turn}.", map_for=acting))
            case ev.SideDone(side=side) if before.current.side is None:
                # Only news while other sides are still at it; otherwise the next phase says so.
                out.append(Message("public", "", f"{plain(after.side_name(side))} has finished "
                                   f"the {plain(before.current.title)}."))
            case ev.UnitsArrived(units=ids, audience=audience):
                names = "; ".join(
                    f"{plain(after.units[i].name)} at {_at(board, _cell(after, i))}" for i in ids)
                out.append(Message("side", audience.removeprefix("side:"),
                                   f"Reinforcements arrive: {names}."))
            case ev.Sighted(side=side, seen=seen, lost=lost):
                if information_model(after, side).shows_every_enemy:
                    continue  # the side sees every enemy anyway; sighting is not news
                parts = []
                if seen:
                    # Anonymous units by what shows of them, never by who they are.
                    parts.append("Your troops sight: " + "; ".join(
                        f"{plain(known_name(w))} ({_what(w)}) at "
                        f"{_at(board, Cell(*w['cell']))}"
                        for w in _identified_first(list(seen.values()))))
                if lost:
                    parts.append("Lost from sight: " + "; ".join(
                        _ghost_name(after, side, uid)
                        for uid in _lost_in_order(after, e.side, lost)))
                out.append(Message("side", side, "\n".join(parts)))
            case ev.Told(text=text, audience=audience):
                if audience == "public":
                    out.append(Message("public", "", text))
                elif audience.startswith("side:"):
                    out.append(Message("side", audience.removeprefix("side:"), text))
            case ev.DieRolled(audience=audience) if audience.startswith("side:"):
                side = audience.removeprefix("side:")
                told[side] = told.get(side, 0) + 1
                out.append(Message("side", side, roll_text(e, game_id, told[side])))
            case ev.GamePaused(paused=paused, reason=reason):
                word = "paused" if paused else "resumed"
                out.append(Message("public", "", f"The host has {word} the game."
                                   + (f" {plain(reason)}" if reason else "")))
            case ev.UnitCorrected(unit=uid, changes=changes, reason=reason):
                out.append(Message("host", "", "Correction logged for "
                                   f"{plain(after.units[uid].name)}: {plain(str(changes))} "
                                   f"({plain(reason)})"))
                # Everyone hears that it was made and by whom, never what or where (the unit
                # may be hidden from the other side), nor its place in the log (which counts
                # the other side's hidden events). The game's end lists it in full.
                by = f"<@{user}>" if user is not None else "the host"
                out.append(Message("public", "", (
                    f"**Correction**: {by} corrected a unit of "
                    f"{plain(after.side_name(after.units[uid].side))} by hand. "
                    "Every correction is listed in full when the game ends.")))
            case ev.GameEvent() if (text := e.report(after)) and e.audience != "umpire":
                # A rule module's event, worded by the module for its own audience.
                kind = "public" if e.audience == "public" else "side"
                out.append(Message(kind, e.audience.removeprefix("side:") if kind == "side"
                                   else "", text))
            case ev.GameEnded(seed_hex=seed, reason=reason):
                out.append(Message("public", "", (
                    "**The game is over.**" + (f" {plain(reason)}" if reason else "") +
                    f"\nThe dice seed was `{seed}`: check every roll with `vedette verify`."),
                    map_for="umpire"))
    return out


def roll_text(e: ev.DieRolled, game_id: str = "", number: int | None = None) -> str:
    """A secret roll in words; ``number`` is its place among the rolls told to the side."""
    mods = ", ".join(f"{k} {v:+d}" for k, v in e.modifiers.items())
    text = f"Secret roll for {e.purpose}: {e.value} on {e.dice}"
    if mods:
        text += f" ({mods})"
    if e.table:
        text += f"; {e.table}" + (f" column {e.column}" if e.column else "")
        text += f": **{e.result}**"
    if number is not None:
        game = f"game `{game_id}`, " if game_id else ""
        text += (f" ({game}your side's roll {number}; after the game `vedette verify --rolls` "
                 "shows it in the log)")
    return text


def _cell(state: GameState, uid: str) -> Cell:
    cell = state.units[uid].cell
    assert cell is not None
    return cell


def _at(board: Board, cell: Cell) -> str:
    """A cell as players speak of it (``Board.describe``), the place's name made plain."""
    place = board.place_at(cell)
    return f"{board.label(cell)} ({plain(place.name)})" if place else board.label(cell)


def _what(seen: Mapping[str, object]) -> str:
    """The kind and, when it was made out, the strength of a sighted unit."""
    strength = seen.get("strength")
    return f"{seen['kind']}, {strength}" if strength is not None else str(seen["kind"])


def _identified_first(seen: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Sighted units as the event lists them, anonymous ones last, by what shows of them."""
    return ([w for w in seen if not w.get("anonymous")]
            + sorted((w for w in seen if w.get("anonymous")), key=known_order))


def _lost_in_order(state: GameState, side: str, lost: tuple[str, ...]) -> list[str]:
    """Units lost from sight as the event lists them, anonymous ones last, by what showed."""
    memory = state.memory.get(side, {})

    def anonymous(uid: str) -> bool:
        return uid in memory and bool(memory[uid].seen.get("anonymous"))

    return ([u for u in lost if not anonymous(u)]
            + sorted((u for u in lost if anonymous(u)), key=lambda u: known_order(memory[u].seen)))


def _ghost_name(state: GameState, side: str, uid: str) -> str:
    m = state.memory.get(side, {}).get(uid)
    if m is None:
        return "an enemy unit"
    name = plain(known_name(m.seen))
    return f"{name}, last seen at {state.loaded.board.label(m.cell)}"
