"""Who is told what: a batch of events routed to its audiences, each message worded from the view
of the audience it goes to (``umpire.words.events``).

A side's message is worded from that side's view after the batch, a public one from the public
view; the words themselves are written in ``umpire.words``. The routing reads the whole state
only to decide who is told (which sides act, whose marker moved, which model a side plays
under) and to build the views it hands to the words.
"""


from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum

from rules import events as ev
from rules.knowledge.public import finish_is_public
from rules.knowledge.sighted import information_model
from rules.scenario.markup import plain
from rules.scenario.tables import result_meaning
from rules.state import GameState, apply
from rules.turn.idle import SideOptions, side_options
from rules.turn.progress import TurnProgress, newly_acting, opens_turn, progress
from rules.turn.reaction import Question, QuestionAsked
from rules.turn.status import GameStatus
from rules.view import SideView, memory_of, own_view, project, public_view
from storage.json_codec import JsonObject
from umpire.clock.questions import times_out_at
from umpire.games.options import core_option
from umpire.games.questions import answer_buttons
from umpire.games.ready import done_button, move_button, orders_key
from umpire.reads.drawn_maps import window_view
from umpire.words.deadlines import PhaseDeadline, answer_due
from umpire.words.dossier import Section, section_of
from umpire.words.events import (
    arrivals_text,
    correction_for_host,
    correction_text,
    host_ended_text,
    orders_text,
    roll_text,
    sighted_text,
    started_text,
)
from umpire.words.markers import marker_news
from umpire.words.passing import passing_text
from umpire.words.status_post import MENTION_PLAYERS, call_text, status_key, status_text

#: The ruleset's word for moving units, the core's action a Move button gives.
MOVING = "move"


class Piece(StrEnum):
    """What a side's message is, for folding a batch's into one (``umpire.games.inbox``)."""

    #: Something the side learns: news that may wait for its next dossier.
    NEWS = "news"
    #: A secret roll made for the side: read beside the result it decides.
    ROLL = "roll"
    #: The side's call for orders: a phase it acts in has begun.
    CALL = "call"
    #: A question the side must answer at once.
    QUESTION = "question"


@dataclass(frozen=True, slots=True)
class Message:
    """A message before it is addressed: ``public``, a ``side`` (target: side id) or the
    ``host``. ``map_for`` asks for a map to go with it: a view name (``umpire.reads.drawn_maps``),
    the whole board or, for a call for orders, the side's fitted window. ``edit_key`` names the
    message it edits, or posts first: a public post (``umpire.words.status_post``), or a side's
    orders message, which each player's copy of a side-mate's readiness edits
    (``umpire.games.ready.orders_key``).
    ``mentions``: the sides whose players the post calls."""

    kind: str
    target: str
    text: str
    map_for: str | None = None
    #: Buttons the message carries (``NewDelivery.buttons``), such as the orders' Done button.
    buttons: tuple[JsonObject, ...] = ()
    edit_key: str = ""
    mentions: tuple[str, ...] = ()
    #: What a side's message is (``Piece``).
    piece: Piece = Piece.NEWS
    #: A side's message that is also the answer to its player's command (``umpire.games.inbox``).
    answers: bool = False
    #: The section of a dossier a side's message goes in (``umpire.words.dossier``).
    section: Section = Section.HAPPENED
    #: A side's players not sent it (their Done for the turn stands: ``umpire.games.inbox``).
    skip: tuple[int, ...] = ()
    #: The only player of the side sent it, when it is theirs alone (their own held news).
    only: tuple[int, ...] = ()


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
                 game_id: str = "", rolls_told: Mapping[str, int] | None = None,
                 deadline: PhaseDeadline | None = None, at: datetime | None = None,
                 states: Sequence[GameState] | None = None) -> list[Message]:
    """The messages a batch of events gives rise to, in order, each worded from the view of
    its audience: the addressed side's view after the batch, or the public view.

    ``deadline``: the deadline of the step open after the batch, as the caller counted it
    (``umpire.clock.phase_clock``: the routing has no clock). The status post and the step's
    calls for orders show it; a step the batch opened and closed again has none.

    ``at``: the moment the batch is stored (its events' stamp). A question asked in the batch
    says when it times out, counted from it as the umpire's clock counts
    (``umpire.clock.questions``), and carries a button per choice (with a ``game_id``).

    A secret roll's words name the game and the roll's place among the rolls told to that side
    (``rolls_told``: how many each side was told before this batch), so that it can be found
    in the log when the game is over. Not its place in the whole log: that would count the
    other side's hidden events.

    ``states``: the state right after each event, as the engine reached it
    (``Outcome.states``), so that they need not be worked out again; used only when they end
    at ``after``, one for each event."""
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
    reached = (states if states is not None and len(states) == len(events)
               and (not states or states[-1] is after) else None)
    for index, e in enumerate(events):
        was, now = now, (apply(now, e) if reached is None else reached[index])
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
                due = deadline if deadline is not None and deadline.of(now.turn, step) else None
                if opens_turn(now):
                    out.append(_status(phase, progress(now), called, due))
                else:
                    out.append(_status(phase, progress(now), deadline=due))
                    if called:  # its post was posted already, and edits call nobody
                        out.append(Message("public", "", call_text(phase, called, phase.phase),
                                           mentions=called))
                # Each side's call for orders waits for the step's opening events (arrivals,
                # sighting, a pass by itself), so that it says what the side can do then.
                asking = _Asking(len(out), phase, acting, game_id, step, due)
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
                    out.append(_status(public_view(now), progress(now), deadline=_of(deadline,
                                                                                      now)))
            case ev.UnitsArrived(units=ids, audience=audience):
                side = audience.removeprefix("side:")
                out.append(Message("side", side, arrivals_text(views.of(side), ids)))
            case ev.Sighted(side=side, seen=seen, lost=lost):
                if information_model(after, side).shows_every_enemy:
                    continue  # the side sees every enemy anyway: sighting is not news
                # A unit lost from sight on the way is told with the way it was seen going.
                passing = next((p for p in events[index + 1:] if isinstance(p, ev.SeenPassing)
                                and p.side == side), None)
                if passing is not None:
                    lost = tuple(k for k in lost if k not in passing.passed)
                text = sighted_text(views.of(side), seen, lost, memory_of(was, side))
                if text:
                    out.append(Message("side", side, text, section=Section.SEEN))
            case ev.SeenPassing(side=side):
                if information_model(after, side).shows_every_enemy:
                    continue  # every enemy is shown anyway: the way seen is drawn, not told
                text = passing_text(views.of(side), e)
                if text:
                    out.append(Message("side", side, text, section=Section.SEEN))
            case ev.Told(text=text, audience=audience):
                if audience == "public":
                    out.append(Message("public", "", text))
                elif audience.startswith("side:"):
                    out.append(Message("side", audience.removeprefix("side:"), text))
            case ev.DieRolled(audience=audience) if audience.startswith("side:"):
                side = audience.removeprefix("side:")
                told[side] = told.get(side, 0) + 1
                meaning = (result_meaning(now.loaded.ruleset.tables, e.table, e.result)
                           or ev.roll_outcome(e, events[index + 1:]))
                out.append(Message("side", side, roll_text(e, game_id, told[side], meaning),
                                   piece=Piece.ROLL))
            case ev.GamePaused(paused=paused, reason=reason):
                word = "paused" if paused else "resumed"
                out.append(Message("public", "", f"The host has {word} the game."
                                   + (f" {plain(reason)}" if reason else "")))
                if _of(deadline, now) is not None and now.status.in_play:
                    # The clock stops and starts again: the status post says so.
                    out.append(_status(public_view(now), progress(now), deadline=deadline))
            case ev.UnitCorrected():
                owner = e.side or (was.units[e.unit].side if e.unit in was.units else "")
                out.append(Message("host", "", correction_for_host(
                    e, own_view(was, owner) if owner else public_view(was))))
                out.append(Message("public", "", correction_text(views.public, e, user)))
            case (ev.MarkerPlaced() | ev.MarkerMoved() | ev.MarkerSplit() | ev.MarkerRemoved()
                  | ev.MarkersJoined()):
                # A marker's news, to every side but its owner (whose module's report says
                # more), worded from the public view: the same whatever is under it. A side
                # is told where its model shows every enemy counter, or (a marker placed,
                # moved or split) where its view shows the marker now.
                marker = was.markers.get(e.markers[0] if isinstance(e, ev.MarkersJoined)
                                         else e.marker)
                owner = e.side if isinstance(e, ev.MarkerPlaced) else (
                    marker.side if marker is not None else "")
                named = (set(e.into) if isinstance(e, ev.MarkerSplit)
                         else {e.into} if isinstance(e, ev.MarkersJoined) else {e.marker})
                for side in after.sides if owner else ():
                    if side != owner and (information_model(after, side).shows_every_enemy or (
                            not isinstance(e, ev.MarkerRemoved)
                            and any(m.id in named for m in views.of(side).markers))):
                        out.append(Message("side", side, marker_news(views.public, e, owner),
                                           section=Section.SEEN))
            case QuestionAsked(question=q) if e.audience.startswith("side:") and (
                    text := e.report(views.for_audience(e.audience))):
                # Its own deadline under its words; a button per choice.
                out.append(_question(q, text, game_id, at, _of(deadline, now)))
            case ev.GameEvent() if e.audience != "umpire" and _has_words(e) and (
                    text := e.report(views.for_audience(e.audience))):
                # A rule module's event, worded by the module from its audience's view.
                kind = "public" if e.audience == "public" else "side"
                out.append(Message(kind, e.audience.removeprefix("side:") if kind == "side"
                                   else "", text, section=section_of(e)))
            case ev.GameEnded(seed_hex=seed, reason=reason):
                out.append(_status(public_view(now), progress(now)))
                out.append(Message("public", "", (
                    "**The game is over.**" + (f" {plain(reason)}" if reason else "") +
                    f"\nThe dice seed was `{seed}`: check every roll with `vedette verify`."),
                    map_for="umpire"))
    if asking is not None:
        out[asking.at:asking.at] = asking.messages(now)
    return _one_per_post(out)


def _question(question: Question, text: str, game_id: str, at: datetime | None,
              deadline: PhaseDeadline | None) -> Message:
    """A question's message to the side asked: its words, when it times out (unsaid for a
    timed question when the moment it was asked is not given) and its buttons."""
    times_out = times_out_at(at, question) if at is not None else None
    # A question asked before play waits for no phase: its words say the first turn waits.
    if not question.before_play and (question.seconds is None or times_out is not None):
        text = f"{text}\n{answer_due(times_out, deadline)}"
    return Message("side", question.side, text,
                   buttons=answer_buttons(game_id, question) if game_id else (),
                   piece=Piece.QUESTION, section=Section.NOW)


def call_for(state: GameState, side: str, game_id: str,
             deadline: PhaseDeadline | None) -> Message:
    """``side``'s call for orders in the step open now, as a step's opening words it
    (for a side asked again in the middle of a step it was not called to: ruling FLOW-71)."""
    asking = _Asking(0, public_view(state), (side,), game_id, state.step, _of(deadline, state))
    return asking.messages(state)[0]


def status_message(state: GameState, deadline: PhaseDeadline | None) -> Message:
    """The current turn's status post as it stands, with the deadline of the step open now
    (to edit it when the deadline changes outside a batch of events: the host sets it)."""
    return _status(public_view(state), progress(state), deadline=_of(deadline, state))


def _of(deadline: PhaseDeadline | None, state: GameState) -> PhaseDeadline | None:
    """``deadline`` if it is the deadline of the step ``state`` stands in."""
    return deadline if deadline is not None and deadline.of(state.turn, state.step) else None


def _status(view: SideView, turn: TurnProgress, called: tuple[str, ...] = (),
            deadline: PhaseDeadline | None = None) -> Message:
    """The turn's status post as it stands now (``called``: the sides it mentions;
    ``deadline``: the deadline of the step now played)."""
    return Message("public", "", status_text(view, turn, deadline),
                   edit_key=status_key(turn.turn), mentions=called)


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
    deadline: PhaseDeadline | None = None

    def messages(self, opened: GameState) -> list[Message]:
        """Each acting side's call for orders, as the step stood once opened, with its Done
        button; none for a side that passed it by itself (its own line says so)."""
        return [self._call(opened, side, side_options(opened, side))
                for side in self.acting if side not in opened.done]

    def _call(self, opened: GameState, side: str, options: SideOptions) -> Message:
        return Message("side", side, orders_text(self.phase, options, project(opened, side),
                                                 self.deadline, self.game_id),
                       map_for=window_view(side), buttons=self._buttons(side, options),
                       piece=Piece.CALL, section=Section.CALL,
                       edit_key=orders_key(side, self.phase.turn, self.step))

    def _buttons(self, side: str, options: SideOptions) -> tuple[JsonObject, ...]:
        """Done, Done for the turn, and Move when the side has a unit that can move."""
        if not self.game_id:
            return ()
        done = done_button(self.game_id, side, self.phase.turn, self.step)
        whole = done_button(self.game_id, side, self.phase.turn, self.step, turn_over=True)
        if any(offer.action == MOVING for offer in options.offers):
            return (done, whole, move_button(self.game_id))
        return (done, whole)


def _has_words(e: ev.GameEvent) -> bool:
    """Whether the event's class words anything at all (most core events say nothing), so that
    no view is worked out for an event with nothing to say."""
    return type(e).report is not ev.GameEvent.report
