"""No leaks on the Chancellorsville sample: a side probing for enemy units it does not see learns
nothing from the answers, and (with the raid) the units that rode off reach no one, in no
answer, view, autocomplete choice or message, on either side."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import commands as cmd
from rules.combat.commands import Assault
from storage.store import Store
from tests.support.chancellorsville import (
    HOST,
    RULES,
    SAMPLE,
    SEED,
    UNION,
    USERS,
    Play,
    answer,
    mentions,
    scenario_file,
    side_output,
)
from umpire.games.catalog import load_file
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

MORRIS = "Morris' regiment"


def probes(name: str) -> tuple[cmd.Command, ...]:
    """Union orders naming ``name`` as if it were a unit: its own, or a target."""
    return (cmd.Move(unit=name, route="C1526"),
            cmd.SetFormation(unit=name, formation="line"),
            Assault(units=(MORRIS,), target=name),
            Assault(units=(name,), target="Anderson's division"),
            Assault(units=(MORRIS, name), target="C1527"))


async def union_answers(tmp_path: Path, name: str, play: Play, names: tuple[str, ...]
                        ) -> list[str]:
    """The Union's answers to the probes naming each of ``names``, in its first phase."""
    async with Store.open(tmp_path / f"{name}.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(scenario_file(tmp_path, name, play)), HOST, game_id="g1",
                                 seed=SEED)
        for side, user in USERS.items():
            await umpire.join("g1", user, side)
        await umpire.start("g1", HOST)
        return [await answer(umpire, UNION, c) for n in names for c in probes(n)]


#: Confederate units out of the Union's sight at dawn, by name, by the first ten letters of a
#: name (a unit's short name, which orders may use for a unit the side sees), and in another
#: case.
UNSEEN_NAMES = ("Fitz Lee's cavalry brigade", "W. H. F. Lee's cavalry brigade",
                "Cavalry HQ (Stuart)", "Stuart Horse Artillery", "Fitz Lee's",
                "fitz lee's cavalry brigade")
#: The same units under other names: in this game those names belong to no unit.
RENAMED = {"fitz-lee": {"name": "Rosser's brigade"}, "whf-lee": {"name": "Munford's brigade"},
           "stuart-hq": {"name": "Cavalry HQ (Hampton)"},
           "stuart-horse-arty": {"name": "Breathed's battery"}}


@pytest.mark.parametrize("information", ["inverted", "hidden"])
async def test_naming_an_unseen_enemy_unit_is_answered_as_naming_no_unit(
        tmp_path: Path, information: str) -> None:
    """Whether a name is an unseen Confederate unit's (in full, by its short name, in another
    case) or no unit's at all, the Union is answered in the same words."""
    named = await union_answers(tmp_path, "named", Play(information=information),
                                UNSEEN_NAMES)
    nobody = await union_answers(tmp_path, "nobody", Play(information=information,
                                                          units=RENAMED), UNSEEN_NAMES)
    assert all(a.startswith("refused: ") for a in named)
    assert any("see no enemy called" in a for a in named)
    assert named == nobody


# -- the raid ----------------------------------------------------------------------------------
def raiders() -> dict[str, tuple[str, ...]]:
    """The units the raid takes out of the sample (its ``raid`` tags, which the raid's own tests
    show to be the units the rule picks), each with every word that names it: id, name and
    short name."""
    loaded = load_file(SAMPLE)
    return {u.id: (u.id, u.name, u.short or u.name[:10])
            for u in loaded.scenario.units if "raid" in u.tags}


#: Both sides' orders naming the raiders as their own units and as targets, and one each that
#: names a unit that stayed.
RAID_ORDERS = {
    "union": (cmd.Move(unit="Buford's Reserve Brigade", route="C0321"),
              cmd.Move(unit="Horse artillery with Averell", route="C0407"),
              Assault(units=(MORRIS,), target="W. H. F. Lee's cavalry brigade"),
              Assault(units=(MORRIS,), target="C0527"),
              cmd.Move(unit=MORRIS, route="C1511")),
    "confederate": (cmd.Move(unit="W. H. F. Lee's cavalry brigade", route="C0528"),
                    Assault(units=("Fitz Lee's cavalry brigade",),
                            target="Gregg's division: Wyndham's brigade"),
                    Assault(units=("Fitz Lee's cavalry brigade",), target="C0219"),
                    cmd.Move(unit="Fitz Lee's cavalry brigade", route="C1528")),
}


def typed_names(orders: tuple[cmd.Command, ...]) -> set[str]:
    """The unit names a side typed in its orders (as its own units or as targets)."""
    out: set[str] = set()
    for order in orders:
        for key in ("unit", "target"):
            out.add(str(getattr(order, key, "")))
        out.update(getattr(order, "units", ()))
    return out - {""}


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("side", ["union", "confederate"])
async def test_the_raiders_reach_no_one(tmp_path: Path, side: str, rule: str) -> None:
    """With the raid, no word naming a unit that rode off reaches either side over two turns
    and the end of the game: no answer, refusal, view (ids included), autocomplete choice,
    status, log, inbox or message, whichever orders name them. The other side's units that
    stayed do show (face up to the Confederates)."""
    play = Play(sighting=rule, options={"raid": True}, orders=RAID_ORDERS, may_refuse=True)
    heard = await side_output(tmp_path, side, play, side, end=True)
    assert any("raid option is played" in t for t in heard)
    # The refusals echo the names the side typed itself: those echoes are not leaks.
    for typed in typed_names(RAID_ORDERS[side]):
        heard = [t.replace(typed, "<typed>") for t in heard]
    leaked = [(uid, word) for uid, words in raiders().items() for word in words
              if mentions(heard, word)]
    assert leaked == []
    if side == "confederate":  # the Federals are face up: those that stayed are shown
        assert mentions(heard, MORRIS) and mentions(heard, "Pleasonton's division: Devin")


# -- a second account --------------------------------------------------------------------------
#: A second Discord account of the Union's player.
SECOND = 99


async def test_a_second_account_seated_with_the_enemy_is_told_to_everyone(
        tmp_path: Path) -> None:
    """The Union's player (here the host too) seats a second account with the Confederates
    before the start. From then on it is sent everything the Confederate side is (its map, its
    units, its reports) and may give its orders. The Confederates' player must be told so
    publicly, at the latest when play begins, or the game is lost to a spy he never hears of."""
    async with Store.open(tmp_path / "spy.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(scenario_file(tmp_path, "spy", Play())), UNION,
                                 game_id="g1", seed=SEED, guild_id=5, channel_id=6)
        await umpire.join("g1", UNION, "union", in_server=True)
        await umpire.join("g1", USERS["confederate"], "confederate", in_server=True)
        await umpire.join("g1", SECOND, "confederate", in_server=True)
        await umpire.start("g1", UNION)
        # The attack works: the second account reads the Confederate side's own units.
        assert "Anderson's division" in (await umpire.units_text("g1", SECOND)).text
        public = [d.text for d in await store.pending_deliveries("g1", limit=1000)
                  if d.kind == "public"]
        assert any(f"<@{SECOND}>" in t for t in public)
