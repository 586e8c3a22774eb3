"""Turning message requests (JSON or multipart) into stored messages, with the validation
Discord applies before it accepts one."""

from __future__ import annotations

import mimetypes
from typing import Any

from .components import (
    ACTION_ROW,
    MEDIA_GALLERY,
    Path,
    attachment_name,
    component_texts,
    media_urls,
    walk,
    walk_with_paths,
)
from .rest import DiscordError, RecordedFile, RecordedRequest
from .state import IS_COMPONENTS_V2, FakeChannel, World

JSON = dict[str, Any]

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_FILES = 10
# Components v2 limits: components are counted recursively, text is the text displays' total.
MAX_COMPONENTS = 40
MAX_COMPONENT_TEXT = 4000
MAX_GALLERY_ITEMS = 10
#: What a components v2 message cannot carry: its text and pictures live in components instead.
LEGACY_FIELDS = ("content", "embeds", "sticker_ids", "poll")


def _form_error(field: str | Path, code: str, message: str) -> DiscordError:
    """A 400 / 50035 whose ``errors`` nest along ``field`` (a key, or a path of keys such as
    ``("components", "0", "items")``), as Discord reports a bad field of the body."""
    errors: JSON = {"_errors": [{"code": code, "message": message}]}
    for key in reversed((field,) if isinstance(field, str) else field):
        errors = {key: errors}
    return DiscordError(400, 50035, "Invalid Form Body", errors)


def request_body(request: RecordedRequest) -> JSON:
    body = request.json
    if body is None:
        return {}
    if not isinstance(body, dict):
        raise DiscordError(400, 50109, "The request body contains invalid JSON.")
    return body


def validate(
    body: JSON, request: RecordedRequest, *, creating: bool, message: JSON | None = None
) -> None:
    """The checks real Discord makes that a bot is most likely to trip over. ``message`` is the
    stored message the request edits, if it edits one: what the edit leaves of it is checked
    too (its flags, and the fields the body does not replace)."""
    content = body.get("content") or ""
    if len(content) > MAX_CONTENT:
        raise _form_error(
            "content", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTENT} or fewer in length."
        )
    if len(body.get("embeds") or []) > MAX_EMBEDS:
        raise _form_error(
            "embeds", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length."
        )
    if len(request.files) > MAX_FILES:
        raise _form_error("files", "BASE_TYPE_MAX_LENGTH", "Too many attachments.")
    parts = ("content", "embeds", "components", "sticker_ids", "poll")
    if creating and not request.files and not any(body.get(k) for k in parts):
        raise DiscordError(400, 50006, "Cannot send an empty message")
    _validate_components(body, request, message)


def _validate_components(body: JSON, request: RecordedRequest, message: JSON | None) -> None:
    """Once a message has the IS_COMPONENTS_V2 flag it keeps it, carries no legacy fields,
    and its components obey the v2 limits; without the flag only action rows are top-level."""
    v2 = bool(_flags_after(body, message) & IS_COMPONENTS_V2)
    if message is not None and message["flags"] & IS_COMPONENTS_V2 and not v2:
        raise _form_error("flags", "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                          "The IS_COMPONENTS_V2 flag cannot be removed from a message.")
    components = body.get("components") or []
    if not v2:
        _check_top_level_rows(components)
        return
    _check_no_legacy_fields(body, message)
    _check_component_limits(components)
    _check_attachment_urls(components, _attachment_names(body, request, message))


def _flags_after(body: JSON, message: JSON | None) -> int:
    """The message's flags once the request is applied: an edit without ``flags`` keeps them."""
    if body.get("flags") is not None:
        return int(body["flags"])
    return int(message["flags"]) if message is not None else 0


def _check_top_level_rows(components: list[JSON]) -> None:
    """Without the flag Discord reads components the old way: action rows at the top, so a
    container or a text display there is refused."""
    for index, component in enumerate(components):
        if component.get("type") != ACTION_ROW:
            raise _form_error(("components", str(index), "type"), "UNION_TYPE_CHOICES",
                              "Only action rows (type 1) may be top-level components of a "
                              "message without the IS_COMPONENTS_V2 flag.")


def _check_no_legacy_fields(body: JSON, message: JSON | None) -> None:
    """Content, embeds, stickers and polls must be empty on a v2 message: those the body sends,
    and on an edit those it leaves in place (a message turned v2 by an edit must clear them)."""
    kept = message or {}
    for field in LEGACY_FIELDS:
        value = body[field] if field in body else kept.get(field)
        if value:
            raise _form_error(field, "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                              f"A message with the IS_COMPONENTS_V2 flag cannot have {field}.")


def _check_component_limits(components: list[JSON]) -> None:
    """At most 40 components counted recursively (the buttons in action rows and the children
    of containers and sections count; media gallery items do not), at most 4000 characters of
    text displays in all, and 1 to 10 items in each media gallery."""
    count = sum(1 for _ in walk(components))
    if count > MAX_COMPONENTS:
        raise _form_error("components", "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
                          f"A message may hold {MAX_COMPONENTS} components in all "
                          f"(nested ones included); this one has {count}.")
    text = sum(len(t) for t in component_texts(components))
    if text > MAX_COMPONENT_TEXT:
        # The code is the fake's: the one Discord uses here is not documented.
        raise _form_error("components", "BASE_TYPE_MAX_LENGTH",
                          f"The text displays may hold {MAX_COMPONENT_TEXT} characters in "
                          f"all; these hold {text}.")
    for path, component in walk_with_paths(components):
        items = component.get("items") or []
        if component.get("type") == MEDIA_GALLERY and not 1 <= len(items) <= MAX_GALLERY_ITEMS:
            raise _form_error((*path, "items"), "BASE_TYPE_BAD_LENGTH",
                              f"Must be between 1 and {MAX_GALLERY_ITEMS} in length.")


def _check_attachment_urls(components: list[JSON], names: set[str]) -> None:
    """An ``attachment://NAME`` url must name a file of the message: one uploaded with this
    request, or (on an edit) one the message keeps. (The error code is the fake's.)"""
    for path, url in media_urls(components):
        name = attachment_name(url)
        if name is not None and name not in names:
            raise _form_error(path, "ATTACHMENT_NOT_FOUND",
                              f"{url} names no file uploaded with or kept by the message.")


def _attachment_names(body: JSON, request: RecordedRequest, message: JSON | None) -> set[str]:
    """The file names the message will have: this request's uploads, plus on an edit the
    attachments it keeps (all of them, unless the body lists which by ``attachments``)."""
    names = set(upload_names(body, request))
    if message is not None:
        kept = message["attachments"]
        if "attachments" in body:
            wanted = {str(a.get("id")) for a in body["attachments"] or []}
            kept = [a for a in kept if a["id"] in wanted]
        names |= {a["filename"] for a in kept}
    return names


def _upload_meta(body: JSON) -> dict[str, JSON]:
    """The ``attachments`` entries by id; an upload's entry has the id of its ``files[n]``."""
    return {str(a.get("id")): a for a in body.get("attachments") or []}


def _upload_name(meta: JSON, upload: RecordedFile, index: int) -> str:
    return str(meta.get("filename") or upload.filename or f"file{index}")


def upload_names(body: JSON, request: RecordedRequest) -> list[str]:
    """The names the request's uploaded files will have, in ``files[n]`` order."""
    described = _upload_meta(body)
    return [_upload_name(described.get(str(i), {}), upload, i)
            for i, upload in enumerate(request.files)]


def uploads(world: World, channel: FakeChannel, body: JSON, request: RecordedRequest) -> list[JSON]:
    """Attachment objects for the ``files[n]`` parts; the ``attachments`` entry with id ``n``
    may rename the file or give it a description."""
    described = _upload_meta(body)
    result = []
    for index, upload in enumerate(request.files):
        meta = described.get(str(index), {})
        filename = _upload_name(meta, upload, index)
        ctype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        attachment = world.attachment_payload(channel.id, filename, upload.data, ctype)
        if meta.get("description"):
            attachment["description"] = meta["description"]
        result.append(attachment)
    return result
