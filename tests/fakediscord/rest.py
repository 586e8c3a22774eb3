"""REST plumbing for the fake Discord: request parsing and recording, a tiny router, Discord
style errors, and one-shot fault injection. The route handlers themselves live in ``routes.py``
and ``interactions.py``."""

from __future__ import annotations

import asyncio
import fnmatch
import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]


@dataclass
class RecordedFile:
    """One uploaded file (a ``files[n]`` multipart field)."""

    field: str
    filename: str
    content_type: str
    data: bytes


@dataclass
class RecordedRequest:
    """One REST request as Discord received it. ``path`` is relative to ``/api/v10``;
    ``json`` is the JSON body, or the ``payload_json`` part of a multipart upload.
    ``received`` and ``answered`` are ``time.monotonic()`` when it arrived and when its answer
    went back (0 until then)."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[RecordedFile] = field(default_factory=list)
    reason: str | None = None
    status: int = 0
    response: Any = None
    received: float = 0.0
    answered: float = 0.0

    def matches(self, method: str, pattern: str | re.Pattern[str]) -> bool:
        """``method`` may be ``"*"``; ``pattern`` is a glob or a compiled regex."""
        method_ok = method == "*" or self.method == method.upper()
        return method_ok and path_matches(pattern, self.path)


def path_matches(pattern: str | re.Pattern[str], path: str) -> bool:
    """A compiled regex must fullmatch; a string is a glob (``/channels/*/messages``)."""
    if isinstance(pattern, re.Pattern):
        return pattern.fullmatch(path) is not None
    return fnmatch.fnmatchcase(path, pattern)


class DiscordError(Exception):
    """Raised by handlers; becomes a Discord-shaped JSON error response."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> JSON:
        body: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def unknown(what: str, code: int) -> DiscordError:
    return DiscordError(404, code, f"Unknown {what}")


@dataclass
class Reply:
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


def no_content() -> Reply:
    return Reply(204)


def json_response(reply: Reply) -> web.Response:
    """discord.py only decodes bodies whose content type is exactly ``application/json``.
    aiohttp appends ``; charset=utf-8`` whenever the body is given as ``text`` (even with an
    explicit header), so the body is passed as bytes."""
    if reply.status == 204 or reply.body is None:
        return web.Response(status=reply.status, headers=reply.headers)
    headers = {"Content-Type": "application/json", **reply.headers}
    return web.Response(status=reply.status, body=json.dumps(reply.body).encode(), headers=headers)


@dataclass
class Fault:
    """A canned error for the next ``times`` requests matching ``method`` and ``path``."""

    method: str
    path: str | re.Pattern[str]
    status: int
    code: int = 0
    message: str = "Injected failure"
    times: int = 1
    retry_after: float = 0.05

    def reply(self) -> Reply:
        if self.status == 429:
            # discord.py only honours 429s that came through Discord's proxy ("Via").
            body = {"message": self.message, "retry_after": self.retry_after, "global": False}
            headers = {"Via": "1.1 google", "Retry-After": str(self.retry_after)}
            return Reply(429, body, headers)
        return Reply(self.status, {"message": self.message, "code": self.code})


class Hold:
    """The next request matching ``method`` and ``path``, held: the client waits for Discord's
    answer, as on a slow network, and a test may stop the client in that window. Made by
    ``FakeDiscord.hold_next``.

    With ``acted`` (the default) Discord acts on the request at once (a message posted, an
    interaction answered, an edit applied) and only the answer is held until ``release()``.
    Without, the request is held on its way in: ``release()`` lets it through, ``drop()`` loses
    it as a connection cut mid-request would (Discord never acts on it; it stays in
    ``FakeDiscord.requests`` with status 0)."""

    def __init__(self, method: str, path: str | re.Pattern[str], *, acted: bool = True) -> None:
        self.method = method
        self.path = path
        self.acted = acted
        self.request: RecordedRequest | None = None
        self.dropped = False
        self._arrived = asyncio.Event()
        self._released = asyncio.Event()

    def catches(self, request: RecordedRequest) -> bool:
        """Whether this hold, not yet used, is for ``request`` (it then takes it)."""
        if self.request is not None or not request.matches(self.method, self.path):
            return False
        self.request = request
        self._arrived.set()
        return True

    async def arrived(self, timeout: float = 30.0) -> RecordedRequest:
        """The held request, once it reached Discord (waiting up to ``timeout``)."""
        try:
            await asyncio.wait_for(self._arrived.wait(), timeout)
        except TimeoutError:
            raise TimeoutError(f"fake Discord: no {self.method} {self.path} request to hold "
                               f"within {timeout}s") from None
        assert self.request is not None
        return self.request

    def release(self) -> None:
        """Let the request through, or send its answer (to no one, if the client is gone)."""
        self._released.set()

    def drop(self) -> None:
        """Lose a request held on its way in (for an ``acted`` one: as ``release``)."""
        self.dropped = not self.acted
        self._released.set()

    async def wait(self) -> bool:
        """Until released or dropped; whether the request goes on."""
        await self._released.wait()
        return not self.dropped


Handler = Callable[..., Awaitable[Reply]]


class Router:
    """Maps ``(method, "/channels/{channel_id}/messages")`` templates to handlers, which are
    called as ``handler(fake, request, **path_params)``."""

    def __init__(self) -> None:
        self._routes: list[tuple[str, re.Pattern[str], Handler]] = []

    def route(self, method: str, template: str) -> Callable[[Handler], Handler]:
        regex = re.compile(re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template))

        def register(handler: Handler) -> Handler:
            self._routes.append((method, regex, handler))
            return handler

        return register

    def resolve(self, method: str, path: str) -> tuple[Handler, dict[str, str]] | None:
        for route_method, regex, handler in self._routes:
            if route_method == method and (m := regex.fullmatch(path)):
                return handler, m.groupdict()
        return None


async def parse_request(request: web.Request, path: str) -> RecordedRequest:
    """Reads a JSON or multipart (``payload_json`` + ``files[n]``) body."""
    body: Any = None
    files: list[RecordedFile] = []
    if request.content_type == "multipart/form-data":
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):  # nested multipart: not used by Discord
                continue
            data = await part.read(decode=True)
            if part.name == "payload_json":
                body = json.loads(data)
            else:
                ctype = part.headers.get("Content-Type", "application/octet-stream")
                files.append(RecordedFile(part.name or "", part.filename or "", ctype, data))
    elif request.can_read_body:
        raw = await request.read()
        if raw:
            body = json.loads(raw)
    reason = request.headers.get("X-Audit-Log-Reason")
    return RecordedRequest(request.method, path, dict(request.query), body, files, reason)


async def dispatch(fake: FakeDiscord, router: Router, request: web.Request) -> web.Response:
    """Entry point for every ``/api/v10/...`` request: record, inject faults, route, hold the
    response if a test asked for it, and answer ``fake.latency`` seconds after acting on it."""
    received = time.monotonic()
    path = "/" + request.match_info["tail"]
    recorded = await parse_request(request, path)
    recorded.received = received
    fake.requests.append(recorded)
    hold = next((h for h in fake.holds if h.catches(recorded)), None)
    if hold is not None:
        fake.holds.remove(hold)
        fake.held.append(hold)
        if not hold.acted:
            fake.notify()
            if not await hold.wait():
                return json_response(Reply(503, {"message": "Lost on the way", "code": 0}))
    try:
        reply = await _route(fake, router, request, recorded)
    except DiscordError as exc:
        reply = Reply(exc.status, exc.body())
    recorded.status, recorded.response = reply.status, reply.body
    fake.notify()
    if hold is not None and hold.acted:
        await hold.wait()
    if fake.latency > 0:
        # Acted on already (the message is posted, the world changed): only the answer is on
        # its way back, as over a slow network.
        await asyncio.sleep(fake.latency)
    recorded.answered = time.monotonic()
    return json_response(reply)


async def _route(
    fake: FakeDiscord, router: Router, request: web.Request, recorded: RecordedRequest
) -> Reply:
    # Interaction webhooks are authenticated by their token instead of the bot's.
    webhook = recorded.path.startswith(("/interactions/", "/webhooks/"))
    authorized = request.headers.get("Authorization") == f"Bot {fake.token}"
    if fake.token is not None and not authorized and not webhook:
        raise DiscordError(401, 0, "401: Unauthorized")
    for fault in fake.faults:
        if recorded.matches(fault.method, fault.path):
            fault.times -= 1
            if fault.times <= 0:
                fake.faults.remove(fault)
            return fault.reply()
    resolved = router.resolve(recorded.method, recorded.path)
    if resolved is None:
        fake.unhandled.append(recorded)
        raise DiscordError(404, 0, "404: Not Found")
    handler, params = resolved
    return await handler(fake, recorded, **params)
