"""What a front end (the Discord bot) needs beside commands and reads, so that it never touches
the store itself: games as ``GameRef``s (never the seed), the players' seats and whether DMs reach
them, orders waiting for a confirmation, the outbox, and a few values it remembers across
restarts."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from functools import cached_property, partial
from pathlib import Path
from typing import Any

from rules.forces.lookup import own_unit
from rules.forces.markers import own_marker
from rules.refusal import Refusal
from storage.errors import StorageError as DatabaseError
from storage.records import GameStatus, PlayerRecord
from storage.store import Store
from umpire.answers import UmpireError
from umpire.base import UmpireBase
from umpire.gameref import GameRef, ref_of
from umpire.outbox import dm_notice
from umpire.outbox import drain as outbox
from umpire.outbox import holder as outbox_holder
from umpire.outbox.drain import DEFAULT_LEASE, Transport
from umpire.reads import foreseen, pending, player_settings
from umpire.reads.pending import Pending, PendingMarch, PendingMove
from umpire.reads.player_settings import Preview
from umpire.words import replies as wording

__all__ = ["DatabaseError", "Front", "backup_database"]


class Front(UmpireBase):
    """The front end's door into the umpire."""

    # -- games -----------------------------------------------------------------------------------
    async def game(self, game_id: str) -> GameRef | None:
        """The game ``game_id``, or ``None`` if there is none."""
        record = await self.store.get_game(game_id)
        return None if record is None else ref_of(record)

    async def games(self, *, channel_id: int | None = None, status: GameStatus | None = None
                    ) -> list[GameRef]:
        """The games bound to a channel and/or in one status, oldest first."""
        return [ref_of(g) for g in await self.store.list_games(channel_id=channel_id,
                                                               status=status)]

    async def set_game_options(self, game_id: str, options: Mapping[str, Any]) -> GameRef:
        """Set these keys of the game's options (the front end's own: delivery mode, threads),
        keeping every other key as stored now (``change_game_options``)."""
        given = dict(options)
        return await self.change_game_options(game_id, lambda stored: {**stored, **given})

    async def change_game_options(
            self, game_id: str, change: Callable[[dict[str, Any]], Mapping[str, Any]]) -> GameRef:
        """Change the game's options from what they are when the change is written, in one
        transaction holding the game's lock (``Store.change_options``): ``change`` gets the
        stored options and returns the new ones. Another process's change meanwhile, to other
        keys or to another side's entry of a per-side map, is kept. ``change`` must be pure."""
        record = await self.store.change_options(game_id, lambda stored: dict(change(stored)))
        return ref_of(record)

    async def players(self, game_id: str) -> list[PlayerRecord]:
        """The game's seated players."""
        return await self.store.players(game_id)

    async def set_dm_ok(self, game_id: str, user_id: int, ok: bool) -> None:
        """Record whether direct messages reach this player."""
        await self.store.set_dm_ok(game_id, user_id, ok)

    async def accepted(self, game_id: str, request_id: str) -> bool:
        """Whether the umpire has accepted a command with this request id in this game."""
        from rules.engine import request_key

        return request_key(request_id) in (await self.repository.get(game_id)).state.requests

    async def warm(self, game_id: str) -> None:
        """Load the game into this process's memory (as any read would), and ready the renderer
        for its board (``render.warm_up``: nothing is drawn), so that the next read,
        autocomplete or a map say, finds it ready; nothing is returned."""
        game = await self.repository.get(game_id)
        await self.maps.warm_up(game.loaded.map)

    # -- direct messages -------------------------------------------------------------------------
    async def dm_failed(self, user_id: int) -> None:
        await dm_notice.dm_failed(self.store, user_id)

    async def dm_worked(self, user_id: int) -> None:
        await dm_notice.dm_worked(self.store, user_id)

    async def take_dm_notice(self, user_id: int) -> bool:
        """Whether this user is owed the closed-DMs notice (then it counts as told)."""
        return await dm_notice.take_notice(self.store, user_id)

    # -- orders waiting for a confirmation (umpire.reads.pending)
    # -----------------------------------
    async def save_pending_move(self, game_id: str, user_id: int, unit: str, route: str
                                ) -> PendingMove:
        """Keep a previewed move for its Confirm, stamped with the current turn and step, with
        how the unit stands now (``pending.standing``) and with what its preview promised
        (``umpire.reads.foreseen.word_of``)."""
        state = (await self.repository.get(game_id)).state
        return await pending.save(self.store, game_id, user_id, unit, route, turn=state.turn,
                                  step=state.step,
                                  previewed=await self._standing(game_id, user_id, unit, route))

    async def pending_outdated(self, move: PendingMove) -> str | None:
        """``None`` while the previewed unit stands as its preview found it and the preview's
        word still holds on what the side knows now; otherwise what to tell the player, whose
        Confirm would no longer do what the preview said (ruling ORD-47)."""
        was_unit, told, was_word = move.previewed.partition("\n")
        now = await self._standing(move.game_id, move.user_id, move.unit,
                                   move.route if told else "")
        unit_now, _, word_now = now.partition("\n")
        if was_unit != unit_now:
            return (f"This preview is out of date: {move.unit} has moved or changed since it was "
                    "shown. Give the order again to see where it would go now.")
        if was_word == word_now:
            return None
        return (f"Not ordered: what your side knows has changed since this preview was shown, "
                f"and the move would no longer do what it said. Now: {word_now}\nGive the order "
                "again to confirm it.")

    async def _standing(self, game_id: str, user_id: int, unit: str, route: str = "") -> str:
        """How the player's own unit ``unit`` stands now; empty for none; with ``route``, and
        on the next line, what a preview of the move would promise now (read from the side's
        own view only)."""
        game = await self.repository.get(game_id)
        player = await self.store.get_player(game_id, user_id)
        if player is None:
            return ""
        board = game.state.loaded.board
        try:
            mine = own_unit(game.state, player.side, unit)
        except Refusal:
            marker = own_marker(game.state.markers, player.side, unit)
            return "" if marker is None else pending.marker_standing(marker, board)
        standing = pending.standing(mine, board)
        if not route:
            return standing
        return f"{standing}\n{foreseen.word_of(game.state, player.side, unit, route)}"

    async def pending_move(self, pending_id: str) -> PendingMove | None:
        return await pending.load(self.store, pending_id)

    async def pending_march(self, pending_id: str) -> PendingMarch | None:
        return await pending.load_march(self.store, pending_id)

    async def settle_pending_move(self, move: Pending, status: str) -> None:
        await pending.settle(self.store, move, status)

    async def pending_expiry(self, move: Pending) -> str | None:
        """``None`` while the order's phase lasts; once it is over, the order is expired (if it
        was open) and this is what to tell its player."""
        state = (await self.repository.get(move.game_id)).state
        if pending.in_its_phase(state, move.turn, move.step):
            return None
        await pending.settle_open(self.store, move, pending.EXPIRED)
        return pending.expired_words(state, move.turn, move.step)

    async def pending_shown(self, pending_id: str, shown: dict[str, Any]) -> None:
        """Remember where an order's preview was shown (the front end's record)."""
        await pending.note_shown(self.store, pending_id, shown)

    async def expire_pending(self, game_id: str) -> list[tuple[Pending, str]]:
        """Expire the game's orders whose phase is over; each with what its preview should now
        say. Cheap when none is open."""
        if not await self.store.open_pending_orders(game_id):
            return []
        state = (await self.repository.get(game_id)).state
        return [(p, pending.expired_words(state, p.turn, p.step))
                for p in await pending.expire_past(self.store, state, game_id)]

    # -- a player's own settings (every game) ----------------------------------------------------
    async def preview_setting(self, user_id: int) -> Preview:
        """Which of the player's moves are shown before they are given (ruling ORD-2)."""
        return await player_settings.preview(self.store, user_id)

    async def set_preview_setting(self, user_id: int, value: Preview) -> Preview:
        """Keep the player's preview setting for every game; the setting now in force."""
        await player_settings.set_preview(self.store, user_id, value)
        return await player_settings.preview(self.store, user_id)

    # -- the outbox ------------------------------------------------------------------------------
    # Several processes may share the database: each umpire sends a lane of a game's outbox
    # only while it holds the lane's lease (``umpire.outbox.drain``), under its own holder id.
    @cached_property
    def outbox_holder(self) -> str:
        """This umpire's holder id for outbox leases (host name, pid, random)."""
        return outbox_holder.new_holder()

    async def claim_outboxes(self, limit: int = 500, lease_seconds: float = DEFAULT_LEASE, *,
                             after: str = "") -> list[str]:
        """Claim, for this umpire, the lanes with deliveries waiting that no other live holder
        holds in up to ``limit`` games (whose id sorts after ``after``, if given); the games'
        ids, in id order. Drain each (``drain``, which releases its lanes) or release it."""
        if not after:  # once per round: what a killed process of this machine held is free
            await outbox_holder.free_gone_holders(self.store)
        return await self.store.claim_outboxes(self.outbox_holder, lease_seconds, limit,
                                               after=after)

    async def release_outbox(self, game_id: str) -> None:
        """Give up a claimed outbox without draining it (another process may send it); the
        lanes this umpire is sending right now are released by their drain."""
        await outbox.release(self.store, self.outbox_holder, game_id)

    async def drain(self, game_id: str, transport: Transport, *,
                    lease_seconds: float = DEFAULT_LEASE, resting: Collection[str] = ()
                    ) -> int:
        """Send the game's pending deliveries through ``transport``, each lane of its outbox
        side by side (``umpire.outbox.drain``), those this umpire can claim (another live holder's
        are left to it, and so are the lanes in ``resting``); how many were sent. Each
        delivery's key is its nonce (``umpire.outbox.drain.nonce``), keyed with the game's seed, and
        each map is drawn as it goes (``umpire.reads.pictures``)."""
        record = await self.store.get_game(game_id)
        if record is None:
            raise UmpireError(wording.no_such_game(game_id))
        return await outbox.drain(self.store, transport, game_id, secret=record.seed,
                                  holder=self.outbox_holder, lease_seconds=lease_seconds,
                                  paint=partial(self.with_picture, sending=True),
                                  resting=resting)

    # -- remembered values -----------------------------------------------------------------------
    async def remembered(self, key: str) -> str | None:
        """A value the front end asked to keep (such as the hash of its pushed commands)."""
        return await self.store.get_state(f"front:{key}")

    async def remember(self, key: str, value: str) -> None:
        await self.store.set_state(f"front:{key}", value)


async def backup_database(db: Path, out: Path, *, overwrite: bool = False) -> Path:
    """Copy the database consistently (even while the bot runs); the file written. Raises
    ``DatabaseError`` when the copy cannot be made."""
    async with Store.open(db) as store:
        return await store.backup(out, overwrite=overwrite)
