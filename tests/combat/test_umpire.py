"""Combat through the umpire, on real database files: who is told what (secret rolls to their
side only; the firer's reports byte for byte the same whatever it cannot see), refusals that
change nothing, and the names offered for a target."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.combat.commands import Assault, Fire
from rules.commands import Correct
from storage.records import DeliveryRecord
from storage.store import Store
from tests.support.combat_games import (
    CONFEDERATE,
    HOST,
    INVERTED,
    NIGHT,
    UNION,
    new_game,
    reach,
    variant,
)
from umpire.service import UmpireError


def to_player(deliveries: list[DeliveryRecord], user: int) -> list[str]:
    return [d.text for d in deliveries if d.kind == "player" and d.target == str(user)]


# The Union battery in the open at A0302, three hexes from the Rebel Brigade at A0602: in range
# and in a clear line, but beyond the night's visibility, so the Union sees only a counter there.
BATTERY = ('at = "A0304"', 'at = "A0302"')
REBELS = ('at = "A0704"\ntags', 'at = "A0602"\ntags')


async def fire_at_a_marker(tmp_path: Path, name: str, strength: str) -> tuple[list[str], str]:
    scenario = variant(tmp_path, name, INVERTED, NIGHT, BATTERY, REBELS,
                       ('strength = 12', f'strength = {strength}'))
    async with Store.open(tmp_path / f"{name}.db") as store:
        umpire = await new_game(store, scenario)
        await reach(umpire, "g1", "fire", "union")
        assert await umpire.visible_enemy_names("g1", UNION) == []
        refusals = []
        for target in ("Rebel Brigade", "Rebel Brigadd"):
            with pytest.raises(UmpireError) as caught:
                await umpire.handle("g1", UNION, Fire(units=("Union Battery",), target=target))
            refusals.append(str(caught.value).replace(target, "NAME"))
        assert refusals[0] == refusals[1]
        reply = await umpire.handle("g1", UNION, Fire(units=("Union Battery",), target="A0602"))
        await reach(umpire, "g1", "fire", "confederate")
        state = await umpire.repository.state_for("g1")
        assert state.units["c-inf"].strength + state.units["c-inf"].stragglers <= int(strength)
        deliveries = await store.pending_deliveries("g1")
        assert any("**Under fire**: Rebel Brigade" in t
                   for t in to_player(deliveries, CONFEDERATE))
        return [*to_player(deliveries, UNION), reply.text], refusals[0]


async def test_fire_at_a_marker_tells_the_firer_nothing_hidden(tmp_path: Path) -> None:
    weak, refusal = await fire_at_a_marker(tmp_path, "weak", "9")
    strong, _ = await fire_at_a_marker(tmp_path, "strong", "14")
    assert weak == strong  # byte for byte
    assert refusal == "Your troops see no enemy called 'NAME'."
    fired = [t for t in weak if t.startswith("**Fire**")]
    assert fired and "the counter at A0602" in fired[0]
    assert "cannot be judged" in fired[0]
    assert not any("Secret roll" in t for t in weak)


# -- secret rolls go to their own side ----------------------------------------------------------
async def test_secret_rolls_are_delivered_only_to_their_side(tmp_path: Path) -> None:
    scenario = variant(tmp_path, "contact", ('at = "A0704"\ntags', 'at = "A0604"\ntags'),
                       ('at = "A0504"', 'at = "A0605"'))
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store, scenario)
        await reach(umpire, "g1", "movement", "confederate")
        reply = await umpire.handle("g1", CONFEDERATE, Assault(units=("Rebel Brigade",),
                                                               target="Union Brigade"))
        assert reply.text.startswith("**Assault** on A0605")
        # The attacker reads its rolls in the answer; the defender's wait for its next
        # dossier, beside the result they decide.
        mine = [line for line in reply.text.split("\n\n") if line.startswith("Secret roll")]
        assert mine and all("Union" not in line for line in mine)
        held = [h.text for h in (await store.held_news("g1"))["union"]]
        assert held[0].startswith("**Assaulted** at A0605")
        assert any(t.startswith("Secret roll") for t in held)
        assert not any("Secret roll for straggler check of Rebel" in t for t in held)
        deliveries = await store.pending_deliveries("g1")
        assert not any(d.text.startswith("Secret roll") for d in deliveries)
        assert not any("close combat by" in d.text for d in deliveries)  # logged, not shown
        assert not any("close combat by" in t for t in held)
        assert not any(d.kind == "public" and "Rebel Brigade" in d.text for d in deliveries)


async def test_refusals_change_nothing(tmp_path: Path) -> None:
    scenario = variant(tmp_path, "open")
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store, scenario)
        await reach(umpire, "g1", "movement", "union")
        seq = await store.last_seq("g1")
        pending = len(await store.pending_deliveries("g1"))
        bad = [
            (UNION, Fire(units=("Union Brigade",), target="Rebel Brigade")),  # wrong phase
            (UNION, Assault(units=("Union Brigade",), target="Rebel Brigade")),  # not adjacent
            (CONFEDERATE, Assault(units=("Rebel Brigade",), target="Union Brigade")),  # not theirs
        ]
        await_fire = [
            (UNION, Fire(units=("Union Battery",), target="Rebel Battery")),  # out of range
            (UNION, Fire(units=("Union Cavalry",), target="Rebel Brigade")),  # mounted
            (UNION, Fire(units=("Rebel Brigade",), target="Union Brigade")),  # not ours
        ]
        for user, command in bad:
            with pytest.raises(UmpireError):
                await umpire.handle("g1", user, command)
        assert await store.last_seq("g1") == seq
        await reach(umpire, "g1", "fire", "union")
        seq = await store.last_seq("g1")
        pending = len(await store.pending_deliveries("g1"))
        for user, command in await_fire:
            with pytest.raises(UmpireError):
                await umpire.handle("g1", user, command)
        assert await store.last_seq("g1") == seq
        assert len(await store.pending_deliveries("g1")) == pending


async def test_visible_enemy_names_are_what_the_side_sees(tmp_path: Path) -> None:
    scenario = variant(tmp_path, "inverted", INVERTED, NIGHT,
                       ('at = "A0704"\ntags', 'at = "A0604"\ntags'))
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store, scenario)
        state = await umpire.repository.state_for("g1")
        from rules.knowledge.sighted import sight

        seen = sight(state)["union"].seen_units
        expected = sorted(state.units[u].name for u in seen)
        assert await umpire.visible_enemy_names("g1", UNION) == expected
        assert expected == ["Rebel Brigade"]  # next to the Union Brigade; the rest unseen
        assert await umpire.visible_enemy_names("g1", 999) == []


async def test_units_show_morale_and_stragglers(tmp_path: Path) -> None:
    scenario = variant(tmp_path, "open")
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store, scenario)
        await umpire.handle("g1", HOST, Correct(unit="u-inf", changes={
            "strength": 8, "stragglers": 2, "morale": "shaken"}, reason="test"))
        text = (await umpire.units_text("g1", UNION)).text
        assert "Union Brigade (infantry, 8 SP and 2 straggling, line, shaken) at A0504" in text
        assert "Second Union Brigade (infantry, 6 SP, line) at" in text
