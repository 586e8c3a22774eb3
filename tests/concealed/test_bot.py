"""Concealed forces through the bot, against the local Discord stand-in: ``/conceal force`` and
``breed``, moving a marker with ``/move``, an autocomplete that labels the player's own markers
with what is under them and offers the enemy nothing of them, and the enemy's whole output (its
autocomplete, its answers, its DMs and their maps) the same whether a marker holds a decoy or a
division."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.client import VedetteBot
from rules.commands import Done
from rules.concealed.commands import ConcealForce, Unconceal
from storage.records import Recipient
from tests.fakediscord import FakeDiscord, FakeUser
from tests.support.botkit import TOKEN, private_answer, started_game, text_of
from tests.support.concealed import (
    COLSTON,
    DIVISION,
    NEXT_DOOR,
    SCENARIO,
    SEED,
    FlankMarch,
    Rigged,
)
from umpire.games import dice as umpire_dice
from umpire.games.routing import messages_for

SIDES = ("confederate", "union")


def rig(monkeypatch: pytest.MonkeyPatch, holds: int) -> None:
    def maker(seed: bytes, game_id: str) -> Rigged:
        return Rigged(seed, game_id, holds)

    monkeypatch.setattr(umpire_dice, "SeededDice", maker)


async def say(fake: FakeDiscord, command: str, user: FakeUser, options: dict[str, Any]) -> str:
    return text_of(await private_answer(fake, command, user, options))


async def offered(fake: FakeDiscord, command: str, options: dict[str, Any], focused: str,
                  user: FakeUser) -> list[tuple[str, str]]:
    handle = await fake.autocomplete(command, options, focused=focused, user=user)
    return [(c["name"], c["value"]) for c in (await handle.response()).choices]


async def to_movement(bot: VedetteBot, users: dict[str, FakeUser], turn: int,
                      side: str = "confederate") -> None:
    """Every acting side says done until ``side``'s movement phase of ``turn``."""
    for _ in range(60):
        state = await bot.umpire.repository.state_for("g1")
        if (state.turn == turn and state.current.allows("move")
                and side in state.acting_sides()):
            return
        for acting in state.acting_sides():
            await bot.umpire.handle("g1", users[acting].id, Done())
    raise AssertionError(f"never reached the {side} movement phase of turn {turn}")


async def markers(bot: VedetteBot) -> list[str]:
    return sorted((await bot.umpire.repository.state_for("g1")).markers)


def dm_texts(fake: FakeDiscord, user: FakeUser) -> list[str]:
    return [text_of(m) for m in fake.dms_to(user)]


async def test_conceal_breed_and_move_a_marker(fake: FakeDiscord, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    rig(monkeypatch, 1)
    async with started_game(fake, tmp_path, SCENARIO, SIDES, seed=SEED) as (bot, alice, bob):
        users = {"confederate": alice, "union": bob}
        [group] = [c for c in bot.command_payload() if c["name"] == "conceal"]
        assert {o["name"] for o in group["options"]} == {
            "force", "breed", "reveal", "detach", "scout", "forced", "plan", "unplan", "react"}
        await to_movement(bot, users, 1)
        concealed = await say(fake, "conceal force", alice, {"leader": COLSTON})
        [parent] = await markers(bot)
        assert concealed.startswith(f"{DIVISION} is concealed under marker {parent} (6 units)")
        # A force may not move in the turn it is concealed: /move does not offer it yet.
        assert (f"marker {parent}: {DIVISION} (6 units)", f"marker {parent}") not in \
            await offered(fake, "move", {"unit": "", "route": "x"}, "unit", alice)
        # Breeding comes before concealing, and a force does not move in its first turn.
        early = await say(fake, "conceal breed", alice, {"marker": f"marker {parent}"})
        assert early.startswith("decoys are bred before new forces are concealed")
        await to_movement(bot, users, 2)
        bred = await say(fake, "conceal breed", alice, {"marker": f"marker {parent}"})
        kept, decoy = await markers(bot)  # holds=1: the first (lower) id holds the force
        assert bred.startswith(f"Marker {parent} bred a decoy: the force is now under marker "
                               f"{kept}, the decoy is marker {decoy}.")
        choices = await offered(fake, "move", {"unit": "mark", "route": "x"}, "unit", alice)
        assert choices[:2] == [(f"marker {kept}: {DIVISION} (6 units)", f"marker {kept}"),
                               (f"marker {decoy}: decoy", f"marker {decoy}")]
        assert await offered(fake, "conceal reveal", {"marker": "dec"}, "marker", alice) == [
            (f"marker {decoy}: decoy", f"marker {decoy}")]
        moved = await say(fake, "move", alice, {"unit": f"marker {decoy}", "route": NEXT_DOOR})
        assert moved.startswith(f"Marker {decoy} (decoy) moved to {NEXT_DOOR}")
        state = await bot.umpire.repository.state_for("g1")
        assert state.loaded.board.label(state.markers[decoy].cell) == NEXT_DOOR
        # The enemy is offered none of it, and told only what the markers did.
        assert not [c for c in await offered(fake, "move", {"unit": "", "route": "x"}, "unit",
                                             bob) if "marker" in c[0]]
        assert await offered(fake, "conceal breed", {"marker": ""}, "marker", bob) == []
        await bot.outbox.idle()
        # ... in a DM, or held for the dossier of Bob's next phase (his side does not act now)
        held = [h.text for h in (await bot.umpire.store.held_news("g1")).get("union", [])]
        told = "\n".join([*dm_texts(fake, bob), *held])
        assert "A concealment marker of the Army of Northern Virginia appeared at A1817" in told
        assert (f"Enemy marker {parent} (Army of Northern Virginia) split in two at A1817: "
                f"now markers {kept} and {decoy}.") in told
        assert (f"Enemy marker {decoy} (Army of Northern Virginia) moved to {NEXT_DOOR}"
                in told)
        assert "decoy" not in told and "Trimble" not in told and "6 units" not in told
        mine = "\n".join(dm_texts(fake, alice))
        assert "Enemy marker" not in mine  # the owner has the module's own words


async def test_halves_left_stacked_are_one_marker_again_when_the_phase_ends(
        fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Markers never stack (Cf 1.4, ruling CF-24): Colston's division breeds and neither half
    moves off; when the Confederate player is done with the phase, the two are one marker again,
    over the division. He is told why; the Union reads that the two are one again."""
    rig(monkeypatch, 1)
    async with started_game(fake, tmp_path, SCENARIO, SIDES, seed=SEED) as (bot, alice, bob):
        users = {"confederate": alice, "union": bob}
        await to_movement(bot, users, 1)
        await say(fake, "conceal force", alice, {"leader": COLSTON})
        await to_movement(bot, users, 2)
        [parent] = await markers(bot)
        await say(fake, "conceal breed", alice, {"marker": f"marker {parent}"})
        kept, decoy = await markers(bot)
        await bot.umpire.handle("g1", alice.id, Done())
        [one] = await markers(bot)
        assert one not in (parent, kept, decoy)
        state = await bot.umpire.repository.state_for("g1")
        assert state.loaded.board.label(state.markers[one].cell) == "A1817"
        await bot.outbox.idle()
        # Sent to the player or the side, or held for the dossier of the side's next phase.
        news = await bot.umpire.store.held_news("g1")
        sent = await bot.umpire.store.deliveries_for(
            "g1", Recipient("player", str(alice.id)), Recipient("side", "confederate"),
            limit=500)
        mine = "\n".join([*(d.text for d in sent),
                          *(h.text for h in news.get("confederate", []))])
        assert (f"Markers {kept} and {decoy} still shared a hex at the end of the phase, and "
                "markers never stack: the breeding is undone.") in mine
        told = "\n".join([*dm_texts(fake, bob), *(h.text for h in news.get("union", []))])
        assert (f"Enemy markers {kept} and {decoy} (Army of Northern Virginia) at A1817 are one "
                f"again: now marker {one}.") in told
        assert "decoy" not in told


async def enemy_transcript(tmp_path: Path, holds: int, monkeypatch: pytest.MonkeyPatch
                           ) -> tuple[list[Any], list[bytes], str]:
    """One game in which the Confederates conceal Colston, breed a decoy and move the first
    marker (by id) next door: the force or the decoy as ``holds`` says. Returns everything the
    Union player got: autocomplete, answers and DMs (texts and map bytes), and the answer the
    Confederate player got for the move."""
    rig(monkeypatch, holds)
    tmp_path.mkdir()
    out: list[Any] = []
    async with (FakeDiscord(token=TOKEN, callback_deadline=3.0) as fake,
                started_game(fake, tmp_path, SCENARIO, SIDES, seed=SEED,
                             maps=True) as (bot, alice, bob)):
        users = {"confederate": alice, "union": bob}
        await to_movement(bot, users, 1)
        await say(fake, "conceal force", alice, {"leader": COLSTON})
        await to_movement(bot, users, 2)
        [parent] = await markers(bot)
        await say(fake, "conceal breed", alice, {"marker": f"marker {parent}"})
        first, second = await markers(bot)
        moved = await say(fake, "move", alice, {"unit": f"marker {first}",
                                                "route": NEXT_DOOR})
        assert moved.startswith(f"Marker {first} ")
        owner = moved
        for ref in (f"marker {first}", f"marker {second}", first):
            out.append(await offered(fake, "move", {"unit": ref, "route": "x"}, "unit",
                                     bob))
            out.append(await offered(fake, "conceal breed", {"marker": ref}, "marker",
                                     bob))
        await to_movement(bot, users, 3, "union")  # the Union moves first in a turn
        nowhere = next(f"{n:04d}" for n in range(10_000)
                       if f"{n:04d}" not in (first, second))
        for mid in (first, second, nowhere):
            ref = f"marker {mid}"
            answers = [await say(fake, "move", bob, {"unit": ref, "route": "A1815"}),
                       await say(fake, "conceal breed", bob, {"marker": ref}),
                       await say(fake, "conceal reveal", bob, {"marker": ref})]
            out.append([a.replace(mid, "####") for a in answers])
        await bot.outbox.idle()
        dms = fake.dms_to(bob)
        out.append([text_of(m) for m in dms])
        images = [fake.world.blobs[int(a["id"])].data for m in dms
                  for a in m.get("attachments") or []]
    return out, images, owner


async def test_the_enemy_gets_the_same_whatever_is_under_a_marker(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cheater's test: the first marker holds Colston's division in one game and a decoy in
    the other; the Union player's autocomplete, answers, DMs and maps are byte for byte the
    same."""
    division, division_maps, real_move = await enemy_transcript(tmp_path / "real", 1,
                                                                monkeypatch)
    decoy, decoy_maps, decoy_move = await enemy_transcript(tmp_path / "decoy", 2, monkeypatch)
    # The games do differ: the owner moved his division in one and a decoy in the other.
    assert f"({DIVISION}) moved to {NEXT_DOOR}" in real_move
    assert "(decoy) moved to" in decoy_move
    first = real_move.split()[1]
    assert division == decoy
    assert division_maps and division_maps == decoy_maps
    # Naming either enemy marker reads as naming a marker that is not there.
    first_marker, second_marker, no_marker = division[-4:-1]
    assert first_marker == second_marker == no_marker
    assert "You have no unit called 'marker ####'" in first_marker[0]
    assert any(f"Enemy marker {first} (Army of Northern Virginia) moved to {NEXT_DOOR}" in t
               for t in division[-1])


def test_unconcealing_words_for_each_side() -> None:
    """The owner reads the module's words (which force, where it deploys); the enemy reads that
    the marker was removed and why, in the same words for a decoy as the rules tell everyone,
    and nothing of which division it was."""
    g = FlankMarch(Rigged(SEED, "g1", 1))
    g.to_confederate_movement(1)
    g.game.do("confederate", ConcealForce(leader=COLSTON))
    g.to_confederate_movement(2)
    [marker] = g.game.state.markers
    before = g.game.state
    out = g.game.do("confederate", Unconceal(marker=marker))
    told = messages_for(before, list(out.events), out.state)
    union = [m.text for m in told if m.target == "union"]
    confederate = [m.text for m in told if m.target == "confederate"]
    assert union == [f"Enemy marker {marker} (Army of Northern Virginia) was removed "
                     "(revealed: its force deploys)."]
    assert any(t.startswith(f"Marker {marker} is unconcealed") for t in confederate)
    assert not [t for t in confederate if "Enemy marker" in t]
