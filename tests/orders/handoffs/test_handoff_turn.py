"""One hand-off per side per turn, through the bot on the fake Discord: ``/done until:``, the Done
for the turn button, a Command Phase that passes on standing orders, and the flank-march story
played with them (rulings FLOW-70 to FLOW-75)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.client import VedetteBot
from rules.surprise import records as rec
from storage.store import Store
from tests.fakediscord import FakeDiscord, FakeUser, custom_ids, patched_discord, run_client
from tests.support.botkit import TOKEN, Story, final, text_of
from umpire.demo import handoffs
from umpire.demo.main import SCENARIO as FLANK_MARCH
from umpire.demo.main import SEEDS, TURNS, WITHOUT, Seats
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

JSON = dict[str, Any]
#: How the story is played: ``(umpire, turn, seats, hand_off)``.
Script = Callable[[Umpire, int, Seats, handoffs.HandOff], Awaitable[None]]


async def _story(fake: FakeDiscord, folder: Path, turns: int, script: Script, *,
                 standing: bool = True) -> tuple[Story, int, Umpire]:
    """The flank march through the bot, two players a side, each hand-off a ``/done`` typed
    in a DM (``until:next-turn`` when the script says so); the story, the number of hand-offs,
    and the umpire (its store closed)."""
    guild = fake.add_guild("Wargames Club")
    story = Story({side: (fake.add_user(f"{side}-1", guild=guild),
                          fake.add_user(f"{side}-2", guild=guild))
                   for side in ("union", "confederate")})
    users = {u.id: u for u in story.everyone}
    count = 0
    async with Store.open(folder / "vedette.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(FLANK_MARCH, story.players["union"][0].id, game_id="g1",
                                 without=WITHOUT, seed=SEEDS["success"])
        for side, pair in story.players.items():
            for user in pair:
                await umpire.join("g1", user.id, side, in_server=True)
        seats = Seats("g1", {side: (a.id, b.id) for side, (a, b) in story.players.items()})
        if standing:
            await handoffs.stand_at_start(umpire, seats)
        await umpire.start("g1", story.players["union"][0].id)

        async def hand_off(user: int, whole: bool) -> None:
            nonlocal count
            count += 1
            options = {"until": "next-turn"} if whole else {}
            said = text_of(await final(await fake.slash("done", options, user=users[user])))
            assert said and "nothing was changed" not in said, said

        bot_ = VedetteBot(umpire, outbox_interval=0.2, guild_ready_timeout=0.05)
        with patched_discord(fake.base_url):
            async with run_client(bot_, token=TOKEN):
                await bot_.outbox.idle()
                for turn in range(1, turns + 1):
                    before = {u.id: len(fake.dms_to(u)) for u in story.everyone}
                    await script(umpire, turn, seats, hand_off)
                    await bot_.outbox.idle()
                    story.sent.append({u.id: fake.dms_to(u)[before[u.id]:]
                                       for u in story.everyone})
        state = await umpire.repository.state_for("g1")
        assert state.turn == turns + 1, (state.turn, state.current.title)
        marches = rec.marches(state)
    umpire.marches = marches  # type: ignore[attr-defined]
    return story, count, umpire


async def _handing_off(umpire: Umpire, turn: int, seats: Seats,
                       hand_off: handoffs.HandOff) -> None:
    await handoffs.play_turn(umpire, turn, seats, hand_off)


def _texts(story: Story, user: FakeUser) -> list[list[str]]:
    """What ``user`` was sent each turn, its players' mentions by seat (ids differ between
    two fake servers)."""
    seats = {f"<@{u.id}>": f"<@{u.username}>" for u in story.everyone}

    def plain(text: str) -> str:
        for mention, seat in seats.items():
            text = text.replace(mention, seat)
        return text

    return [[plain(text_of(m)) for m in turn[user.id]] for turn in story.sent]


async def test_the_flank_march_takes_at_most_one_and_a_half_hand_offs_a_player_a_turn(
        tmp_path: Path) -> None:
    """The whole story (Jackson's march set off and carried out, the fighting from turn 6),
    each player handing on as a play group would with standing orders and Done for the turn:
    at most 1.5 hand-offs a player a turn, where saying Done in every phase takes 3."""
    async with FakeDiscord(token=TOKEN) as fake:
        story, count, umpire = await _story(fake, tmp_path, TURNS, _handing_off)
    players = len(story.everyone)
    assert count <= 1.5 * players * TURNS, count
    # The story is the story: the march was carried out and the armies fought.
    assert [m["status"] for m in umpire.marches] == [rec.MarchState.EXECUTED]  # type: ignore
    fights = [text_of(m) for turn in story.sent for sent in turn.values() for m in sent
              if "**Fire**" in text_of(m) or "Assault" in text_of(m)]
    assert fights


async def test_a_union_on_standing_orders_is_never_called_to_its_command_phase(
        tmp_path: Path) -> None:
    """Each Union player set a standing order before the start and the Union has no march:
    its Command Phases pass by themselves, without a call; its players' calls of the turn
    are for the Movement Phase only, each with the Done for the turn button beside Done."""
    async with FakeDiscord(token=TOKEN) as fake:
        story, _, _ = await _story(fake, tmp_path, 2, _handing_off)
        union = story.players["union"][0]
        for turn in story.sent:
            calls = [m for m in turn[union.id] if any("done" in c for c in custom_ids(m))]
            assert calls, turn[union.id]
            assert all("Command Phase" not in text_of(m).split("\n")[0] for m in calls)
            assert all(any(c.startswith("vedette:done-turn:") for c in custom_ids(m))
                       for m in calls)
            assert "Standing orders" in text_of(calls[0])


async def test_the_enemy_hears_the_same_whether_the_side_stands_or_says_done_each_phase(
        tmp_path: Path) -> None:
    """Non-interference: the Confederate players' messages (words, order, number) are the same
    whether the Union plays on standing orders and Done for the turn, or types /done in every
    phase (ruling FLOW-75)."""
    turns = 3

    async def confederates_as_told(script: Script, folder: Path, standing: bool
                                   ) -> list[list[list[str]]]:
        folder.mkdir()
        async with FakeDiscord(token=TOKEN) as fake:
            story, _, _ = await _story(fake, folder, turns, script, standing=standing)
        return [_texts(story, u) for u in story.players["confederate"]]

    async def union_by_hand_confederates_standing(umpire: Umpire, turn: int, seats: Seats,
                                                  hand_off: handoffs.HandOff) -> None:
        # The Confederates play as in the hand-off story; the Union says Done in every phase.
        async def mixed(user: int, whole: bool) -> None:
            union = user in seats.players["union"]
            await hand_off(user, whole and not union)
        await handoffs.play_turn(umpire, turn, seats, mixed)

    standing = await confederates_as_told(_handing_off, tmp_path / "standing", True)
    by_hand = await confederates_as_told(union_by_hand_confederates_standing,
                                         tmp_path / "by-hand", False)
    assert standing == by_hand
