"""Non-interference under every information model: whatever a side receives depends only on what
its side may know. Each test plays the same game twice, or more, changing only enemy state that
the model hides from Blue, and compares Blue's whole output byte for byte: every message it is
sent or may read (public posts included), the PNG bytes of its maps, its autocomplete choices,
and every answer and error reply to its orders. A control changes something the model does show
Blue, and Blue's output must then differ, so the comparison is able to fail.

What each model hides from Blue (DESIGN.md, "Information models"):

* open, concealed: the enemy's orders, the MPs it spends, its refused orders (no module with
  markers is in force here, so concealed plays as open);
* inverted: also the identity and strength of every enemy unit Blue's troops do not see (its
  place is shown, as a blank marker);
* hidden: also where those units stand, and whether they exist at all.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from rules import commands as cmd
from rules.knowledge.information import InformationModel
from rules.knowledge.sighted import sight
from storage.store import Store
from tests.fakediscord import FakeDiscord, buttons_of, gallery_items
from tests.support.botkit import TOKEN, private_answer, started_game, text_of
from tests.support.commitments import masked
from tests.support.hearing import BLUE, GREY, HOST, SEED, Variant, scenario
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError

#: A Grey reserve brigade, far out of every Blue observer's sight.
RESERVE = """
[[units]]
id = "grey-reserve"
side = "grey"
name = "Grey Reserve"
kind = "infantry"
strength = 5
at = "B0806"
"""

#: Blue's orders in its first movement phase, good and bad: the second names an enemy unit
#: Blue does not see, the third the one it sees, the fourth a cell that does not exist, the
#: fifth a route beyond the brigade's MPs.
BLUE_ORDERS: tuple[cmd.Command, ...] = (
    cmd.Move(unit="2nd Brigade", route="A0106"),
    cmd.Move(unit="Grey Brigade", route="B0603"),
    cmd.Move(unit="Grey Scouts", route="A0603"),
    cmd.Move(unit="1st Brigade", route="Z9999"),
    cmd.Move(unit="1st Brigade", route="B0801"),
    cmd.SetFormation(unit="Grey Brigade", formation="line"),
    cmd.SetFormation(unit="1st Brigade", formation="line"),
)


async def blue_output(tmp_path: Path, name: str, model: InformationModel,
                      variant: Variant) -> list[str]:
    """Everything Blue receives over three turns of the game: answers, refusals, reads,
    autocomplete choices, maps (PNG bytes, in hex) and every delivery addressed to it."""
    heard: list[str] = []

    async def read(umpire: Umpire) -> None:
        heard.append((await umpire.status("g1", BLUE)).text)
        heard.append((await umpire.units_text("g1", BLUE)).text)
        heard.append(masked((await umpire.log_text("g1", BLUE)).text))
        heard.append(repr(await umpire.unit_names("g1", BLUE)))
        heard.append(repr(await umpire.visible_enemy_names("g1", BLUE)))
        heard.append(repr(await umpire.visible_enemy_names("g1", BLUE, troops_only=False)))
        heard.append(repr(await umpire.place_names("g1")))
        heard.append(repr(await umpire.sides("g1")))
        for around, radius in ((None, None), ("Old Church", 3), ("B0703", 2)):
            shown = await umpire.my_map("g1", BLUE, around=around, radius=radius)
            heard.append(shown.text + (shown.image or b"").hex())
        items, pages = await umpire.inbox("g1", BLUE, per_page=100)
        heard.append(f"{pages} " + "\n".join(masked(d.text) for d in items))

    async def order(umpire: Umpire, user: int, command: cmd.Command) -> str:
        try:
            return (await umpire.handle("g1", user, command)).text
        except UmpireError as e:
            return f"refused: {e}"

    async with Store.open(tmp_path / f"{name}.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=True))
        await umpire.create_game(str(scenario(tmp_path, name, model, variant)), HOST,
                                 game_id="g1", seed=SEED)
        await umpire.join("g1", BLUE, "blue")
        await umpire.join("g1", GREY, "grey")
        await umpire.start("g1", HOST)
        await read(umpire)
        for command in BLUE_ORDERS:
            heard.append(await order(umpire, BLUE, command))
        grey_moved = False
        while (state := await umpire.repository.state_for("g1")).turn < 3:
            for side in state.acting_sides():
                if side == "grey" and not grey_moved:
                    grey_moved = True
                    for command in variant.grey_orders:
                        await order(umpire, GREY, command)  # Grey's answers are Grey's
                user = BLUE if side == "blue" else GREY
                answer = await order(umpire, user, cmd.Done())
                if user == BLUE:
                    heard.append(answer)
            state = await umpire.repository.state_for("g1")
            seen = sight(state)["blue"].seen_units
            assert not seen & set(variant.unseen), (state.turn, seen)
            if state.current.side == "blue" or state.turn == 3:
                await read(umpire)
        for d in await store.pending_deliveries("g1", limit=10_000):
            if d.kind == "public" or d.target in (str(BLUE), "blue"):
                d = await umpire.with_picture(d, sending=True)  # drawn as it is sent
                heard.append(f"{d.kind} {d.target} {masked(d.text)} {d.image_name} "
                             + (d.image or b"").hex())
                heard += [f"  {p.name} {p.alt} {p.around} {p.radius} {p.image.hex()}"
                          for p in d.gallery]
    assert grey_moved
    return heard


async def outputs(tmp_path: Path, model: InformationModel, variants: Sequence[Variant],
                  tag: str = "game") -> list[list[str]]:
    """Blue's output in each variant's game, played under ``model``."""
    return [await blue_output(tmp_path, f"{model}-{tag}-{n}", model, v)
            for n, v in enumerate(variants)]


def mentions(heard: list[str], name: str) -> bool:
    """Whether Blue's output names ``name``, other than in the refusals that echo the names
    Blue itself typed."""
    echo = f"refused: You have no unit called '{name}'."
    return any(name in t for t in heard if not t.startswith(echo))


def differs(one: list[str], two: list[str]) -> list[tuple[str, str]]:
    """The first few pairs of Blue's outputs that differ (for a readable failure)."""
    return [(a[:300], b[:300]) for a, b in zip(one, two, strict=False) if a != b][:3]


#: Grey's battery marches out and back, out of Blue's sight, and Grey gives an order it is
#: refused: the MPs it spent and its orders are Grey's business under every model.
GREY_BUSY = (cmd.Move(unit="Grey Battery", route="B0603"),
             cmd.Move(unit="Grey Battery", route="B0703"),
             cmd.Move(unit="Grey Brigade", route="Z9999"))
QUIET = Variant(unseen=("grey-1", "grey-bat"))
BUSY = Variant(grey_orders=GREY_BUSY, unseen=("grey-1", "grey-bat"))


@pytest.mark.parametrize("model", [InformationModel.OPEN, InformationModel.CONCEALED])
async def test_under_open_models_the_enemys_orders_and_mps_do_not_reach_blue(
        tmp_path: Path, model: InformationModel) -> None:
    quiet, busy = await outputs(tmp_path, model, [QUIET, BUSY])
    assert mentions(quiet, "Grey Brigade")  # open: every enemy is shown, by name
    assert differs(quiet, busy) == []
    assert quiet == busy
    # Control: under these models Blue is shown every enemy's strength, seen or not.
    [stronger] = await outputs(tmp_path, model, [Variant(
        edits=(("strength = 7", "strength = 5"),), unseen=QUIET.unseen)], tag="control")
    assert stronger != quiet


#: The two unseen Grey units swap places (the brigade and the battery), and the brigade has
#: another name and strength.
SWAPPED = Variant(
    edits=(('at = "B0704"', 'at = "B0703!"'), ('at = "B0703"\n', 'at = "B0704"\n'),
           ('at = "B0703!"', 'at = "B0703"'),
           ('name = "Grey Brigade"', 'name = "Grey Legion"'), ("strength = 7", "strength = 5")),
    grey_orders=(cmd.Move(unit="Grey Battery", route="B0604"),  # out and back, from B0704
                 cmd.Move(unit="Grey Battery", route="B0704"),
                 cmd.Move(unit="Grey Legion", route="Z9999")),
    unseen=("grey-1", "grey-bat"))


async def test_under_the_inverted_model_unseen_markers_tell_nothing_of_their_units(
        tmp_path: Path) -> None:
    model = InformationModel.INVERTED
    base, swapped = await outputs(tmp_path, model, [QUIET, SWAPPED])
    assert any("Grey Scouts" in t for t in base)  # the one Grey unit Blue's troops see
    assert not mentions(base, "Grey Brigade") and not mentions(base, "Grey Battery")
    assert differs(base, swapped) == []
    assert base == swapped
    # Control: a marker's place is shown under this model.
    [moved] = await outputs(tmp_path, model, [Variant(
        edits=(('at = "B0704"', 'at = "B0604"'),), unseen=QUIET.unseen)], tag="control")
    assert moved != base


#: Under the hidden model the unseen Grey units stand elsewhere (still out of sight), have
#: other names and strengths, and a third one exists that the others' game lacks.
ELSEWHERE = Variant(
    edits=(('at = "B0704"', 'at = "B0302"'), ('at = "B0703"', 'at = "B0801"'),
           ('name = "Grey Brigade"', 'name = "Grey Legion"'), ("strength = 7", "strength = 4"),
           ('name = "Grey Battery"', 'name = "Grey Guns"')),
    extra=RESERVE,
    grey_orders=(cmd.Move(unit="Grey Guns", route="B0701"),
                 cmd.Move(unit="Grey Reserve", route="B0805"),
                 cmd.Move(unit="Grey Scouts", route="Z9999")),
    unseen=("grey-1", "grey-bat", "grey-reserve"))


async def test_under_the_hidden_model_nothing_unseen_reaches_blue(tmp_path: Path) -> None:
    model = InformationModel.HIDDEN
    base, elsewhere = await outputs(tmp_path, model, [BUSY, ELSEWHERE])
    assert any("Grey Scouts" in t for t in base)
    assert not any(mentions(base + elsewhere, name) for name in (
        "Grey Brigade", "Grey Battery", "Grey Legion", "Grey Guns", "Grey Reserve"))
    assert differs(base, elsewhere) == []
    assert base == elsewhere
    # Control: what Blue's troops do see reaches Blue.
    [stronger] = await outputs(tmp_path, model, [Variant(
        edits=(("strength = 3", "strength = 2"),), grey_orders=GREY_BUSY,
        unseen=BUSY.unseen)], tag="control")
    assert stronger != base


# -- through the bot ---------------------------------------------------------------------------
#: The inbox's time stamps: the wall clock of this test's run.
WALL_CLOCK = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC")


#: The random id a preview's buttons carry.
PENDING_ID = re.compile(r":[0-9a-f]{12}$")


async def blue_on_discord(tmp_path: Path, name: str, variant: Variant) -> list[str]:
    """Under the hidden model, through the bot and the local Discord stand-in: every answer
    Blue's player sees (texts, pictures' bytes, buttons), the autocomplete choices offered while
    typing, and every DM the bot sends Blue over three turns. Discord's ids are replaced by
    names, since they differ from one run of the stand-in to the next."""
    heard: list[str] = []
    folder = tmp_path / name
    folder.mkdir()
    path = scenario(folder, name, InformationModel.HIDDEN, variant)
    async with FakeDiscord(token=TOKEN, callback_deadline=3.0) as fake, started_game(
            fake, folder, path, ("blue", "grey"), seed=SEED, maps=True) as (bot, alice, bob):

        def shown(message: dict[str, Any]) -> str:
            pictures = [f"{a['filename']} {fake.world.blobs[int(a['id'])].data.hex()}"
                        for a in message.get("attachments") or []]
            # A preview's pending id is random (``umpire.reads.pending.new_id``): masked.
            buttons = [(c.get("label"), PENDING_ID.sub(":<pending>", str(c.get("custom_id"))))
                       for c in buttons_of(message)]
            alts = [f"alt {item.get('description')}" for item in gallery_items(message)]
            text = text_of(message).replace(str(alice.id), "ALICE").replace(str(bob.id), "BOB")
            text = WALL_CLOCK.sub("<time>", text)  # when the test runs, not when play happened
            return " | ".join([masked(text), *pictures, *alts, repr(buttons)])

        async def ask(command: str, options: dict[str, Any]) -> None:
            heard.append(f"/{command} {options}: "
                         + shown(await private_answer(fake, command, alice, options)))

        async def offered(command: str, options: dict[str, Any], focused: str) -> None:
            handle = await fake.autocomplete(command, options, focused=focused, user=alice)
            heard.append(f"{command} {focused} {options}: "
                         + repr((await handle.response()).choices))

        async def reads() -> None:
            await bot.outbox.idle()  # the inbox tells what was sent: let the sending finish
            for command, options in (("units", {}), ("game status", {}), ("log", {}), ("inbox", {}),
                                     ("map", {}), ("map", {"around": "B0703", "radius": 2})):
                await ask(command, options)
            for typed in ("", "Grey", "G"):
                await offered("move", {"unit": typed, "route": "x"}, "unit")
                await offered("fire", {"unit": "1st Brigade", "target": typed}, "target")
                await offered("fire", {"unit": typed, "target": "x"}, "unit")
                await offered("assault", {"units": "1st Brigade", "target": typed}, "target")
                await offered("assault", {"units": typed, "target": "x"}, "units")
                await offered("formation", {"unit": typed or "1st Brigade", "formation": ""},
                              "formation")
            await offered("move", {"unit": "1st Brigade", "route": "B07"}, "route")

        await reads()
        for unit, route in (("2nd Brigade", "A0106"), ("Grey Brigade", "B0603"),
                            ("Grey Scouts", "A0603"), ("1st Brigade", "Z9999"),
                            ("1st Brigade", "B0801")):
            await ask("move", {"unit": unit, "route": route})
        await ask("formation", {"unit": "Grey Brigade", "formation": "line"})
        await ask("done", {})
        umpire = bot.umpire
        for command in variant.grey_orders:
            with contextlib.suppress(UmpireError):
                await umpire.handle("g1", bob.id, command)
        while (state := await umpire.repository.state_for("g1")).turn < 3:
            for side in state.acting_sides():
                if side == "blue":
                    await ask("done", {})
                else:
                    await umpire.handle("g1", bob.id, cmd.Done())
        await reads()
        await bot.outbox.idle()
        heard += [f"DM {shown(m)}" for m in fake.dms_to(alice)]
        assert not (sight(await umpire.repository.state_for("g1"))["blue"].seen_units
                    & set(variant.unseen))
    return heard


async def test_through_the_bot_nothing_unseen_reaches_blues_player(tmp_path: Path) -> None:
    """The hidden model's pair of games, played through Discord: Blue's player is answered,
    offered and sent the very same things, pictures included."""
    base = await blue_on_discord(tmp_path, "base", BUSY)
    elsewhere = await blue_on_discord(tmp_path, "elsewhere", ELSEWHERE)
    assert any("Grey Scouts" in t for t in base) and any(".png" in t for t in base)
    assert any(t.startswith("DM ") for t in base)
    assert differs(base, elsewhere) == []
    assert base == elsewhere
    control = await blue_on_discord(tmp_path, "control", Variant(
        edits=(("strength = 3", "strength = 2"),), grey_orders=GREY_BUSY, unseen=BUSY.unseen))
    assert control != base
