"""Shaping text and pictures into one Discord message. One message per delivery, so that a
delivery is either sent whole or not at all.

- **A component message** (``layout``, Discord's components v2) for what a side's players read:
  one container holding the text, cut at its dossier's sections (``umpire.words.dossier``) with
  a line between them, then the gallery of pictures (each with its alt text), then the
  buttons. Its limits are Discord's: 4,000 characters of text and 40 components in all.
- **A plain message** (``build``) for anything else, or a side's message past those limits:
  content up to 2,000 characters, longer text in embeds, a map as an attachment shown in an
  embed.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from umpire.outbox.drain import Picture
from umpire.words.dossier import parts_of

MAX_CONTENT = 2000
MAX_EMBED_TEXT = 4096
MAX_EMBEDS_TEXT = 6000
EMBED_COLOUR = discord.Colour(0x5B4A2F)
CUT = "\n… (cut short here; the whole text is in /inbox or /log)"
#: Discord's limits on one component message.
MAX_LAYOUT_TEXT = 4000
MAX_COMPONENTS = 40
MAX_GALLERY = 10
MAX_ALT = 1024
BUTTONS_PER_ROW = 5


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


@dataclass
class Layout:
    """A component message: its view (``discord.ui.LayoutView``) and the files its gallery
    shows."""

    view: discord.ui.LayoutView
    files: list[discord.File]


def layout(text: str, pictures: Sequence[Picture] = (),
           buttons: Sequence[discord.ui.Item[Any]] = ()) -> Layout | None:
    """``text``, ``pictures`` and ``buttons`` as one component message, or ``None`` when they
    would pass Discord's limits (the plain message then carries them)."""
    parts = parts_of(text.strip()) or ["\u200b"]
    if sum(len(p) for p in parts) > MAX_LAYOUT_TEXT or len(pictures) > MAX_GALLERY:
        return None
    box: discord.ui.Container[Any] = discord.ui.Container(accent_colour=EMBED_COLOUR)
    for i, part in enumerate(parts):
        if i:
            box.add_item(discord.ui.Separator())
        box.add_item(discord.ui.TextDisplay(part))
    files: list[discord.File] = []
    if pictures:
        shown: discord.ui.MediaGallery[Any] = discord.ui.MediaGallery()
        for picture in pictures:
            file = image_file(picture.image, picture.name)
            files.append(file)
            shown.add_item(media=f"attachment://{file.filename}",
                           description=picture.alt[:MAX_ALT] or None)
        box.add_item(shown)
    view = discord.ui.LayoutView(timeout=None)
    try:
        view.add_item(box)
        for at in range(0, len(buttons), BUTTONS_PER_ROW):
            view.add_item(discord.ui.ActionRow(*buttons[at:at + BUTTONS_PER_ROW]))
    except ValueError:  # past the 40 components
        return None
    return Layout(view, files)
