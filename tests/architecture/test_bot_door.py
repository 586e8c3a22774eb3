"""The bot's door into the umpire: it never holds the game's secret seed, and never the store.

By type: no method of the ``Umpire`` returns a stored game record (which carries the seed), nor a
whole game state (``GameState``: every side's secrets), and no record type the bot receives has
a seed field. By structure: the ``Umpire``'s parts sit side by side, each on ``UmpireBase``
alone, none on another part or on the repository. By construction: every game reference and
record the bot's calls return, for a game with a known seed, holds neither the seed's bytes nor
its hex. By source: no module of ``bot/`` reads the store or a seed."""

from __future__ import annotations

import abc
import dataclasses
import inspect
import re
import typing
from collections.abc import Awaitable, Iterator, Mapping
from pathlib import Path
from typing import Any

from rules.state import GameState
from storage.store import Store
from tests.support.botkit import FIXTURES
from umpire.answers import Reply
from umpire.base import UmpireBase
from umpire.gameref import DeliveryRecord, GameRef, PlayerRecord, SeatRequest
from umpire.games.repository import Repository
from umpire.modules.surprise import MarchStatus, PendingDetour
from umpire.reads import pending
from umpire.reads.maps import MapMaker
from umpire.reads.preview import MovePlan
from umpire.service import Umpire

ROOT = Path(__file__).resolve().parents[2]
SEED = bytes(range(100, 132))
RECEIVED = (GameRef, Reply, PlayerRecord, DeliveryRecord, SeatRequest, pending.PendingMove,
            MovePlan, MarchStatus, PendingDetour)


def public_methods() -> Iterator[tuple[str, Any]]:
    for name, member in inspect.getmembers(Umpire, inspect.isfunction):
        if not name.startswith("_"):
            yield name, member


def test_no_umpire_method_hands_out_a_stored_game_record() -> None:
    offending = [name for name, method in public_methods()
                 if re.search(r"GameRecord|GameSources|bytes\b(?!.*image)",
                              str(inspect.signature(method).return_annotation))]
    assert offending == []
    assert {"game", "games", "games_of", "set_game_options"} <= dict(public_methods()).keys()


def holds_state(hint: object, seen: set[object] | None = None) -> bool:
    """Whether the type ``hint`` is a ``GameState`` or may hold one: inside an ``Awaitable``,
    a ``Coroutine``, a container, a union, or a field of a dataclass."""
    seen = set() if seen is None else seen
    if hint is GameState:
        return True
    if hint in seen or isinstance(hint, str):
        return False
    seen.add(hint)
    if any(holds_state(arg, seen) for arg in typing.get_args(hint)):
        return True
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return any(holds_state(h, seen) for h in typing.get_type_hints(hint).values())
    return False


def state_returning(cls: type) -> list[str]:
    """The public callables of ``cls`` (methods, class and static methods, properties) whose
    return type is or holds a ``GameState``."""
    found = []
    for name, member in inspect.getmembers(cls):
        if name.startswith("_"):
            continue
        function = getattr(member, "func", None) or getattr(member, "fget", None) or member
        if callable(function) and not isinstance(function, type) \
                and holds_state(typing.get_type_hints(function).get("return")):
            found.append(name)
    return found


def test_no_umpire_method_returns_a_whole_game_state() -> None:
    assert state_returning(Umpire) == []
    assert {"handle", "games", "warm", "replay"} <= dict(inspect.getmembers(Umpire)).keys()


@dataclasses.dataclass
class _Holding:
    states: dict[str, GameState]


class _Leaky(Umpire):
    """An umpire with doors the check must find."""

    async def bare(self) -> GameState: ...
    def waiting(self) -> Awaitable[list[GameState] | None]: ...
    async def held(self) -> tuple[_Holding, int]: ...


def test_the_state_checker_finds_a_state_however_wrapped() -> None:
    assert state_returning(_Leaky) == ["bare", "held", "waiting"]
    assert state_returning(Repository)  # the repository is where a whole state is read


def test_the_umpire_parts_sit_side_by_side_on_one_base() -> None:
    outside = {Umpire, UmpireBase, object, abc.ABC, typing.Generic}
    parts = [c for c in Umpire.__mro__ if c not in outside]
    assert len(parts) == len(Umpire.__bases__) >= 9
    for part in parts:
        assert part.__bases__ == (UmpireBase,), part
        assert "super()" not in inspect.getsource(part), part
    assert Repository not in Umpire.__mro__
    assert UmpireBase.__bases__ == (abc.ABC,)


def test_no_record_the_bot_receives_has_a_seed_field() -> None:
    for kind in RECEIVED:
        names = {f.name for f in dataclasses.fields(kind)}
        assert not {n for n in names if "seed" in n or "secret" in n}, kind


def holds_seed(value: object) -> bool:
    """Whether the seed (bytes or hex) is anywhere inside ``value``."""
    if isinstance(value, bytes):
        return SEED in value
    if isinstance(value, str):
        return SEED.hex() in value.lower()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return any(holds_seed(getattr(value, f.name)) for f in dataclasses.fields(value))
    if isinstance(value, Mapping):
        return any(holds_seed(k) or holds_seed(v) for k, v in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return any(holds_seed(v) for v in value)
    return False


def test_the_checker_finds_a_seed() -> None:
    assert holds_seed({"x": [("a", SEED)]}) and holds_seed(f"seed {SEED.hex()}")
    assert not holds_seed(GameRef("g", "s", 1, None, None, "setup"))


async def test_nothing_the_bot_is_handed_carries_the_seed(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(FIXTURES / "tiny.toml"), 1, game_id="g1", seed=SEED,
                                 guild_id=5, channel_id=7)
        await umpire.join("g1", 1, "blue", in_server=True)
        await umpire.join("g1", 2, "grey", in_server=True)
        started = await umpire.start("g1", 1)
        move = await umpire.save_pending_move("g1", 1, "blue-1", "A0102")
        handed: list[object] = [
            started, await umpire.game("g1"), await umpire.games(channel_id=7),
            await umpire.games(status="active"), await umpire.games_of(1),
            await umpire.set_game_options("g1", {"delivery": "dms"}),
            await umpire.players("g1"), await umpire.player("g1", 1), move,
            await umpire.pending_move(move.id), await umpire.status("g1", 1),
            await umpire.units_text("g1", 1), await umpire.log_text("g1", 1),
            await umpire.inbox("g1", 1), await umpire.seat_requests("g1"),
            await umpire.sides("g1"), await umpire.remembered("anything"),
        ]
        assert (await store.get_game("g1")).seed == SEED  # type: ignore[union-attr]
        assert [h for h in handed if holds_seed(h)] == []
        ref = await umpire.game("g1")
        assert isinstance(ref, GameRef) and not hasattr(ref, "seed")


def test_no_bot_module_reads_the_store_or_a_seed() -> None:
    breaches = [f"{f.relative_to(ROOT)}:{n}" for f in sorted((ROOT / "bot").rglob("*.py"))
                for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
                if re.search(r"\.store\b|\.seed\b", line)]
    assert breaches == []
