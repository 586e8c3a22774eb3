"""``/standing set`` through the bot on the fake Discord: ``continue the march`` with no route
takes the route of the unit's last move; for a unit never moved it says so and sets nothing
(ruling FLOW-76)."""

from __future__ import annotations

from pathlib import Path

from bot.client import VedetteBot
from rules import commands as cmd
from storage.store import Store
from tests.fakediscord import FakeDiscord, patched_discord, run_client
from tests.support.botkit import TOKEN, final, text_of
from tests.support.tiny_games import flank_game

ROUTE = "B1014 B0812 B0610 B0408"


async def test_standing_set_without_a_route_goes_on_along_the_last_move(tmp_path: Path
                                                                         ) -> None:
    """Buschbeck, never moved: the clear answer, nothing set. Barlow, moved along a route:
    ``/standing set`` with no route answers with that route, and stores it."""
    async with FakeDiscord(token=TOKEN) as fake:
        guild = fake.add_guild("Wargames Club")
        union, grey = fake.add_user("union", guild=guild), fake.add_user("grey", guild=guild)
        async with Store.open(tmp_path / "v.db") as store:
            umpire = await flank_game(store, union.id, grey.id, in_server=True)
            await umpire.done("g1", union.id)
            await umpire.done("g1", grey.id)
            await umpire.handle("g1", union.id, cmd.Move(unit="barlow", route=ROUTE))
            bot = VedetteBot(umpire, outbox_interval=0.2, guild_ready_timeout=0.05)
            with patched_discord(fake.base_url):
                async with run_client(bot, token=TOKEN):
                    await bot.outbox.idle()
                    never = text_of(await final(await fake.slash(
                        "standing set", {"unit": "Buschbeck", "order": "march"}, user=union)))
                    assert "Buschbeck's brigade has no move to go on with: give route:" \
                        in never, never
                    assert await store.standing_orders("g1", "union") == []
                    said = text_of(await final(await fake.slash(
                        "standing set", {"unit": "Barlow", "order": "march"}, user=union)))
                    assert f"Barlow's brigade: continue the march along {ROUTE}" in said
            assert await store.standing_orders("g1", "union") == [
                ("barlow", "march", ROUTE, union.id)]
