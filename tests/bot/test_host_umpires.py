"""The host umpires (game option ``host_umpires``, ruling ORD-41): the host takes no side, and
the host's /map, /units and /log show the whole truth during play. Nobody else ever reads it
before the end: not a second account, not a Manage Server moderator, not a player."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import VedetteBot
from rules import commands as cmd
from rules.view import project
from storage.store import Store
from tests.support.botkit import Table, final, say, settle, text_of
from umpire.games import seats
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError
from umpire.words import whole_truth

FIXTURES = Path(__file__).parents[1] / "fixtures"
HOST, BLUE, GREY, SECOND = 1, 10, 20, 30
SEED = bytes(range(32))


def tiny_hidden(tmp_path: Path, name: str, grey_at: str = "B0704") -> Path:
    """The tiny skirmish under the hidden model, the Grey Brigade at ``grey_at``."""
    text = (FIXTURES / "tiny.toml").read_text(encoding="utf-8")
    text = text.replace('ruleset = "tiny.ruleset.toml"',
                        f'ruleset = "{FIXTURES / "tiny.ruleset.toml"}"')
    text = text.replace('information = "open"', 'information = "hidden"')
    assert 'at = "B0704"' in text
    path = tmp_path / f"{name}.toml"
    path.write_text(text.replace('at = "B0704"', f'at = "{grey_at}"'), encoding="utf-8")
    return path


async def playing(store: Store, scenario: Path, *, host_umpires: bool = True,
                  maps: bool = False) -> Umpire:
    """A started game of ``scenario``: blue and grey seated, the host (``HOST``) seated on no
    side; the host umpires unless told otherwise."""
    umpire = Umpire(store, maps=MapMaker(enabled=maps))
    await umpire.create_game(str(scenario), HOST, game_id="g1", seed=SEED,
                             options={"host_umpires": True} if host_umpires else None)
    await umpire.join("g1", BLUE, "blue")
    await umpire.join("g1", GREY, "grey")
    await umpire.start("g1", HOST)
    return umpire


async def test_the_option_is_off_by_default_and_announced_when_chosen(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        said = await umpire.create_game(str(tiny_hidden(tmp_path, "a")), HOST, game_id="g1",
                                        options={"host_umpires": True})
        assert "the host umpires: the host takes no side" in said.text
        plain = await umpire.create_game(str(tiny_hidden(tmp_path, "b")), HOST, game_id="g2")
        assert "umpires" not in plain.text
        assert not whole_truth.host_umpires(await umpire.repository.state_for("g2"))
        assert whole_truth.host_umpires(await umpire.repository.state_for("g1"))
        with pytest.raises(UmpireError, match="true or false"):
            await umpire.create_game(str(tiny_hidden(tmp_path, "c")), HOST, game_id="g3",
                                     options={"host_umpires": "yes"})
        assert await umpire.game("g3") is None


async def test_the_umpiring_host_takes_no_side(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(tiny_hidden(tmp_path, "a")), HOST, game_id="g1",
                                 options={"host_umpires": True})
        with pytest.raises(UmpireError, match="you umpire this game"):
            await umpire.join("g1", HOST, "blue")
        assert await store.players("g1") == []
        await umpire.join("g1", BLUE, "blue")
        await umpire.join("g1", GREY, "grey")
        await umpire.start("g1", HOST)
        # After the start a join is a request to the host: the host cannot even ask.
        with pytest.raises(UmpireError, match="you umpire this game"):
            await umpire.join("g1", HOST, "grey")
        assert await store.seat_request("g1", HOST) is None
        assert {p.user_id for p in await store.players("g1")} == {BLUE, GREY}
        # Without the option the host may play, as before.
        await umpire.create_game(str(tiny_hidden(tmp_path, "b")), HOST, game_id="g2")
        assert "You command" in (await umpire.join("g2", HOST, "blue")).text


async def test_the_umpiring_host_reads_every_side_during_play(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await playing(store, tiny_hidden(tmp_path, "a"))
        state = await umpire.repository.state_for("g1")
        assert project(state, "blue").unit("grey-1") is None  # hidden from blue
        units = (await umpire.units_page("g1", HOST)).text
        assert "Grey Brigade" in units and "1st Brigade" in units
        assert "You umpire this game" in (await umpire.units_text("g1", HOST)).text
        assert "Grey Brigade" in (await umpire.units_text("g1", HOST)).text
        shown = await umpire.my_map("g1", HOST)
        assert shown.text.endswith(whole_truth.UMPIRE_MAP_NOTE)
        # Grey's own messages are in the host's log, never in blue's.
        await umpire.handle("g1", BLUE, cmd.Done())
        grey_only = [d.text for d in await store.pending_deliveries("g1", limit=1000)
                     if d.kind in ("player", "side") and d.target in (str(GREY), "grey")]
        assert grey_only
        blue_log = (await umpire.log_text("g1", BLUE, last=100)).text
        host_log = (await umpire.log_text("g1", HOST, last=100)).text
        assert "[Grey Army]" in host_log and "[Blue Army]" in host_log
        assert "[Grey Army]" not in blue_log and "Grey Brigade" not in blue_log
        assert all(t in host_log for t in grey_only)


async def test_nobody_else_reads_the_whole_truth(tmp_path: Path) -> None:
    """A player's second account, a moderator with the host's tools, and the players
    themselves: none of them reads more in a game the host umpires."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await playing(store, tiny_hidden(tmp_path, "a"))
        for read in (umpire.units_page("g1", SECOND), umpire.my_map("g1", SECOND),
                     umpire.log_text("g1", SECOND), umpire.units_text("g1", SECOND)):
            with pytest.raises(UmpireError, match="not playing"):
                await read
        with pytest.raises(UmpireError, match="only the game's host"):
            await umpire.correct("g1", SECOND, "grey-1", {"strength": 1}, "peek")
        assert await umpire.correctable_units("g1", SECOND) == []
        # A moderator stands in for the host's tools, not for the host's eyes.
        assert await umpire.correctable_units("g1", SECOND, is_admin=True) == []
        with pytest.raises(UmpireError, match="neither play a side"):
            await umpire.correct("g1", SECOND, "grey-1", {"strength": 1}, "peek",
                                 is_admin=True)
        assert (await umpire.repository.state_for("g1")).units["grey-1"].strength == 7
        blue_units = (await umpire.units_page("g1", BLUE)).text
        assert "Grey" not in blue_units


async def test_a_player_reads_the_same_whether_the_host_umpires_or_not(tmp_path: Path) -> None:
    """Blue's /map, /units and /log, byte for byte, in two games alike but for the option;
    and the host's map shows the hidden Grey Brigade where it is, which Blue's does not."""
    pictures: dict[tuple[bool, str], bytes | None] = {}
    texts: dict[bool, tuple[str, str]] = {}
    for umpires in (True, False):
        for grey_at in ("B0704", "B0802"):
            name = f"{umpires}-{grey_at}"
            async with Store.open(tmp_path / f"{name}.db") as store:
                umpire = await playing(store, tiny_hidden(tmp_path, name, grey_at),
                                       host_umpires=umpires, maps=True)
                blue_map = await umpire.my_map("g1", BLUE)
                pictures[(umpires, grey_at)] = blue_map.image
                pictures[(umpires, "whole " + grey_at)] = (
                    await umpire.my_map("g1", BLUE, whole=True)).image
                if umpires:
                    pictures[(umpires, "host " + grey_at)] = (
                        await umpire.my_map("g1", HOST, whole=True)).image
                if grey_at == "B0704":
                    texts[umpires] = ((await umpire.units_page("g1", BLUE)).text,
                                      (await umpire.log_text("g1", BLUE)).text)
    blue = {pictures[(u, g)] for u in (True, False) for g in ("B0704", "B0802")}
    assert len(blue) == 1 and None not in blue
    whole = {pictures[(u, "whole " + g)] for u in (True, False) for g in ("B0704", "B0802")}
    assert len(whole) == 1 and None not in whole
    blue |= whole
    assert texts[True] == texts[False]
    host_maps = {pictures[(True, "host B0704")], pictures[(True, "host B0802")]}
    assert len(host_maps) == 2 and not host_maps & blue


# -- through the fake Discord -------------------------------------------------------------------
async def test_game_create_host_umpires_through_discord(
        table: Table, bot: VedetteBot) -> None:
    handle = await table.fake.slash("game create", {"scenario": "tiny", "host_umpires": True},
                                    user=table.alice, channel=table.channel)
    assert "You host game" in text_of(await final(handle))
    [game] = await bot.umpire.games(channel_id=table.channel.id)
    refused = await say(table, "game join", table.alice, {"side": "blue"},
                        channel=table.channel)
    assert seats.HOST_TAKES_NO_SIDE in refused, refused
    assert "You command Blue Army" in await say(table, "game join", table.bob,
                                                {"side": "blue"}, channel=table.channel)
    assert "You command Grey Army" in await say(table, "game join", table.carol,
                                                {"side": "grey"}, channel=table.channel)
    assert "started" in await say(table, "game start", table.alice, channel=table.channel)
    await settle(bot)
    host_units = await table.fake.slash("units", {"game": game.id}, user=table.alice)
    shown = (await final(host_units))["embeds"][0]["description"]
    assert "Grey Brigade" in shown and "1st Brigade" in shown
    # alice sits on no side, yet reads blue's orders in her log.
    assert "[Blue Army]" in await say(table, "log", table.alice, {"game": game.id})
    bob_units = await table.fake.slash("units", {}, user=table.bob)
    assert "Grey Brigade" not in str(await final(bob_units))
    # dave moderates the server (Manage Server): the host's tools, never the host's view.
    assert "not playing" in await say(table, "units", table.dave, {"game": game.id},
                                      channel=table.channel)
