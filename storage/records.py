"""The records ``storage`` takes and returns: plain frozen dataclasses, payloads as JSON objects.

Input records (:class:`GameRecord` for a new game, :class:`NewEvent`, :class:`NewDelivery`) carry
no sequence numbers, ids or timestamps: the store assigns them. Output records carry everything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, NamedTuple, TypedDict

from rules.turn.status import GameStatus
from storage.json_codec import JsonObject

GAME_STATUSES: tuple[GameStatus, ...] = tuple(GameStatus)

DeliveryKind = Literal["public", "side", "player", "host"]
"""Who a delivery goes to: the game's public channel, every player of one side (target: the side
id), one player (target: their user id as a string), or the game's host (target: '' or a user id).
"""

DeliveryStatus = Literal["pending", "sent", "failed"]

PUBLIC = "public"
UMPIRE = "umpire"


def side_audience(side_id: str) -> str:
    """The audience string of an event only ``side_id`` may see: ``'side:<id>'``."""
    return f"side:{side_id}"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game. Give it to ``Store.create_game`` with ``created_at``/``updated_at`` left ``None``.

    ``seed`` is the game's secret 32 bytes; it is left out of ``repr`` so that it cannot reach a
    log by accident.
    """

    id: str
    scenario_id: str
    scenario_path: str
    host_user_id: int
    seed: bytes = field(repr=False)
    guild_id: int | None = None
    channel_id: int | None = None
    options: JsonObject = field(default_factory=dict)
    status: GameStatus = GameStatus.SETUP
    created_at: datetime | None = None
    updated_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class GameSources:
    """The scenario and ruleset a game was created from, as their texts were then, with their
    SHA-256 (hex). Names are file names, for messages; the game never reads the files again."""

    scenario_name: str
    scenario_text: str
    scenario_sha256: str
    ruleset_name: str
    ruleset_text: str
    ruleset_sha256: str


class GameUpdate(TypedDict, total=False):
    """The fields of a game that ``Store.update_game`` and ``Store.commit`` may change."""

    status: GameStatus
    options: JsonObject
    guild_id: int | None
    channel_id: int | None
    host_user_id: int
    scenario_id: str
    scenario_path: str


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    game_id: str
    user_id: int
    side: str
    dm_ok: bool
    joined_at: datetime


@dataclass(frozen=True, slots=True)
class GameNow:
    """A game as a command finds it: its record, the seq of its last event (0 if none) and its
    seated players in the order they joined, all read at one moment."""

    record: GameRecord
    last_seq: int
    players: tuple[PlayerRecord, ...]


@dataclass(frozen=True, slots=True)
class SeatRequest:
    """A user's request, after the start, to be seated on ``side``; the host decides."""

    game_id: str
    user_id: int
    side: str
    asked_at: datetime


@dataclass(frozen=True, slots=True)
class SeatAsked:
    """What became of a request to join a started game (``Store.request_seat``).

    ``asked``: it is recorded, and the host is told (``delivery_ids``: the notice queued or
    rewritten). Otherwise nothing was written: ``open`` is the user's request already waiting
    for the host (one per user and game), or, when it is ``None``, the game has ``most``
    requests waiting already."""

    asked: bool
    open: SeatRequest | None = None
    delivery_ids: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append. ``audience`` is ``'public'``, ``'umpire'`` or ``'side:<id>'``
    (see :func:`side_audience`)."""

    type: str
    payload: JsonObject = field(default_factory=dict)
    audience: str = PUBLIC


@dataclass(frozen=True, slots=True)
class EventRecord:
    game_id: str
    seq: int
    type: str
    payload: JsonObject
    audience: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class NewDelivery:
    """A message to send once its commit is durable.

    ``event_index`` is the index, in the same commit's event list, of the event that caused it
    (negative indices count from the end); ``None`` means the commit's last event, or the game's
    current last event if the commit appends none. The store turns it into the event's seq.
    ``buttons`` is a JSON list the transport turns into components.

    ``image`` is stored once however many deliveries carry the same bytes. ``image_view`` names
    the view a map picture shows (a side id, or ``'umpire'``) in the state after the delivery's
    event: such a picture can be drawn from the log at any time. With ``image_name`` and no
    ``image`` the map is drawn when the delivery is sent (or shown again); given as bytes, it is
    stored until every delivery carrying it has been handed over. A picture without a view is
    kept.
    ``edit_key`` (not empty) ties public deliveries to one message: the first of a key is
    posted, the later ones edit it. On a host DM it only marks the notice of requests to join
    (``storage.seat_notices``), which is sent as a new message each time. ``mentions`` are the
    user ids its post may notify. ``sent``: already shown to its recipient when queued (kept
    for the inbox, never sent).
    """

    kind: DeliveryKind
    target: str
    text: str
    image: bytes | None = None
    image_name: str | None = None
    buttons: list[JsonObject] = field(default_factory=list)
    event_index: int | None = None
    image_view: str | None = None
    edit_key: str = ""
    mentions: tuple[int, ...] = ()
    sent: bool = False
    #: The seq the delivery follows when it is not its commit's event (an edit showing an
    #: earlier message's map again: the map of the moment that message followed).
    seq: int | None = None


@dataclass(frozen=True, slots=True)
class Picture:
    """One picture of a message's gallery, drawn when it is sent (never stored): the PNG, the
    file name it goes under, its alt text (what a reader who cannot see it is told it shows)
    and, for a close-up of one place, the cell label it is centred on and its radius (a reader
    may ask for that place's map again)."""

    image: bytes
    name: str
    alt: str
    around: str | None = None
    radius: int | None = None


@dataclass(frozen=True, slots=True)
class DeliveryRecord:
    id: int
    game_id: str
    seq: int
    kind: DeliveryKind
    target: str
    text: str
    image: bytes | None
    image_name: str | None
    buttons: list[JsonObject]
    status: DeliveryStatus
    attempts: int
    last_error: str | None
    created_at: datetime
    sent_at: datetime | None
    #: The SHA-256 (hex) of the stored picture; ``None`` for a map that is drawn from the log.
    picture: str | None = None
    #: The view the map shows, if it can be drawn from the log (see ``NewDelivery``).
    image_view: str | None = None

    @property
    def picture_to_draw(self) -> bool:
        """The delivery carries a map that is not stored (not yet, or no longer): it is drawn
        from the log, the view ``image_view`` right after event ``seq``."""
        return self.image is None and self.image_view is not None and bool(self.image_name)
    edit_key: str = ""
    mentions: tuple[int, ...] = ()
    #: The pictures the message shows, its map first, once drawn for sending
    #: (``umpire.reads.pictures``); empty for a message with one picture or none.
    gallery: tuple[Picture, ...] = ()


class Recipient(NamedTuple):
    """One address of an inbox: ``Recipient('player', '1234')``, ``Recipient('side', 'union')``,
    ``Recipient('public', '')``."""

    kind: DeliveryKind
    target: str


class Snapshot(NamedTuple):
    """A saved state: the fold of the game's events up to and including ``seq``."""

    seq: int
    payload: JsonObject


__all__ = [
    "GAME_STATUSES",
    "PUBLIC",
    "UMPIRE",
    "DeliveryKind",
    "DeliveryRecord",
    "DeliveryStatus",
    "EventRecord",
    "GameRecord",
    "GameSources",
    "GameStatus",
    "GameUpdate",
    "JsonObject",
    "NewDelivery",
    "NewEvent",
    "PlayerRecord",
    "Recipient",
    "SeatRequest",
    "Snapshot",
    "side_audience",
]
