"""Shaping text and pictures into one Discord message: content up to 2,000 characters, longer
text in embeds, a map as an attachment shown in an embed. One message per delivery, so that a
delivery is either sent whole or not at all."""

from __future__ import annotations

import io
from dataclasses import dataclass, field

import discord

MAX_CONTENT = 2000
MAX_EMBED_TEXT = 4096
MAX_EMBEDS_TEXT = 6000
EMBED_COLOUR = discord.Colour(0x5B4A2F)
CUT = "\n… (cut short here; the whole text is in /inbox or /log)"


@dataclass
class Parts:
    """What one ``send`` carries: content, embeds and files."""

    content: str | None = None
    embeds: list[discord.Embed] = field(default_factory=list)
    files: list[discord.File] = field(default_factory=list)


def split_text(text: str, size: int) -> list[str]:
    """Pieces of at most ``size`` characters, cut at line ends where possible."""
    pieces: list[str] = []
    rest = text
    while len(rest) > size:
        cut = rest.rfind("\n", 0, size)
        if cut <= 0:
            cut = size
        pieces.append(rest[:cut])
        rest = rest[cut:].lstrip("\n")
    if rest:
        pieces.append(rest)
    return pieces


def image_file(image: bytes, name: str | None) -> discord.File:
    filename = name if name and name.endswith(".png") else "map.png"
    return discord.File(io.BytesIO(image), filename=filename)


def build(text: str, image: bytes | None = None, image_name: str | None = None) -> Parts:
    """One message holding ``text`` (and the picture, if any)."""
    parts = Parts()
    text = text.strip() or "\u200b"
    if len(text) <= MAX_CONTENT:
        parts.content = text
    else:
        if len(text) > MAX_EMBEDS_TEXT:
            text = text[: MAX_EMBEDS_TEXT - len(CUT)] + CUT
        parts.embeds = [discord.Embed(description=piece, colour=EMBED_COLOUR)
                        for piece in split_text(text, MAX_EMBED_TEXT)]
    if image is not None and image_name and not image_name.endswith(".png"):
        # Not a picture (the game record): a plain attachment under its own name.
        parts.files = [discord.File(io.BytesIO(image), filename=image_name)]
    elif image is not None:
        file = image_file(image, image_name)
        parts.files = [file]
        if parts.embeds:
            parts.embeds[-1].set_image(url=f"attachment://{file.filename}")
        else:
            parts.embeds = [discord.Embed(colour=EMBED_COLOUR)
                            .set_image(url=f"attachment://{file.filename}")]
    return parts
