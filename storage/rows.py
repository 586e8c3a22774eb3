"""Turning database rows into records."""

from __future__ import annotations

from typing import cast

from storage.clock import from_text
from storage.json_codec import decode, decode_object
from storage.records import (
    DeliveryKind,
    DeliveryRecord,
    DeliveryStatus,
    EventRecord,
    GameRecord,
    GameSources,
    GameStatus,
    PlayerRecord,
    SeatRequest,
)
from storage.sql import Row

GAME_COLUMNS = (
    "id, scenario_id, scenario_path, options, guild_id, channel_id, host_user_id, status, seed, "
    "created_at, updated_at"
)
PLAYER_COLUMNS = "game_id, user_id, side, dm_ok, joined_at"
#: The game's and its players' columns from a join of ``games AS g`` and ``players AS p``
#: (no name is in both), each under its own name: ``game`` and ``player`` read such a row.
GAME_AND_PLAYER_COLUMNS = ", ".join(
    [f"g.{c.strip()} AS {c.strip()}" for c in GAME_COLUMNS.split(",")]
    + [f"p.{c.strip()} AS {c.strip()}" for c in PLAYER_COLUMNS.split(",")])
SEAT_REQUEST_COLUMNS = "game_id, user_id, side, asked_at"
EVENT_COLUMNS = "game_id, seq, type, payload, audience, created_at"
DELIVERY_COLUMNS = (
    "d.id AS id, d.game_id AS game_id, d.seq AS seq, d.kind AS kind, d.target AS target, "
    "d.text AS text, p.data AS image, d.image_name AS image_name, "
    "d.buttons AS buttons, d.status AS status, d.attempts AS attempts, "
    "d.last_error AS last_error, d.created_at AS created_at, d.sent_at AS sent_at, "
    "d.picture AS picture, d.picture_view AS picture_view, d.edit_key AS edit_key, "
    "d.mentions AS mentions"
)
#: Deliveries with their pictures, each stored once in ``pictures`` (see migration 7).
DELIVERY_FROM = "deliveries AS d LEFT JOIN pictures AS p ON p.sha256 = d.picture"


SOURCES_COLUMNS = (
    "scenario_name, scenario_text, scenario_sha256, ruleset_name, ruleset_text, ruleset_sha256"
)


def sources(row: Row) -> GameSources:
    return GameSources(
        scenario_name=row["scenario_name"],
        scenario_text=row["scenario_text"],
        scenario_sha256=row["scenario_sha256"],
        ruleset_name=row["ruleset_name"],
        ruleset_text=row["ruleset_text"],
        ruleset_sha256=row["ruleset_sha256"],
    )


def sources_values(s: GameSources) -> tuple[str, ...]:
    """The values for ``SOURCES_COLUMNS``, in order."""
    return (s.scenario_name, s.scenario_text, s.scenario_sha256, s.ruleset_name, s.ruleset_text,
            s.ruleset_sha256)


def game(row: Row) -> GameRecord:
    return GameRecord(
        id=row["id"],
        scenario_id=row["scenario_id"],
        scenario_path=row["scenario_path"],
        host_user_id=row["host_user_id"],
        seed=bytes(row["seed"]),
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        options=decode_object(row["options"], f"options of game {row['id']!r}"),
        status=GameStatus(row["status"]),
        created_at=from_text(row["created_at"]),
        updated_at=from_text(row["updated_at"]),
    )


def player(row: Row) -> PlayerRecord:
    return PlayerRecord(
        game_id=row["game_id"],
        user_id=row["user_id"],
        side=row["side"],
        dm_ok=bool(row["dm_ok"]),
        joined_at=from_text(row["joined_at"]),
    )


def seat_request(row: Row) -> SeatRequest:
    return SeatRequest(
        game_id=row["game_id"],
        user_id=row["user_id"],
        side=row["side"],
        asked_at=from_text(row["asked_at"]),
    )


def event(row: Row) -> EventRecord:
    return EventRecord(
        game_id=row["game_id"],
        seq=row["seq"],
        type=row["type"],
        payload=decode_object(row["payload"], f"payload of event {row['game_id']!r}#{row['seq']}"),
        audience=row["audience"],
        created_at=from_text(row["created_at"]),
    )


def delivery(row: Row) -> DeliveryRecord:
    image = row["image"]
    sent_at = row["sent_at"]
    return DeliveryRecord(
        id=row["id"],
        game_id=row["game_id"],
        seq=row["seq"],
        kind=cast(DeliveryKind, row["kind"]),
        target=row["target"],
        text=row["text"],
        image=None if image is None else bytes(image),
        image_name=row["image_name"],
        buttons=decode(row["buttons"], f"buttons of delivery {row['id']}"),
        status=cast(DeliveryStatus, row["status"]),
        attempts=row["attempts"],
        last_error=row["last_error"],
        created_at=from_text(row["created_at"]),
        sent_at=None if sent_at is None else from_text(sent_at),
        picture=row["picture"],
        image_view=row["picture_view"],
        edit_key=row["edit_key"],
        mentions=tuple(int(u) for u in decode(row["mentions"],
                                              f"mentions of delivery {row['id']}")),
    )
