"""Whether a player is owed the notice that their direct messages are closed.

A DM refused because the user does not accept DMs makes the notice owed; the user's next
interaction takes it (then it counts as told, once). A DM that reaches them again clears the
record, so a later failure is explained again. The words are the front end's (``bot.dm_notice``).
"""

from __future__ import annotations

from storage.store import Store

OWED = "owed"
TOLD = "told"


def _key(user_id: int) -> str:
    return f"dm-notice:{user_id}"


async def dm_failed(store: Store, user_id: int) -> None:
    """A DM to this user was refused: owe them the notice unless they have had it."""
    if await store.get_state(_key(user_id)) not in (OWED, TOLD):
        await store.set_state(_key(user_id), OWED)


async def dm_worked(store: Store, user_id: int) -> None:
    """A DM reached this user: forget any earlier failure."""
    if await store.get_state(_key(user_id)):
        await store.set_state(_key(user_id), "")


async def take_notice(store: Store, user_id: int) -> bool:
    """Whether the notice is owed to this user (then it counts as told)."""
    if await store.get_state(_key(user_id)) != OWED:
        return False
    await store.set_state(_key(user_id), TOLD)
    return True
