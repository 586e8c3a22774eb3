"""A unit is named by any word of its names or of the label on its counter (rulings ORD-50,
ORD-51, ORD-52): "Dieck", "Hill" and "Devin" as players typed them, a word several units share
answered with their names, and a word only the enemy's names hold answered as a name of no
unit, whatever the enemy is called or wherever it stands."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest

from render.draw import view_labels
from rules.forces.lookup import own_unit
from rules.forces.units import Unit
from rules.refusal import Refusal
from rules.state import GameState, initial_state
from rules.surprise.force import resolve
from rules.view import project
from umpire.games.catalog import load_file
from umpire.reads.naming import rank

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = {name: ROOT / "scenarios" / f"{name}.toml"
           for name in ("flank-march", "chancellorsville-hidden")}


def start(sample: str) -> GameState:
    return initial_state(load_file(SAMPLES[sample]))


def answer(state: GameState, side: str, typed: str) -> str:
    """The id of the side's own unit the text names, or the refusal's words."""
    try:
        return own_unit(state, side, typed).id
    except Refusal as e:
        return str(e)


def renamed(state: GameState, changes: dict[str, Unit]) -> GameState:
    return replace(state, units=MappingProxyType({**state.units, **changes}))


def test_the_words_players_typed_name_their_units() -> None:
    """The three names of the play group's game, and the battery by what its counter reads."""
    flank = start("flank-march")
    assert answer(flank, "union", "Dieck") == "dieckmann"
    assert answer(flank, "union", "dieckmann") == "dieckmann"
    assert answer(flank, "confederate", "Hill") == "ap-hill"
    assert answer(flank, "confederate", "AP Hill") == "ap-hill"
    assert answer(start("chancellorsville-hidden"), "union", "Devin") == "pleasonton-devin"
    labels = view_labels(project(flank, "union"))
    assert labels["dieckmann"] == "13th N."  # the map's label: the number and a state cut short
    for typed in ("13th N.", "13th NY", "13th new york"):
        assert answer(flank, "union", typed) == "dieckmann", typed


def test_two_hills_are_asked_about_and_never_called_nobody() -> None:
    flank = start("flank-march")
    dh = replace(flank.units["heth"], name="D. H. Hill's brigade", short="")
    two = renamed(flank, {"heth": dh})
    said = answer(two, "confederate", "Hill")
    assert "no unit called" not in said
    assert said.startswith("'Hill' could be 2 of yours. Did you mean: ")
    assert "Maj. Gen. A. P. Hill" in said and "D. H. Hill's brigade" in said
    # the closer match still wins alone: the whole beginning of a name before a word of it
    assert answer(two, "confederate", "D. H.") == "heth"


def test_a_word_several_units_share_lists_them_briefly() -> None:
    flank = start("flank-march")
    said = answer(flank, "union", "Battery I")
    assert said == ("'Battery I' could be 2 of yours. Did you mean: Battery I, 1st New York "
                    "(Wiedrich) or Battery I, 1st Ohio (Dilger)?")
    many = answer(flank, "union", "brigade")
    assert "Did you mean:" in many and many.endswith(" more?")
    assert many.count("'s brigade") == 5  # five names, then how many more


def test_the_closest_kind_of_match_wins() -> None:
    """Id, then a whole name, then the beginning of a name, then whole words, then beginnings
    of words (ruling ORD-50)."""
    flank = start("flank-march")
    assert answer(flank, "confederate", "warren") == "warren"  # an id
    assert answer(flank, "confederate", "Colston") == "colston"  # the general's id
    assert answer(flank, "confederate", "Colston's") == "warren"  # "Colston's brigade (Warren)"
    assert answer(flank, "confederate", "Raleigh") == "colston"
    assert answer(flank, "confederate", "Jack") == "jackson"
    assert answer(flank, "union", "Gilsa") == "von-gilsa"  # a whole word before "Gilsa's"


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_every_label_on_a_sides_map_names_its_unit(sample: str) -> None:
    """What each of a side's own counters reads on its map, typed as a name, is that unit, or
    a question listing it among others: never another unit alone, never a unit of no name."""
    state = start(sample)
    for side in state.sides:
        labels = view_labels(project(state, side))
        for unit in state.units_of(side):
            label = labels.get(unit.id)
            if label is None:
                continue
            said = answer(state, side, label)
            assert said == unit.id or ("Did you mean" in said and unit.name in said), \
                (unit.id, label, said)


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_what_autocomplete_offers_alone_for_a_word_is_what_the_word_names(sample: str) -> None:
    """For every word of every unit's name, and the first four letters of it: autocomplete
    offers the unit among its best matches (``rank``), and when it offers that unit alone
    among them, the word sent as it is names that unit."""
    state = start(sample)
    for side in state.sides:
        mine = state.units_of(side)
        for unit in mine:
            for word in {w.strip("(),.:'") for w in unit.name.split()}:
                for typed in {word, word[:4]} - {""}:
                    best = [u for u in mine if rank(u.name, typed) in (0, 1)]
                    assert unit in best, (unit.name, typed)
                    if best == [unit]:
                        assert answer(state, side, typed) == unit.id, (unit.name, typed)


def moved_and_renamed_enemies(state: GameState, side: str, salt: str) -> GameState:
    """``state`` with every enemy unit called something else and standing somewhere else."""
    cells = [u.cell for u in state.units.values() if u.cell is not None]
    changes = {}
    for n, u in enumerate(state.enemies_of(side)):
        where = u.location if u.cell is None else replace(u.location, cell=cells[-1 - n])
        changes[u.id] = replace(u, name=f"{salt} {n} Hill", short=f"{salt}{n}", location=where)
    return renamed(state, changes)


@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_an_enemy_word_gets_the_answer_of_a_word_of_no_unit(sample: str) -> None:
    """Every word of the enemy's names and of the side's own, and nonsense: answered word for
    word the same whatever the enemy is called and wherever it stands, and as if the enemy had
    no units at all; a word of the side's own names is never answered as a name of no unit."""
    state = start(sample)
    for side in state.sides:
        enemy_words = {w for u in state.enemies_of(side) for w in u.name.split()}
        own_words = {w for u in state.units_of(side) for w in u.name.split() if w.isalnum()}
        typed = sorted(enemy_words | own_words | {"Qzx"})
        alone = replace(state, units=MappingProxyType(
            {k: u for k, u in state.units.items() if u.side == side}))
        varied = [state, moved_and_renamed_enemies(state, side, "Zulu"),
                  moved_and_renamed_enemies(state, side, "Kilo"), alone]
        answers = [[answer(s, side, t) for t in typed] for s in varied]
        assert answers[0] == answers[1] == answers[2] == answers[3]
        for t in own_words:
            assert "no unit called" not in answer(state, side, t), t


def test_a_force_names_a_command_before_a_unit_and_a_leader_before_a_brigade() -> None:
    """Where a force is asked for, a word of a command's name is that command; where a leader
    is asked for, a leader of that name comes before a brigade of it (ruling ORD-52)."""
    flank = start("flank-march")
    units, name = resolve(flank, "confederate", "Trimble")
    assert name == "Colston's (Trimble's) Division"
    assert {u.command for u in units} == {"colston-div"} and len(units) > 1
    _, name = resolve(flank, "confederate", "Hill")  # a word of the general's and the division's
    assert name == "A. P. Hill's Light Division"
    # an id or a whole name is what it names: the general alone
    units, _ = resolve(flank, "confederate", "Colston")
    assert [u.id for u in units] == ["colston"]
    assert answer(flank, "confederate", "Colston's") == "warren"
    assert own_unit(flank, "confederate", "Colston's", wanted=lambda u: u.is_leader).id == \
        "colston"
    with pytest.raises(Refusal, match="Did you mean: "):
        resolve(flank, "confederate", "Division")


@pytest.mark.parametrize(("sample", "side", "ref"), [
    ("flank-march", "union", "whipple"),  # not "Whippl.", which is his artillery's too
    ("chancellorsville-hidden", "union", "pleasonton-devin"),  # not "Pleaso."
    ("chancellorsville-hidden", "confederate", "lee-hq"),  # not "Lee", which is Fitz Lee's too
    ("flank-march", "confederate", "colquitt"),  # "Colqui.", cut from his label (ORD-50)
    ("chancellorsville-hidden", "confederate", "barksdale"),  # "Barksd.", not McLaws' division
])
def test_a_label_that_would_be_asked_about_gives_way_to_one_that_names_its_unit(
        sample: str, side: str, ref: str) -> None:
    """Where the usual label would get "did you mean" and another of the counter's names would
    not, the counter carries that one (ruling ORD-51)."""
    state = start(sample)
    label = view_labels(project(state, side))[ref]
    assert answer(state, side, label) == ref, label
