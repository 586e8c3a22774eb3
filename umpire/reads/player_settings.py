"""A player's own settings, the same in every game they play: for now whether their moves are
shown before they are given (ruling ORD-2). Kept in the store's key-value table under the
player's Discord id, so that they survive restarts and need no migration."""

from __future__ import annotations

from enum import StrEnum

from storage.store import Store


class Preview(StrEnum):
    """Which of a player's moves the bot shows for confirmation before giving them."""

    #: Every move (the default): each step's cost, where it ends, then Confirm or Cancel.
    ON = "on"
    #: Only moves by road or longer than ``umpire.reads.preview.LONG_ROUTE`` cells; shorter ones are
    #: given at once.
    OFF = "off"


#: A player who never said otherwise sees every move before giving it (ruling ORD-2).
DEFAULT_PREVIEW = Preview.ON


def _key(user_id: int) -> str:
    return f"player-setting:{user_id}:preview"


async def preview(store: Store, user_id: int) -> Preview:
    """The player's preview setting (the default if they never chose)."""
    raw = await store.get_state(_key(user_id))
    try:
        return Preview(raw) if raw is not None else DEFAULT_PREVIEW
    except ValueError:
        return DEFAULT_PREVIEW  # a value no version wrote: the default, never an error


async def set_preview(store: Store, user_id: int, value: Preview) -> None:
    await store.set_state(_key(user_id), Preview(value).value)
