"""``/host correct`` names a unit as the host may see it (ruling ORD-40): any unit for a host
who umpires, the host's own side's for a host who plays, none for anyone else; an enemy's name
or id gets the answer of a name no unit has. The answer says what changed in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import VedetteBot
from storage.store import Store
from tests.support.botkit import Table, say, set_up
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError
from umpire.words import correctable

FIXTURES = Path(__file__).parents[1] / "fixtures"
HOST, GREY = 1, 20

#: Two Blue units called Geary: the leader and the battery.
GEARYS = """
[[units]]
id = "geary-ldr"
side = "blue"
name = "Geary"
kind = "leader"
at = "A0203"
initiative = 2
command_range = 3

[[units]]
id = "geary-bat"
side = "blue"
name = "Geary"
kind = "artillery"
strength = 6
at = "A0202"
"""


def scenario(tmp_path: Path, name: str, grey_id: str = "grey-1",
             grey_name: str = "Grey Brigade") -> Path:
    """The tiny skirmish under the hidden model with two Gearys, the Grey Brigade under another
    id or name if asked."""
    text = (FIXTURES / "tiny.toml").read_text(encoding="utf-8")
    text = text.replace('ruleset = "tiny.ruleset.toml"',
                        f'ruleset = "{FIXTURES / "tiny.ruleset.toml"}"')
    text = text.replace('information = "open"', 'information = "hidden"')
    assert 'id = "grey-1"' in text and 'name = "Grey Brigade"' in text
    text = text.replace('id = "grey-1"', f'id = "{grey_id}"')
    text = text.replace('name = "Grey Brigade"', f'name = "{grey_name}"') + GEARYS
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


async def game(store: Store, path: Path, *, umpires: bool = False,
               host_side: str | None = "blue") -> Umpire:
    """A started game: the host umpires, or plays ``host_side`` (or neither)."""
    umpire = Umpire(store, maps=MapMaker(enabled=False))
    await umpire.create_game(str(path), HOST, game_id="g1", seed=bytes(range(32)),
                             options={"host_umpires": True} if umpires else None)
    if host_side is not None and not umpires:
        await umpire.join("g1", HOST, host_side)
    else:
        await umpire.join("g1", 10, "blue")
    await umpire.join("g1", GREY, "grey")
    await umpire.start("g1", HOST)
    return umpire


async def refusal(umpire: Umpire, unit: str, **changes: str | int) -> str:
    with pytest.raises(UmpireError) as caught:
        await umpire.correct("g1", HOST, unit, changes or {"strength": 1}, "a probe")
    return str(caught.value)


async def test_a_playing_host_corrects_their_own_unit_by_name(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await game(store, scenario(tmp_path, "a"))
        said = await umpire.correct("g1", HOST, "1st brigade", {"strength": 5}, "misread")
        assert said.text.startswith("Done: 1st Brigade's strength 8 → 5.")
        assert (await umpire.repository.state_for("g1")).units["blue-1"].strength == 5
        moved = await umpire.correct("g1", HOST, "2 bde", {"cell": "A0206"}, "misplaced")
        assert "2nd Brigade's cell A0105 → A0206" in moved.text
        assert (await umpire.repository.state_for("g1")).units["blue-2"].cell == \
            (await umpire.repository.state_for("g1")).loaded.board.parse("A0206")
        same = await umpire.correct("g1", HOST, "blue-1", {"strength": 5}, "again")
        assert "nothing changed" in same.text
        # A word of the name is enough when only one unit has it.
        assert "General Azure's morale normal → shaken" in (await umpire.correct(
            "g1", HOST, "azure", {"morale": "shaken"}, "lost his nerve")).text


async def test_two_units_of_one_name_are_told_apart(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await game(store, scenario(tmp_path, "a"))
        last = await store.last_seq("g1")
        refused = await refusal(umpire, "Geary")
        assert "several units answer to 'Geary'" in refused
        assert "Geary (leader): `geary-ldr`" in refused
        assert "Geary (artillery): `geary-bat`" in refused
        assert await store.last_seq("g1") == last
        said = await umpire.correct("g1", HOST, "geary-bat", {"strength": 5}, "lost a gun")
        assert said.text.startswith("Done: Geary's strength 6 → 5.")
        offered = dict(await umpire.correctable_units("g1", HOST))
        assert offered["geary-ldr"] == "Geary (leader)"
        assert offered["geary-bat"] == "Geary (artillery)"


async def test_a_playing_host_learns_nothing_of_the_enemy(tmp_path: Path) -> None:
    """The same refusals, word for word, and the same autocomplete, whether the name or id the
    host typed is an enemy unit's or no unit's: the enemy is varied, the host's side is not."""
    seen: list[tuple[list[str], list[tuple[str, str]]]] = []
    probes = ["Grey Brigade", "grey-1", "G Bde", "Grey"]
    for name, grey_id, grey_name in (("real", "grey-1", "Grey Brigade"),
                                     ("other", "grey-7", "Ash Brigade")):
        async with Store.open(tmp_path / f"{name}.db") as store:
            umpire = await game(store, scenario(tmp_path, name, grey_id, grey_name))
            last = await store.last_seq("g1")
            answers = [await refusal(umpire, p) for p in probes]
            assert await store.last_seq("g1") == last  # nothing changed
            assert (await umpire.repository.state_for("g1")).units[grey_id].strength == 7
            seen.append((answers, await umpire.correctable_units("g1", HOST)))
    assert seen[0] == seen[1]
    answers, offered = seen[0]
    assert all("none of your units is called" in a for a in answers)
    assert {unit for unit, _ in offered} == {"blue-gen", "blue-1", "blue-2", "blue-cav",
                                             "geary-ldr", "geary-bat"}


async def test_the_umpire_corrects_any_unit_by_name(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await game(store, scenario(tmp_path, "a"), umpires=True)
        said = await umpire.correct("g1", HOST, "Grey Brigade", {"strength": 5}, "misread")
        assert said.text.startswith("Done: Grey Brigade's strength 7 → 5.")
        assert (await umpire.repository.state_for("g1")).units["grey-1"].strength == 5
        offered = dict(await umpire.correctable_units("g1", HOST))
        assert offered["grey-bat"] == "Grey Battery (artillery, Grey Army)"
        assert offered["blue-1"] == "1st Brigade (infantry, Blue Army)"
        # A label picked from the list names its unit too.
        assert "Grey Battery's strength 2 → 1" in (await umpire.correct(
            "g1", HOST, "Grey Battery (artillery, Grey Army)", {"strength": 1}, "a gun lost")
        ).text
        assert "no unit is called 'Nobody'" in await refusal(umpire, "Nobody")


async def test_a_host_who_neither_plays_nor_umpires_names_no_unit(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await game(store, scenario(tmp_path, "a"), host_side=None)
        last = await store.last_seq("g1")
        for typed in ("grey-1", "1st Brigade", "nonsense"):
            assert await refusal(umpire, typed) == correctable.NOTHING_TO_NAME
        assert await umpire.correctable_units("g1", HOST) == []
        assert await store.last_seq("g1") == last


async def test_a_correction_outside_play_is_refused_before_any_name(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(scenario(tmp_path, "a")), HOST, game_id="g1",
                                 options={"host_umpires": True})
        for typed in ("grey-1", "nonsense"):
            assert await refusal(umpire, typed) == "corrections can only be made while the " \
                                                   "game is in play"
        assert await umpire.correctable_units("g1", HOST) == []


# -- through the fake Discord -------------------------------------------------------------------
async def test_host_correct_by_name_through_discord(table: Table,
                                                   bot: VedetteBot) -> None:
    gid = await set_up(table, bot)  # alice hosts and plays blue, bob plays grey
    await say(table, "game start", table.alice, channel=table.channel)

    async def offered(user: object, typed: str) -> list[tuple[str, str]]:
        handle = await table.fake.autocomplete(
            "host correct", {"unit": typed, "field": "strength", "value": "1", "reason": "x"},
            focused="unit", user=user, channel=table.channel)  # type: ignore[arg-type]
        return [(c["value"], c["name"]) for c in (await handle.response()).choices]

    mine = await offered(table.alice, "")
    assert {v for v, _ in mine} == {"blue-gen", "blue-1", "blue-2", "blue-cav"}
    assert ("blue-1", "1st Brigade (infantry)") in mine
    assert await offered(table.alice, "Grey") == []
    assert await offered(table.bob, "") == []  # not the host
    answer = await say(table, "host correct", table.alice,
                       {"unit": "blue-1", "field": "strength", "value": "4",
                        "reason": "misread counter"}, channel=table.channel)
    assert "1st Brigade's strength 8 → 4" in answer
    enemy = await say(table, "host correct", table.alice,
                      {"unit": "Grey Brigade", "field": "strength", "value": "1",
                       "reason": "a probe"}, channel=table.channel)
    assert "none of your units is called 'Grey Brigade'" in enemy
    state = await bot.umpire.repository.state_for(gid)
    assert state.units["grey-1"].strength == 7 and state.units["blue-1"].strength == 4
