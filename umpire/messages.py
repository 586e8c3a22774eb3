"""Turning events into words for their audience, in the players' terms: printed labels and unit
names, never internal ids or coordinates.

Every text here is built from the event (whose audience already limits who gets it) and from the
addressed side's own view, so a message to one side never carries what that side may not know.
What authors and players wrote (titles, names, reasons) goes in through ``plain``: it reads as
written and never formats the message or mentions anyone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules import events as ev
from rules.forces.location import Withdrawn, location_words
from rules.ground.board import Board
from rules.ground.grid import Cell
from rules.knowledge.levels import IDENTIFIED, UnitView
from rules.knowledge.public import finish_is_public
from rules.knowledge.sighted import information_model, known_name, known_order
from rules.scenario.markup import plain
from rules.state import GameState, apply
from rules.turn.idle import SideOptions, side_options
from rules.turn.status import GameStatus
from rules.view import SideView, memory_of, own_view, project, public_view
from storage.json_codec import JsonObject
from umpire.drawn_maps import window_view
from umpire.game_options import core_option
from umpire.marker_words import marker_news
from umpire.ready import done_button
from umpire.status_post import (
    MENTION_PLAYERS,
    TurnProgress,
    call_text,
    newly_acting,
    opens_turn,
    progress,
    status_key,
    status_text,
)


@dataclass(frozen=True, slots=True)
class Message:
    """A message before it is addressed: ``public``, a ``side`` (target: side id) or the
    ``host``. ``map_for`` asks for a map to go with it: a view name (``umpire.drawn_maps``),
    the whole board or, for a call for orders, the side's fitted window. ``edit_key`` (a
    public message) names the post it edits, or posts first (``umpire.status_post``).
    ``mentions``: the sides whose players the post calls."""

    kind: str
    target: str
    text: str
    map_for: str | None = None
    #: Buttons the message carries (``NewDelivery.buttons``), such as the orders' Done button.
    buttons: tuple[JsonObject, ...] = ()
    edit_key: str = ""
    mentions: tuple[str, ...] = ()


class _Views:
    """The views a batch's words are written from, each worked out once: a side's view after
    the batch, and the public view (no unit at all) for what everyone is told."""

    def __init__(self, after: GameState) -> None:
        self.after = after
        self._sides: dict[str, SideView] = {}
        self.public = public_view(after)

    def of(self, side: str) -> SideView:
        if side not in self._sides:
            self._sides[side] = project(self.after, side)
        return self._sides[side]

    def for_audience(self, audience: str) -> SideView:
        return self.public if audience == "public" else self.of(audience.removeprefix("side:"))


def messages_for(before: GameState, events: list[ev.Event], after: GameState,
                 game_id: str = "", rolls_told: Mapping[str, int] | None = None
                 ) -> list[Message]:
    """The messages a batch of events gives rise to, in order, each worded from the view of
    its audience: the addressed side's view after the batch, or the public view.

    A secret roll's words name the game and the roll's place among the rolls told to that side
    (``rolls_told``: how many each side was told before this batch), so that it can be found
    in the log when the game is over. Not its place in the whole log: that would count the
    other side's hidden events."""
    out: list[Message] = []
    views = _Views(after)
    mention = core_option(after.loaded.scenario.scenario.options, MENTION_PLAYERS) is True
    user = next((e.user for e in events if isinstance(e, ev.CommandAccepted)), None)
    told = dict(rolls_told or {})
    forced = any(isinstance(e, ev.CommandAccepted) and e.kind == "force_end_phase"
                 for e in events)
    # The turn sequence as it stood at each event: a phase's words are those of its moment.
    now = before
    asking: _Asking | None = None
    for e in events:
        was, now = now, apply(now, e)
        match e:
            case ev.GameStarted(seed_sha256=sha, sources_commitment=binding):
                out.append(Message("public", "", started_text(views.public, sha, binding)))
            case ev.PhaseBegan(step=step):
                if asking is not None:
                    out[asking.at:asking.at] = asking.messages(was)
                asking = None
                phase = public_view(now)
                acting = now.steps[step].acting(now.sides)
                if now.turn > was.turn and was.status == GameStatus.ACTIVE:
                    # The turn before is over: its post says so, and stays as its record.
                    out.append(_status(public_view(was), progress(was, turn_over=True)))
                if not acting:
                    continue  # a phase nobody acts in passes without a word
                called = newly_acting(now) if mention else ()
                if opens_turn(now):
                    out.append(_status(phase, progress(now), called))
                else:
                    out.append(_status(phase, progress(now)))
                    if called:  # its post was posted already, and edits call nobody
                        out.append(Message("public", "", call_text(phase, called, phase.phase),
                                           mentions=called))
                # Each side's call for orders waits for the step's opening events (arrivals,
                # sighting, a pass by itself), so that it says what the side can do then.
                asking = _Asking(len(out), phase, acting, game_id, step)
            case ev.CommandAccepted(kind="force_end_phase") if before.status.in_play:
                # The host's end of a phase is said as such, never as a side's finish.
                out.append(Message("public", "", host_ended_text(public_view(before))))
            case ev.SideDone() if was.current.side is None and not forced:
                # Only news while other sides are still at it (otherwise the next phase says
                # so), and only when the game asks for it: in a phase played at once, who
                # finished first is the others' information (ruling INFO-9). Not even an
                # edit that changes nothing: the edit's time would tell. A pass by itself
                # reads as any other finish, never as a pass (ruling FLOW-15).
                if finish_is_public(was) or not now.acting_sides():
                    out.append(_status(public_view(now), progress(now)))
            case ev.UnitsArrived(units=ids, audience=audience):
                side = audience.removeprefix("side:")
                out.append(Message("side", side, arrivals_text(views.of(side), ids)))
            case ev.Sighted(side=side, seen=seen, lost=lost):
                if information_model(after, side).shows_every_enemy:
                    continue  # the side sees every enemy anyway: sighting is not news
                text = sighted_text(views.of(side), seen, lost, memory_of(was, side))
                if text:
                    out.append(Message("side", side, text))
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
            case ev.UnitCorrected():
                owner = e.side or (was.units[e.unit].side if e.unit in was.units else "")
                out.append(Message("host", "", correction_for_host(
                    e, own_view(was, owner) if owner else public_view(was))))
                out.append(Message("public", "", correction_text(views.public, e, user)))
            case ev.MarkerPlaced() | ev.MarkerMoved() | ev.MarkerSplit() | ev.MarkerRemoved():
                # A marker's news, to every side but its owner (whose module's report says
                # more), worded from the public view: the same whatever is under it. A side
                # is told where its model shows every enemy counter, or (a marker placed,
                # moved or split) where its view shows the marker now.
                marker = was.markers.get(e.marker)
                owner = e.side if isinstance(e, ev.MarkerPlaced) else (
                    marker.side if marker is not None else "")
                named = set(e.into) if isinstance(e, ev.MarkerSplit) else {e.marker}
                for side in after.sides if owner else ():
                    if side != owner and (information_model(after, side).shows_every_enemy or (
                            not isinstance(e, ev.MarkerRemoved)
                            and any(m.id in named for m in views.of(side).markers))):
                        out.append(Message("side", side, marker_news(views.public, e, owner)))
            case ev.GameEvent() if e.audience != "umpire" and _has_words(e) and (
                    text := e.report(views.for_audience(e.audience))):
                # A rule module's event, worded by the module from its audience's view.
                kind = "public" if e.audience == "public" else "side"
                out.append(Message(kind, e.audience.removeprefix("side:") if kind == "side"
                                   else "", text))
            case ev.GameEnded(seed_hex=seed, reason=reason):
                out.append(_status(public_view(now), progress(now)))
                out.append(Message("public", "", (
                    "**The game is over.**" + (f" {plain(reason)}" if reason else "") +
                    f"\nThe dice seed was `{seed}`: check every roll with `vedette verify`."),
                    map_for="umpire"))
    if asking is not None:
        out[asking.at:asking.at] = asking.messages(now)
    return _one_per_post(out)


def _status(view: SideView, turn: TurnProgress, called: tuple[str, ...] = ()) -> Message:
    """The turn's status post as it stands now (``called``: the sides it mentions)."""
    return Message("public", "", status_text(view, turn), edit_key=status_key(turn.turn),
                   mentions=called)


def _one_per_post(messages: list[Message]) -> list[Message]:
    """One message per edited post in a batch: its last words, where it first came (a new
    post keeps its place among the batch's posts), calling every side any of them called."""
    last: dict[str, Message] = {}
    called: dict[str, tuple[str, ...]] = {}
    for m in messages:
        if m.edit_key:
            last[m.edit_key] = m
            called[m.edit_key] = tuple(dict.fromkeys(called.get(m.edit_key, ()) + m.mentions))
    out: list[Message] = []
    placed: set[str] = set()
    for m in messages:
        if not m.edit_key:
            out.append(m)
        elif m.edit_key not in placed:
            placed.add(m.edit_key)
            out.append(replace(last[m.edit_key], mentions=called[m.edit_key]))
    return out


@dataclass(frozen=True, slots=True)
class _Asking:
    """The calls for orders of a step that has begun, to be put at ``at`` among the batch's
    messages once the step's opening events are folded."""

    at: int
    phase: SideView
    acting: tuple[str, ...]
    game_id: str
    step: int

    def messages(self, opened: GameState) -> list[Message]:
        """Each acting side's call for orders, as the step stood once opened, with its Done
        button; none for a side that passed it by itself (its own line says so)."""
        return [Message("side", side, orders_text(self.phase, side_options(opened, side),
                                                  project(opened, side)),
                        map_for=window_view(side),
                        buttons=self._done(side))
                for side in self.acting if side not in opened.done]

    def _done(self, side: str) -> tuple[JsonObject, ...]:
        if not self.game_id:
            return ()
        return (done_button(self.game_id, side, self.phase.turn, self.step),)


# -- the words, each from one view -----------------------------------------------------------------
def started_text(view: SideView, sha: str, binding: str) -> str:
    texts = (f"\nScenario commitment (binds the scenario and ruleset texts this game "
             f"is played from): `{binding}`." if binding else "")
    return (f"**{plain(view.title)}** has begun.\n"
            f"Dice commitment (SHA-256 of the secret seed): `{sha}`.{texts} The seed is "
            "published when the game ends, so every roll can be checked; keep this "
            "message to compare with `vedette verify`.")


def _whose(view: SideView) -> str:
    return f"{plain(view.name_of_side(view.phasing))} " if view.phasing else ""


#: Units named for each thing a side may do in its call for orders (the rest are counted).
NAMED_UNITS = 4


def orders_text(view: SideView, options: SideOptions | None = None,
                own: SideView | None = None) -> str:
    """The call for orders of the step the public ``view`` stands in; with the side's
    ``options`` (``rules.turn.idle``), what it may do now and which of its units can (with the MPs
    they have left, from the side's ``own`` view)."""
    head = f"Your orders, please: {_whose(view)}{plain(view.phase)}, turn {view.turn}."
    if options is None:
        return head
    if not options.offers:
        # A phase the side plays alone waits for its word even with nothing to do in it
        # (ruling FLOW-15): say so, from the side's own view.
        return f"{head}\nNothing to do in it: {options.why_idle}. Press Done, or /done."
    lines = [head, "You may:"]
    for offer in options.offers:
        lines.append(f"- {offer.words}" + (f": {_some(offer.units, own)}" if offer.units
                                           else ""))
    lines.append("When you have finished, /done.")
    return "\n".join(lines)


def _some(names: tuple[str, ...], own: SideView | None) -> str:
    """The first few of ``names`` (each with its MPs left, when the side's view has it), and
    how many more."""
    mps = {u.name: u.mp_left for u in own.own_units()} if own is not None else {}
    shown = []
    for name in names[:NAMED_UNITS]:
        mp = mps.get(name)
        shown.append(plain(name) + (f" ({mp:g} MP)" if mp is not None else ""))
    more = len(names) - NAMED_UNITS
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def host_ended_text(view: SideView) -> str:
    """The host's end of the phase the public view stands in, told to everyone."""
    return f"The host has ended the {_whose(view)}{plain(view.phase)} (turn {view.turn})."


def arrivals_text(view: SideView, ids: Iterable[str]) -> str:
    """Reinforcements, as their own side's view shows them on the map."""
    parts = []
    for ref in ids:
        unit = view.unit(ref)
        parts.append(f"{plain(unit.name)} at {_at(view.board, unit.cell)}" if unit
                     else plain(ref))
    return f"Reinforcements arrive: {'; '.join(parts)}."


def sighted_text(view: SideView, seen: Mapping[str, Mapping[str, Any]],
                 lost: Iterable[str], earlier: Iterable[UnitView] = ()) -> str:
    """What changed in the side's sight of the enemy since its last report: units its troops
    sight that were not in sight, units in sight that moved or now show otherwise (as the event
    records them), and units lost from sight (as the side's memory holds them). ``earlier`` is
    the side's memory before the event (``rules.view.memory_of``): a unit still in sight as it
    was is not told again. Empty when the side sees every enemy anyway."""
    if view.information.shows_every_enemy:
        return ""  # the side sees every enemy anyway; sighting is not news
    in_sight = {u.ref: u for u in earlier if u.level == IDENTIFIED}
    new: list[Mapping[str, Any]] = []
    moved: list[Mapping[str, Any]] = []
    changed: list[Mapping[str, Any]] = []
    for ref, w in seen.items():
        was = in_sight.get(ref)
        if was is None:
            new.append(w)
        elif Cell(*w["cell"]) != was.cell:
            moved.append(w)
        else:
            changed.append(w)
    board = view.board
    parts = []
    if new:
        # Anonymous units by what shows of them, never by who they are.
        parts.append("Your troops sight: " + "; ".join(
            f"{plain(known_name(w))} ({_what(w)}) at {_at(board, Cell(*w['cell']))}"
            for w in _identified_first(new)))
    if moved:
        parts.append("Still in sight, moved: " + "; ".join(
            f"{plain(known_name(w))} to {_at(board, Cell(*w['cell']))}"
            for w in _identified_first(moved)))
    if changed:
        parts.append("Still in sight, now seen as: " + "; ".join(
            f"{plain(known_name(w))} ({_what(w)}"
            + (f", {plain(str(w['formation']))}" if w.get("formation") else "") + ")"
            for w in _identified_first(changed)))
    lost = list(lost)
    if lost:
        parts.append("Lost from sight: " + "; ".join(
            _ghost_name(view, uid) for uid in _lost_in_order(view, lost)))
    return "\n".join(parts)


def correction_for_host(e: ev.UnitCorrected, before: SideView) -> str:
    """The host's note of a correction, each change as it was and as it is now ("strength 8
    → 6, cell A0504 → A0605"): the host sees the game whole. ``before`` is the unit's own
    side's view before the correction (``rules.view.own_view``), which holds the unit in full
    wherever it is."""
    was = correctable_fields(before, e.unit)
    changed = []
    for key, value in e.changes.items():
        if key == "cell":
            now = (before.board.describe(Cell(*value)) if value is not None
                   else location_words(Withdrawn(), before.board.describe))
        else:
            now = str(value)
        old = was.get(key)
        changed.append(f"{key} {plain(old)} → {plain(now)}" if old is not None and old != now
                       else f"{key} {plain(now)}")
    what = ", ".join(changed) or "nothing changed"
    return f"Correction logged for {plain(e.name or e.unit)}: {what} ({plain(e.reason)})"


def correctable_fields(view: SideView, ref: str) -> dict[str, str]:
    """The fields a correction may change, in words, of the side's own unit ``ref`` as the
    view holds it (on the map or not); empty for a unit the view does not hold."""
    unit = view.unit(ref)
    if unit is not None:
        return {"cell": view.board.describe(unit.cell), "strength": str(unit.strength),
                "stragglers": str(unit.stragglers), "formation": unit.formation,
                "morale": unit.morale}
    off = next((o for o in view.off_map if o.ref == ref), None)
    if off is None:
        return {}
    return {"cell": location_words(off.location, view.board.describe),
            "strength": str(off.strength), "stragglers": str(off.stragglers),
            "formation": off.formation, "morale": off.morale}


def correction_text(view: SideView, e: ev.UnitCorrected, user: int | None) -> str:
    """Everyone hears that a correction was made and by whom, never what or where (the unit
    may be hidden from the other side), nor its place in the log (which counts the other
    side's hidden events). The game's end lists it in full."""
    by = f"<@{user}>" if user is not None else "the host"
    return (f"**Correction**: {by} corrected a unit of {plain(view.name_of_side(e.side))} by "
            "hand. Every correction is listed in full when the game ends.")


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


def _at(board: Board, cell: Cell) -> str:
    """A cell as players speak of it (``Board.describe``), the place's name made plain."""
    place = board.place_at(cell)
    return f"{board.label(cell)} ({plain(place.name)})" if place else board.label(cell)


def _has_words(e: ev.GameEvent) -> bool:
    """Whether the event's class words anything at all (most core events say nothing), so that
    no view is worked out for an event with nothing to say."""
    return type(e).report is not ev.GameEvent.report


def _ghost_name(view: SideView, uid: str) -> str:
    m = next((u for u in view.memory if u.ref == uid), None)
    if m is None:
        return "an enemy unit"
    return f"{plain(m.name)}, last seen at {view.board.label(m.cell)}"


def _what(seen: Mapping[str, object]) -> str:
    """The kind and, when it was made out, the strength of a sighted unit."""
    strength = seen.get("strength")
    return f"{seen['kind']}, {strength}" if strength is not None else str(seen["kind"])


def _identified_first(seen: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Sighted units as the event lists them, anonymous ones last, by what shows of them."""
    return ([w for w in seen if not w.get("anonymous")]
            + sorted((w for w in seen if w.get("anonymous")), key=known_order))


def _lost_in_order(view: SideView, lost: Iterable[str]) -> list[str]:
    """Units lost from sight as the event lists them, anonymous ones last, by what showed (the
    side's memory lists them in that order)."""
    lost = list(lost)
    anonymous = [u.ref for u in view.memory if u.ref in lost and u.anonymous]
    return [u for u in lost if u not in anonymous] + anonymous
