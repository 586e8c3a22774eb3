"""Turning message requests (JSON or multipart) into stored messages, with the validation
Discord applies before it accepts one."""

from __future__ import annotations

import mimetypes
from typing import Any

from .rest import DiscordError, RecordedRequest
from .state import FakeChannel, World

JSON = dict[str, Any]

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_FILES = 10


def _form_error(field: str, code: str, message: str) -> DiscordError:
    errors = {field: {"_errors": [{"code": code, "message": message}]}}
    return DiscordError(400, 50035, "Invalid Form Body", errors)


def request_body(request: RecordedRequest) -> JSON:
    body = request.json
    if body is None:
        return {}
    if not isinstance(body, dict):
        raise DiscordError(400, 50109, "The request body contains invalid JSON.")
    return body


def validate(body: JSON, request: RecordedRequest, *, creating: bool) -> None:
    """The checks real Discord makes that a bot is most likely to trip over."""
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


def uploads(world: World, channel: FakeChannel, body: JSON, request: RecordedRequest) -> list[JSON]:
    """Attachment objects for the ``files[n]`` parts; the ``attachments`` entry with id ``n``
    may rename the file or give it a description."""
    described = {str(a.get("id")): a for a in body.get("attachments") or []}
    result = []
    for index, upload in enumerate(request.files):
        meta = described.get(str(index), {})
        filename = meta.get("filename") or upload.filename or f"file{index}"
        ctype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        attachment = world.attachment_payload(channel.id, filename, upload.data, ctype)
        if meta.get("description"):
            attachment["description"] = meta["description"]
        result.append(attachment)
    return result
