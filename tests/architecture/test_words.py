"""The words of the game as types: a unit's kind, echelon, formation and movement class, a
game's status and a surprise march's state are enums, checked with the same messages as
before, stored and read back as the same members, and compared as members in the code."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, ValidationError

from rules.forces.words import Echelon, Formation, MovementClass, UnitKind
from rules.scenario.models import UnitSpec
from rules.scenario.ruleset import Ruleset
from rules.state import from_snapshot, initial_state, to_snapshot
from rules.surprise import records as rec
from rules.surprise.records import MarchState
from rules.turn.status import GameStatus
from storage import GameRecord, Store
from umpire.games import catalog

ROOT = Path(__file__).parents[2]


def _message(model: type[BaseModel], data: dict[str, object]) -> str:
    with pytest.raises(ValidationError) as caught:
        model.model_validate(data)
    return str(caught.value.errors()[0]["msg"])


class _OldKind(BaseModel):
    kind: Literal["infantry", "cavalry", "artillery", "leader", "hq", "wagon"]


class _OldClass(BaseModel):
    movement_class: Literal["foot", "horse", "wheeled", "leader"] | None = None


def test_a_wrong_word_gets_the_same_message_as_from_a_list_of_words() -> None:
    unit = {"id": "u", "side": "blue", "name": "U", "kind": "zeppelin", "at": "A0101"}
    assert _message(UnitSpec, unit) == _message(_OldKind, {"kind": "zeppelin"}) == (
        "Input should be 'infantry', 'cavalry', 'artillery', 'leader', 'hq' or 'wagon'")
    moving = {**unit, "kind": "infantry", "movement_class": "swim"}
    assert _message(UnitSpec, moving) == _message(_OldClass, {"movement_class": "swim"})
    assert _message(UnitSpec, {**unit, "kind": "infantry", "echelon": "platoon"}).startswith(
        "Input should be 'army', 'corps', 'division'")


def test_a_ruleset_keyed_by_an_unknown_movement_class_is_refused() -> None:
    with pytest.raises(ValidationError) as caught:
        Ruleset.model_validate({"id": "r", "name": "r", "stand_in": True, "terrain": {},
                                "movement_allowance": {"foot": 6, "rocket": 40}})
    assert "Input should be 'foot', 'horse', 'wheeled' or 'leader'" in str(caught.value)


def test_units_carry_members_and_get_them_back_from_a_snapshot() -> None:
    state = initial_state(catalog.load_file(catalog.find("flank-march")))
    back = from_snapshot(state.loaded, to_snapshot(state))
    for unit in (*state.units.values(), *back.units.values()):
        assert type(unit.kind) is UnitKind
        assert type(unit.echelon) is Echelon
        assert type(unit.formation) is Formation
        assert type(unit.movement_class) is MovementClass
    assert back.units == state.units
    assert type(back.status) is GameStatus and back.status == GameStatus.SETUP


async def test_a_stored_game_status_reads_back_as_the_enum(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "vedette.db") as store:
        await store.create_game(GameRecord(id="g1", scenario_id="s", scenario_path="s.toml",
                                           host_user_id=1, seed=bytes(32)))
        await store.update_game("g1", status=GameStatus.PAUSED)
        found = await store.get_game("g1")
        assert found is not None and found.status is GameStatus.PAUSED
        listed = await store.list_games(status=GameStatus.PAUSED)
        assert [g.id for g in listed] == ["g1"]
    assert GameStatus.PAUSED.in_play and not GameStatus.ENDED.in_play


def test_a_march_record_reads_as_a_march_state() -> None:
    assert rec.state_of({"status": "accumulating"}) is MarchState.ACCUMULATING
    assert {MarchState.ACCUMULATING, MarchState.TRIGGERED, MarchState.REVERSING} == rec.ACCEPTED
    assert set(rec.STATUS_WORDS) == set(MarchState)
    with pytest.raises(ValueError):
        rec.state_of({"status": "wandering"})


#: Attribute and key names that hold one of the game's words.
_WORDY = {"kind", "echelon", "formation", "movement_class", "status"}
_WORDS = {m.value for enum in (UnitKind, Echelon, Formation, MovementClass, GameStatus,
                               MarchState) for m in enum}


def _holds_a_word(node: ast.expr) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr in _WORDY
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return node.slice.value in _WORDY
    # A bare name ``kind`` is often some other kind (of march, of road), so only attributes
    # and keys count for it.
    return isinstance(node, ast.Name) and node.id in _WORDY - {"kind"}


def _words_in(node: ast.expr) -> list[str]:
    items = node.elts if isinstance(node, ast.Tuple | ast.Set | ast.List) else [node]
    return [i.value for i in items if isinstance(i, ast.Constant) and i.value in _WORDS]


def test_no_code_compares_these_words_as_strings() -> None:
    """``unit.kind == "wagon"`` works with a StrEnum too, but a misspelt word would then never
    match and nothing would say so; members are checked by mypy."""
    found = []
    for package in ("rules", "umpire", "storage", "bot"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Compare):
                    continue
                sides = [node.left, *node.comparators]
                if any(_holds_a_word(s) for s in sides) and any(_words_in(s) for s in sides):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_no_type_ignore_is_left_for_a_word_passed_as_a_string() -> None:
    ignored = []
    for package in ("rules", "umpire"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                if "type: ignore" in line and ("movement_class" in line or "formation" in line
                                               or "mclass" in line):
                    ignored.append(f"{path.relative_to(ROOT)}:{n}")
    assert ignored == []
