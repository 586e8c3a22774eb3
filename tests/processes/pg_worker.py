"""One bot process's umpire, for the several-processes tests, run as
``python -m tests.processes.pg_worker TARGET SCRIPT OUT_DIR NAME``.

``TARGET`` is a database target (a SQLite file or a ``postgresql://`` URL) holding games that
are already set up; ``SCRIPT`` is a JSON file (see :func:`write_script`): for each game the
commands to give, in order, each with the user who gives it and its request id, plus the
outbox lease and how long the transport takes to send one delivery. The worker writes
``NAME.ready`` once its store is open, and starts when a file ``go`` appears in ``OUT_DIR`` (so
that several workers start together).

The worker opens its own ``Umpire`` on the target and, all at once, plays every game's commands
in order (each game's after the previous one was answered) while draining the outbox with its
own holder id, to a transport that writes each delivery it sends to a file. It writes, each line
flushed as it happens, into ``OUT_DIR``:

- ``NAME.holder``: its outbox holder id (``umpire.outbox.holder.new_holder``), at the start;
- ``NAME.accepted``: ``<game> <request>`` once the umpire answered that it accepted the command
  (so the command was durable before the line was written);
- ``NAME.answers``: ``<game> <request> accepted|already|refused <words>`` for every command;
- ``NAME.sent``: ``<game> <delivery id> <unix time>`` for every delivery handed to the
  transport, written when the transport has it (before it is marked sent);
- ``NAME.states.json`` at the end: every game's state as this worker's umpire holds it
  (``rules.state.to_snapshot``), then ``NAME.done``.

Its store's clock (by which it reckons outbox leases, and stamps ``NAME.sent``) is the real
time plus an offset, 0 until the test writes a number of seconds into ``NAME.clock`` in
``OUT_DIR`` (read whenever a drain round finds nothing to send): so a test moves the survivor's
clock past a dead worker's leases instead of waiting for them in real time.

Once its commands are answered it goes on draining until no delivery waits anywhere (those a
dead worker had claimed are taken over when its lease ends), then stops. It never frees the
outboxes of dead processes of its own machine early (as the bot's loop does, with
``umpire.outbox.holder.free_gone_holders``): like a process on another machine, it waits for
their leases to end.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TextIO

import storage.db
from rules.commands import COMMAND_TYPES, Command
from rules.state import to_snapshot
from storage.clock import utc_now
from storage.json_codec import JsonObject
from storage.records import Picture
from storage.store import Store
from umpire.outbox.drain import drain
from umpire.outbox.holder import new_holder
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError

#: Two worker processes write to one SQLite file at once, on a test machine that may be loaded:
#: a writer waits for the other's write lock however long that takes, rather than failing after
#: the store's 5 s (``storage.db.BUSY_TIMEOUT_MS``, meant for a second process run by mistake).
#: Set when the worker runs, not when a test imports this module.
PATIENT_BUSY_TIMEOUT_MS = 600_000

#: How long a drain loop waits between two rounds when nothing was sent.
IDLE_PAUSE = 0.05


@dataclass(frozen=True, slots=True)
class Step:
    """One command of a script: who gives it, its request id and the command."""

    user: int
    request: str
    command: Command


def write_script(path: Path, games: dict[str, Sequence[tuple[int, str, Command]]], *,
                 lease_seconds: float = 2.0, send_delay: float = 0.0,
                 meet: Sequence[str] = ()) -> None:
    """Write a worker's script: ``games`` maps a game id to its ``(user, request, command)``
    steps in order. ``meet``: the names of other workers; once this one has a command accepted
    it gives no other until each of them has had one accepted too (so that every one of them
    surely plays a share, however the machine schedules them)."""
    data = {
        "lease_seconds": lease_seconds,
        "send_delay": send_delay,
        "meet": list(meet),
        "games": {gid: [[user, request, json.loads(command.model_dump_json())]
                        for user, request, command in steps]
                  for gid, steps in games.items()},
    }
    path.write_text(json.dumps(data), encoding="utf-8")


def read_steps(data: dict[str, Any]) -> dict[str, list[Step]]:
    games: dict[str, list[Step]] = {}
    for gid, steps in data["games"].items():
        games[gid] = [Step(int(user), str(request), _command(body))
                      for user, request, body in steps]
    return games


def _command(body: dict[str, Any]) -> Command:
    command: Command = COMMAND_TYPES[body["kind"]].model_validate(body)  # type: ignore[assignment]
    return command


class Lines:
    """An append-only text file, each line flushed to the OS at once (a killed process loses
    none it wrote)."""

    def __init__(self, path: Path) -> None:
        self._file: TextIO = path.open("a", encoding="utf-8")

    def write(self, line: str) -> None:
        self._file.write(line + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


class OffsetClock:
    """The real time plus ``offset`` seconds (which the test may set: ``NAME.clock``)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0.0

    def __call__(self) -> datetime:
        return utc_now() + timedelta(seconds=self.offset)

    def look(self) -> None:
        if self.path.exists():
            self.offset = float(self.path.read_text(encoding="utf-8"))


class FileTransport:
    """Sends a delivery by writing its game and id to ``NAME.sent`` (after ``delay``)."""

    def __init__(self, lines: Lines, delay: float, clock: Callable[[], datetime]) -> None:
        self._lines = lines
        self._delay = delay
        self._clock = clock

    async def send(self, kind: str, target: str, text: str, image: bytes | None,
                   image_name: str | None, *, key: str = "",
                   buttons: Sequence[JsonObject] = (), edit_key: str = "",
                   mentions: tuple[int, ...] = (), pictures: Sequence[Picture] = ()) -> None:
        if self._delay:
            await asyncio.sleep(self._delay)
        game_id, _, delivery_id = key.rpartition(":")
        self._lines.write(f"{game_id} {delivery_id} {self._clock().timestamp():.3f}")


async def run(target: str, script: Path, out: Path, name: str) -> None:
    data = json.loads(script.read_text(encoding="utf-8"))
    games = read_steps(data)
    accepted = Lines(out / f"{name}.accepted")
    answers = Lines(out / f"{name}.answers")
    sent = Lines(out / f"{name}.sent")
    clock = OffsetClock(out / f"{name}.clock")
    transport = FileTransport(sent, float(data["send_delay"]), clock)
    holder = new_holder()
    (out / f"{name}.holder").write_text(holder, encoding="utf-8")
    async with Store.open(target, clock=clock) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        # Ready, then wait for the go: the workers start their commands together.
        (out / f"{name}.ready").write_text("ready\n", encoding="utf-8")
        while not (out / "go").exists():
            await asyncio.sleep(0.01)
        playing = True
        peers = [out / f"{peer}.accepted" for peer in data.get("meet", [])]
        met = asyncio.Event()

        async def meet() -> None:
            while not met.is_set():
                if all(p.exists() and p.stat().st_size for p in peers):
                    met.set()
                else:
                    await asyncio.sleep(0.01)

        async def play(gid: str, steps: list[Step]) -> None:
            for step in steps:
                try:
                    reply = await umpire.handle(gid, step.user, step.command,
                                                request_id=step.request)
                except UmpireError as e:
                    answers.write(f"{gid} {step.request} refused {e}")
                    continue
                if reply.repeated:
                    answers.write(f"{gid} {step.request} already")
                else:
                    accepted.write(f"{gid} {step.request}")
                    answers.write(f"{gid} {step.request} accepted")
                    await meet()

        async def deliver() -> None:
            while True:
                count = await drain(store, transport, holder=holder,
                                    lease_seconds=float(data["lease_seconds"]))
                if count:
                    continue
                if not playing and not await store.pending_deliveries(limit=1):
                    return
                await asyncio.sleep(IDLE_PAUSE)
                clock.look()

        delivering = asyncio.create_task(deliver())
        await asyncio.gather(*(play(gid, steps) for gid, steps in games.items()))
        playing = False
        await delivering
        states = {gid: to_snapshot(await umpire.repository.state_for(gid)) for gid in games}
    (out / f"{name}.states.json").write_text(json.dumps(states, sort_keys=True),
                                             encoding="utf-8")
    for lines in (accepted, answers, sent):
        lines.close()
    (out / f"{name}.done").write_text("done\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    if len(argv) != 4:
        print("usage: python -m tests.processes.pg_worker TARGET SCRIPT OUT_DIR NAME",
              file=sys.stderr)
        return 2
    target, script, out, name = argv
    storage.db.BUSY_TIMEOUT_MS = PATIENT_BUSY_TIMEOUT_MS
    asyncio.run(run(target, Path(script), Path(out), name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
