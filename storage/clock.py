"""Timestamps: the store's clock and how instants are written in the database (ISO 8601, UTC)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]
"""Returns the current instant, timezone-aware. Tests may inject a fixed one."""


def utc_now() -> datetime:
    return datetime.now(UTC)


def to_text(instant: datetime) -> str:
    """``2026-05-01T12:00:00.000000+00:00``: fixed width, so text order is time order."""
    if instant.tzinfo is None:
        raise ValueError(f"naive datetime {instant!r}: the store's clock must be timezone-aware")
    return instant.astimezone(UTC).isoformat(timespec="microseconds")


def from_text(text: str) -> datetime:
    return datetime.fromisoformat(text)
