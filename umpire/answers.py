"""What the umpire answers to the person who asked: a reply, or a refusal they may read."""

from __future__ import annotations

from dataclasses import dataclass


class UmpireError(Exception):
    """A request the umpire refuses; the message is safe to show to the person who asked."""


@dataclass(frozen=True)
class Reply:
    """The answer to the person who gave a command (shown to them alone)."""

    text: str
    image: bytes | None = None
    delivery_ids: tuple[int, ...] = ()
    #: The request was accepted before (a repeated request id): nothing was applied now.
    repeated: bool = False
    #: The name the attachment goes under (a map: ``map.png`` when not given).
    image_name: str | None = None

