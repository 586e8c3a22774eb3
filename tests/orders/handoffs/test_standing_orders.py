"""Standing orders and Done for the turn at the umpire and through the bot: what asks a player
again, what a standing order becomes, bad input, the Done for the turn button, and that whether
a side is asked again depends only on its view (rulings FLOW-70 to FLOW-75)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import VedetteBot
from rules import events as ev
from rules.combat.events import CloseCombatResolved, FireReceived
from rules.orders.standing import asks_again
from storage.records import Recipient
from storage.store import Store
from tests.fakediscord import FakeDiscord, custom_ids, patched_discord, run_client
from tests.support.botkit import TOKEN, final, text_of
from tests.support.tiny_games import flank_game
from umpire.demo.main import SCRIPT, Seats, _jackson, _march
from umpire.games import ready
from umpire.service import Umpire, UmpireError

UNION, CONFEDERATE = 11, 21


async def _game(store: Store) -> Umpire:
    return await flank_game(store, UNION, CONFEDERATE)


def test_what_asks_a_side_again_is_only_what_it_is_told() -> None:
    """Fire on or an assault against its units: yes; its own fire's report, an assault it
    made, a sighting of any kind: no (an enemy newly seen waits for the next dossier, so that
    the moment the side's phase ends tells the enemy nothing: ruling FLOW-75)."""
    side = ev.side_audience("union")
    assert not asks_again("union", ev.Sighted(audience=side, side="union", seen={"x": {}}))
    assert not asks_again("union", ev.Sighted(audience=side, side="union", lost=("x",)))
    assert not asks_again("union", ev.Sighted(audience=ev.side_audience("confederate"),
                                              side="confederate", seen={"y": {}}))
    assert asks_again("union", FireReceived(audience=side, unit="u", firers="them"))
    assert not asks_again("confederate", FireReceived(audience=side, unit="u", firers="t"))
    hit = {"attackers": ("a",), "defenders": ("d",), "cell": (1, 1)}
    assert asks_again("union", CloseCombatResolved(audience=side, viewpoint="defender", **hit))
    assert not asks_again("union", CloseCombatResolved(audience=side, viewpoint="attacker",
                                                       **hit))


async def test_bad_standing_orders_are_refused_and_change_nothing(tmp_path: Path) -> None:
    """An enemy unit's name gets the answer a name of no unit gets; an unknown order, a march
    without a route or with a route that cannot be read is refused; nothing is stored."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await _game(store)
        with pytest.raises(UmpireError) as enemy:
            await umpire.set_standing("g1", UNION, "jackson", "hold")
        with pytest.raises(UmpireError) as nobody:
            await umpire.set_standing("g1", UNION, "nobody-at-all", "hold")
        assert str(enemy.value).replace("jackson", "X") == \
            str(nobody.value).replace("nobody-at-all", "X")
        for order, route in (("charge", ""), ("march", ""), ("march", "Atlantis")):
            with pytest.raises(UmpireError, match="nothing was changed"):
                await umpire.set_standing("g1", UNION, "barlow", order, route)
        with pytest.raises(UmpireError, match="no standing order"):
            await umpire.clear_standing("g1", UNION, "barlow")
        assert await store.standing_orders("g1", "union") == []
        said = await umpire.set_standing("g1", UNION, "barlow", "march", "B0915")
        assert "continue the march along B0915" in said.text


async def test_a_march_order_is_carried_out_while_its_player_is_done_for_the_turn(
        tmp_path: Path) -> None:
    """Barlow's standing march order moves him in the Union Movement Phase, which passes with
    no word from the Union player, who said Done for the turn in the Command Phase."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await _game(store)
        await umpire.set_standing("g1", UNION, "barlow", "march", "B0915")
        start = (await umpire.repository.state_for("g1")).units["barlow"].cell
        said = await umpire.done("g1", UNION, until_turn=True)
        assert "done for the rest of turn 1" in said.text
        await umpire.done("g1", CONFEDERATE)
        state = await umpire.repository.state_for("g1")
        assert state.current.side == "confederate", state.current
        board = state.loaded.board
        assert state.units["barlow"].cell != start
        assert board.label(state.units["barlow"].cell) == "B0915"


async def _union_inbox(tmp_path: Path, *, secret_order: bool) -> list[str]:
    """Two turns: the Union player Done for the turn at each Command Phase; the Confederates
    move as scripted and, or not, send Jackson's corps its secret march order."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await _game(store)
        seats = Seats("g1", {"union": (UNION,), "confederate": (CONFEDERATE,)})
        for turn in (1, 2):
            await umpire.done("g1", UNION, until_turn=True)
            if secret_order:
                await _jackson(umpire, turn, "success", seats)
            await umpire.done("g1", CONFEDERATE)
            for _ in range(6):
                state = await umpire.repository.state_for("g1")
                if state.turn != turn:
                    break
                for side in state.acting_sides():
                    if side == "confederate" and state.current.allows("move"):
                        for order in SCRIPT.get(turn, []):
                            if order.side == side:
                                await _march(umpire, order, seats)
                    await umpire.done("g1", UNION if side == "union" else CONFEDERATE)
        sent = await store.deliveries_for("g1", Recipient("player", str(UNION)), limit=500)
        return [d.text for d in sent]


async def test_whether_a_side_is_asked_again_does_not_depend_on_hidden_enemy_orders(
        tmp_path: Path) -> None:
    """Non-interference: the Union player's messages (words, order, number) are the same
    whether or not the Confederates give their hidden surprise-move order while the Union is
    done for the turn."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with_order = await _union_inbox(tmp_path / "a", secret_order=True)
    without = await _union_inbox(tmp_path / "b", secret_order=False)
    assert with_order == without
    assert with_order


async def test_the_done_for_the_turn_button_stands_for_the_later_phases(tmp_path: Path) -> None:
    """The Union's call for orders carries Done for the turn beside Done; pressed, the Union's
    later phases of the turn pass with no call; a press by a Confederate is refused with the
    words of any other side's button."""
    async with FakeDiscord(token=TOKEN) as fake:
        guild = fake.add_guild("Wargames Club")
        union, grey = fake.add_user("union", guild=guild), fake.add_user("grey", guild=guild)
        async with Store.open(tmp_path / "v.db") as store:
            umpire = await flank_game(store, union.id, grey.id, in_server=True)
            bot = VedetteBot(umpire, outbox_interval=0.2, guild_ready_timeout=0.05)
            with patched_discord(fake.base_url):
                async with run_client(bot, token=TOKEN):
                    await bot.outbox.idle()
                    call = fake.dms_to(union)[-1]
                    whole = [c for c in custom_ids(call) if c.startswith("vedette:done-turn:")]
                    assert whole, custom_ids(call)
                    forged = await final(await fake.click(call, whole[0], user=grey))
                    assert text_of(forged) == ready.NOT_YOUR_SIDE
                    said = text_of(await final(await fake.click(call, whole[0], user=union)))
                    assert "done for the rest of turn 1" in said
                    await bot.outbox.idle()
                    before = len(fake.dms_to(union))
                    await final(await fake.slash("done", {}, user=grey))
                    await bot.outbox.idle()
                    state = await umpire.repository.state_for("g1")
                    assert (state.current.side, state.current.phase.id) == (
                        "confederate", "movement")
                    calls = [m for m in fake.dms_to(union)[before:]
                             if any(c.startswith("vedette:done:") for c in custom_ids(m))]
                    assert calls == []
