"""Message components as plain JSON: walking a nested component tree the way Discord counts it,
and reading back what a message shows (its texts, its gallery pictures, its buttons).

"Components v2" messages (flag ``IS_COMPONENTS_V2``) nest components: a container holds text
displays, separators, media galleries and action rows, and an action row holds buttons. Older
messages only have action rows of buttons or selects at the top. Everything here works on both.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

JSON = dict[str, Any]
#: Where a component sits, as the keys of Discord's form errors: ``("components", "0", ...)``.
Path = tuple[str, ...]

# Component types (https://discord.com/developers/docs/components/reference).
ACTION_ROW = 1
BUTTON = 2
SECTION = 9
TEXT_DISPLAY = 10
THUMBNAIL = 11
MEDIA_GALLERY = 12
FILE = 13
SEPARATOR = 14
CONTAINER = 17

#: The scheme by which a component names a file uploaded with its message.
ATTACHMENT_SCHEME = "attachment://"


def walk_with_paths(
    components: list[JSON], path: Path = ("components",)
) -> Iterator[tuple[Path, JSON]]:
    """Every component, depth first in the order shown, with where it sits. A component's
    children are its ``components`` list, a section's ``accessory`` and a label's
    ``component``; media gallery items are not components."""
    for index, component in enumerate(components):
        yield from _walk_one(component, (*path, str(index)))


def _walk_one(component: JSON, here: Path) -> Iterator[tuple[Path, JSON]]:
    yield here, component
    yield from walk_with_paths(component.get("components") or [], (*here, "components"))
    for key in ("accessory", "component"):
        if isinstance(child := component.get(key), dict):
            yield from _walk_one(child, (*here, key))


def walk(components: list[JSON]) -> Iterator[JSON]:
    """Every component, depth first (see ``walk_with_paths``)."""
    for _, component in walk_with_paths(components):
        yield component


def component_texts(components: list[JSON]) -> list[str]:
    """The content of every text display, depth first."""
    return [str(c.get("content") or "") for c in walk(components) if c.get("type") == TEXT_DISPLAY]


def gallery_items(message: JSON) -> list[JSON]:
    """Every media gallery item of a message (``{"media": {"url": ...}, "description": ...}``),
    depth first."""
    return [item for c in walk(message.get("components") or [])
            if c.get("type") == MEDIA_GALLERY for item in c.get("items") or []]


def buttons_of(message: JSON) -> list[JSON]:
    """Every button of a message, depth first: those in top-level action rows and those nested
    in containers and sections alike."""
    return [c for c in walk(message.get("components") or []) if c.get("type") == BUTTON]


def custom_ids(message: JSON) -> list[str]:
    """The custom id of every button of a message, depth first (link buttons have none)."""
    return [str(b["custom_id"]) for b in buttons_of(message) if b.get("custom_id")]


def media_urls(components: list[JSON]) -> Iterator[tuple[Path, str]]:
    """Every media url the components show (gallery items, thumbnails, files), with the path
    of its ``url`` field."""
    for path, component in walk_with_paths(components):
        kind = component.get("type")
        if kind == MEDIA_GALLERY:
            for index, item in enumerate(component.get("items") or []):
                url = (item.get("media") or {}).get("url")
                if url is not None:
                    yield (*path, "items", str(index), "media", "url"), str(url)
        elif kind in (THUMBNAIL, FILE):
            key = "media" if kind == THUMBNAIL else "file"
            url = (component.get(key) or {}).get("url")
            if url is not None:
                yield (*path, key, "url"), str(url)


def attachment_name(url: str) -> str | None:
    """The file name an ``attachment://NAME`` url refers to; None for any other url."""
    return url.removeprefix(ATTACHMENT_SCHEME) if url.startswith(ATTACHMENT_SCHEME) else None
