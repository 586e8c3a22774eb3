"""One process draining the outbox of a shared database, for the outbox lease tests, run as
``python -m tests.processes.lease_worker TARGET SENT_FILE --lease S [--delay S] [--hang-after N]
[--go FILE] [--together DIR N]``.

It drains every game's outbox with a holder of its own (``umpire.outbox.drain.drain``) until no
delivery is pending anywhere (waiting while another process holds what is left). Its transport
"sends" a delivery by appending ``<delivery key> <holder>`` to ``SENT_FILE`` (flushed and synced:
a line is there exactly when the delivery counts as accepted), after ``--delay`` seconds.
With ``--hang-after N`` the transport accepts N deliveries, then prints ``hanging`` (flushed) and
never returns from the next send: the lease it holds is renewed no more, as if the process had
stalled, until the test kills it. With ``--go FILE`` it prints its holder, then waits for
``FILE`` to exist before it starts (so that two workers start together). With ``--together DIR
N`` its first send, once it holds what it is sending, marks ``DIR/<holder>`` and waits until N
workers have (so that each of N workers surely sends some, whatever the machine's speed).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import storage.db
from storage.json_codec import JsonObject
from storage.records import Picture
from storage.store import Store
from umpire.outbox.drain import drain
from umpire.outbox.holder import new_holder

#: Two worker processes write to one SQLite file at once, on a test machine that may be loaded:
#: a writer waits for the other's write lock however long that takes, rather than failing after
#: the store's 5 s (``storage.db.BUSY_TIMEOUT_MS``, meant for a second process run by mistake).
#: Set when the worker runs, not when a test imports this module.
PATIENT_BUSY_TIMEOUT_MS = 600_000


class FileTransport:
    def __init__(self, path: str, holder: str, delay: float, hang_after: int | None,
                 together: tuple[Path, int] | None = None) -> None:
        self.path = path
        self.holder = holder
        self.delay = delay
        self.hang_after = hang_after
        self.together = together
        self.accepted = 0

    async def send(self, kind: str, target: str, text: str, image: bytes | None,
                   image_name: str | None, *, key: str = "",
                   buttons: Sequence[JsonObject] = (), edit_key: str = "",
                   mentions: tuple[int, ...] = (), pictures: Sequence[Picture] = ()) -> None:
        if self.hang_after is not None and self.accepted >= self.hang_after:
            print("hanging", flush=True)
            await asyncio.Event().wait()
        if self.together is not None:
            folder, count = self.together
            self.together = None
            (folder / self.holder.replace(":", "_")).touch()
            while len(list(folder.iterdir())) < count:
                await asyncio.sleep(0.01)
        await asyncio.sleep(self.delay)
        with open(self.path, "a", encoding="utf-8") as out:
            out.write(f"{key} {self.holder}\n")
            out.flush()
            os.fsync(out.fileno())
        self.accepted += 1


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("target")
    parser.add_argument("sent_file")
    parser.add_argument("--lease", type=float, required=True)
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--hang-after", type=int, default=None)
    parser.add_argument("--go", type=Path, default=None)
    parser.add_argument("--together", nargs=2, default=None)
    args = parser.parse_args(argv)
    storage.db.BUSY_TIMEOUT_MS = PATIENT_BUSY_TIMEOUT_MS
    holder = new_holder()
    together = None if args.together is None else (Path(args.together[0]),
                                                   int(args.together[1]))
    transport = FileTransport(args.sent_file, holder, args.delay, args.hang_after, together)
    async with Store.open(args.target) as store:
        print(f"holder {holder}", flush=True)
        while args.go is not None and not args.go.exists():
            await asyncio.sleep(0.02)
        while await store.pending_deliveries(None, limit=1):
            if not await drain(store, transport, holder=holder, lease_seconds=args.lease,
                               limit=3):
                await asyncio.sleep(0.05)  # what is left is another holder's for now
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
