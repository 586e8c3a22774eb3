"""What a preview and a route hint may not read: the enemy the side does not see. The same own
units with the enemy hidden in different places give byte-identical previews, pictures, hints
and Confirm words (rulings ORD-44, ORD-46, ORD-47); the enemy the side does see turns a hint
away from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import commands as cmd
from rules.orders.route import expand, parse_route
from rules.view import OWN, project
from storage.store import Store
from umpire.demo import chancellorsville as cv
from umpire.reads.foreseen import word_of
from umpire.reads.maps import MapMaker
from umpire.reads.preview import plan_move
from umpire.service import Umpire, UmpireError

FIXTURES = Path(__file__).parents[2] / "fixtures"
TINY = FIXTURES / "tiny.toml"
HOST, BLUE, GREY = 1, 10, 20


async def blue_reads(tmp_path: Path, name: str, grey_at: str, battery_at: str
                     ) -> list[str | bytes | None]:
    """Everything Blue is told of its moves with the Grey Brigade and Battery (hidden from
    Blue) put where the host says: the preview's words and picture of a road move that passes
    the brigade's first place, the word a Confirm keeps, and a refused road leg's hint."""
    async with Store.open(tmp_path / f"{name}.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=True))
        text = TINY.read_text(encoding="utf-8").replace(
            'ruleset = "tiny.ruleset.toml"', f'ruleset = "{FIXTURES / "tiny.ruleset.toml"}"')
        scenario = tmp_path / f"{name}.toml"
        scenario.write_text(text.replace('information = "open"', 'information = "hidden"'),
                            encoding="utf-8")
        await umpire.create_game(str(scenario), HOST, game_id="g1", seed=bytes(range(32)))
        await umpire.join("g1", BLUE, "blue")
        await umpire.join("g1", GREY, "grey")
        await umpire.start("g1", HOST)
        for uid, at in (("grey-1", grey_at), ("grey-bat", battery_at)):
            await umpire.handle("g1", HOST, cmd.Correct(unit=uid, changes={"cell": at},
                                                        reason="placed"))
        state = await umpire.repository.state_for("g1")
        assert all(u.level == OWN for u in project(state, "blue").units), "Grey must be unseen"
        plan = await plan_move(umpire, "g1", BLUE, "1st Brigade", "road B0804")
        assert plan is not None
        out: list[str | bytes | None] = [plan.text, plan.image,
                                         word_of(state, "blue", "1st Brigade", "road B0804")]
        with pytest.raises(UmpireError) as refused:
            await plan_move(umpire, "g1", BLUE, "2nd Brigade", "road B0804")
        out.append(str(refused.value))
        return out


async def test_a_preview_is_the_same_wherever_the_unseen_enemy_stands(tmp_path: Path) -> None:
    """The Grey Brigade on the very road the 1st Brigade is to take (B0604), or off it: Blue sees
    neither, so Blue's preview, its picture, its Confirm's word and its hints are the same."""
    on_the_road = await blue_reads(tmp_path, "road", "B0604", "B0603")
    away = await blue_reads(tmp_path, "away", "B0806", "B0805")
    assert on_the_road == away
    text, image, word, hint = on_the_road
    assert isinstance(image, bytes) and image.startswith(b"\x89PNG")
    assert word in str(text)
    assert "try 'A0104 road B0804'" in str(hint)


async def test_a_road_hint_keeps_clear_of_the_enemy_the_side_sees(tmp_path: Path) -> None:
    """Fitz Lee beside the woods at C1922, ordered by road to Hazel Grove (C2119, off the
    road): the hint once was 'road C2017 C2119', sixteen cells round through Chancellorsville
    past the Federal divisions the Confederates see. Now it names another way that passes
    through and next to none of them, and says why the first would not do."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(cv.SCENARIO, HOST, game_id="g1", seed=cv.SEEDS[True],
                                 options=cv.OPTIONS[True])
        await umpire.join("g1", BLUE, "union")
        await umpire.join("g1", GREY, "confederate")
        await umpire.start("g1", HOST)
        await umpire.handle("g1", HOST, cmd.Correct(unit="fitz-lee", changes={"cell": "C1922"},
                                                    reason="placed for the case"))
        await umpire.handle("g1", BLUE, cmd.Done())
        state = await umpire.repository.state_for("g1")
        seq = await store.last_seq("g1")
        with pytest.raises(UmpireError) as refused:
            await plan_move(umpire, "g1", GREY, "Fitz Lee's cavalry brigade", "road C2119")
        said = str(refused.value)
        assert "'road C2017 C2119' would pass C2518, next to the enemy your troops know of" in said
        assert said.endswith("try 'road C2220 C2119'")
        with pytest.raises(UmpireError, match=r"try 'road C2220 C2119'$"):
            await umpire.handle("g1", GREY, cmd.Move(unit="Fitz Lee's cavalry brigade",
                                                     route="road C2119"))
        assert await store.last_seq("g1") == seq  # refused: nothing changed
        gm = state.loaded.map
        path = expand(gm, parse_route(gm, "road C2220 C2119"), gm.board.parse("C1922"))
        seen = {u.cell for u in project(state, "confederate").units if u.level != OWN}
        assert seen and not any(gm.grid.distance(c, e) <= 1 for c in path[:-1] for e in seen)
