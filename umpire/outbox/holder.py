"""Who holds an outbox: each umpire's holder id, and whether a holder's process is gone.

A holder id names one umpire (one per bot process): the host name, for people reading it; the
kernel's boot and the process namespace, within which a pid names one process; the pid; and a
random part, so that two umpires in one process, or a pid used again later, never share one.
A holder of this machine (same boot, same namespace) whose process no longer runs holds
nothing: its outboxes are freed at once instead of after their leases (a bot killed and
started again). Anything this process cannot tell about waits for the lease.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket

from storage.store import Store

log = logging.getLogger("vedette.outbox")


def new_holder() -> str:
    """A holder id for one process's umpire: its host name (for people reading it), the
    kernel's boot and the process namespace it runs in (for ``holder_is_gone``), its pid, and
    a random part (so that two umpires in one process, or a pid used again, never share one)."""
    return f"{socket.gethostname()}:{_this_kernel()}:{os.getpid()}:{secrets.token_hex(6)}"


def holder_is_gone(holder: str) -> bool:
    """Whether ``holder`` was a process of this machine, since its last boot and in the same
    process namespace (the same container), that no longer runs: a bot killed and started
    again. Its outboxes need not wait for their leases to run out. Anything else, as far as
    this process can tell, may still be alive (another machine, another container, a pid in
    use again)."""
    parts = holder.rsplit(":", 4)
    if len(parts) != 5 or not parts[3].isdigit():
        return False
    kernel, pid = f"{parts[1]}:{parts[2]}", int(parts[3])
    if kernel != _this_kernel() or "-" in (parts[1], parts[2]) or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return True
    except (PermissionError, OverflowError):
        return False
    return False


def _this_kernel() -> str:
    """The kernel's boot and the process namespace this process sees pids in, as
    ``boot:namespace`` (Linux; each ``-`` where it cannot tell): a pid means one process only
    within both."""
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as boot_file:
            boot = boot_file.read().strip().replace("-", "")[:16] or "-"
    except OSError:
        boot = "-"
    try:
        namespace = str(os.stat("/proc/self/ns/pid").st_ino)
    except OSError:
        namespace = "-"
    return f"{boot}:{namespace}"


async def free_gone_holders(store: Store) -> list[str]:
    """Release the outboxes held by processes of this machine that no longer run
    (``holder_is_gone``); the games freed."""
    freed = []
    for game_id, holder in await store.outbox_holders():
        if holder_is_gone(holder):
            await store.release_outbox(holder, game_id)
            freed.append(game_id)
    if freed:
        log.info("outboxes of %d games freed: their holder's process is gone", len(freed))
    return freed
