"""A quiet inbox on Discord: the flank-march story, played by two players a side through the
bot, tells each player a turn's news and results in at most three direct messages (the
median: one a phase its side acts in), none past Discord's limits, and the enemy's fire once,
in the dossier of the side's next phase. A side-mate's readiness (ruling FLOW-3) is told
besides, and counted apart."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

from bot.client import VedetteBot
from storage.store import Store
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.harness import patched_discord, run_client
from tests.support.botkit import TOKEN, text_of
from umpire.demo.main import SCENARIO, SEEDS, TURNS, WITHOUT, Seats, play_turn
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

#: How a side-mate's readiness is told (ruling FLOW-3).
READY = "Ready to end the "
#: Discord's limits on one message.
MAX_CONTENT, MAX_EMBED, MAX_EMBEDS = 2000, 4096, 6000


def within_limits(message: dict[str, Any]) -> bool:
    embeds = [str(e.get("description") or "") for e in message.get("embeds") or []]
    return (len(str(message.get("content") or "")) <= MAX_CONTENT
            and all(len(e) <= MAX_EMBED for e in embeds) and sum(map(len, embeds)) <= MAX_EMBEDS)


async def test_the_flank_march_sends_each_player_at_most_three_messages_a_turn(
        fake: FakeDiscord, tmp_path: Path) -> None:
    guild = fake.add_guild("Wargames Club")
    players: dict[str, tuple[FakeUser, FakeUser]] = {
        side: (fake.add_user(f"{side}-1", guild=guild), fake.add_user(f"{side}-2", guild=guild))
        for side in ("union", "confederate")}
    everyone = [u for pair in players.values() for u in pair]
    host = players["union"][0]
    async with Store.open(tmp_path / "vedette.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(SCENARIO, host.id, game_id="g1",
                                 without=WITHOUT, seed=SEEDS["success"])
        for side, pair in players.items():
            for user in pair:
                await umpire.join("g1", user.id, side, in_server=True)
        await umpire.start("g1", host.id)
        seats = Seats("g1", {side: (a.id, b.id) for side, (a, b) in players.items()})
        bot = VedetteBot(umpire, outbox_interval=0.2, guild_ready_timeout=0.05)
        with patched_discord(fake.base_url):
            async with run_client(bot, token=TOKEN):
                await bot.outbox.idle()
                a_turn: list[int] = []
                readiness: list[int] = []
                for turn in range(1, TURNS + 1):
                    before = {u.id: len(fake.dms_to(u)) for u in everyone}
                    await play_turn(umpire, turn, "success", seats)
                    await bot.outbox.idle()
                    for u in everyone:
                        told = [text_of(m) for m in fake.dms_to(u)[before[u.id]:]]
                        ready = [t for t in told if t.startswith(READY)]
                        a_turn.append(len(told) - len(ready))
                        readiness.append(len(ready))
        dms = {u.id: fake.dms_to(u) for u in everyone}
    # The turn's news and results: three messages a player, a phase each (the median).
    assert statistics.median(a_turn) <= 3, a_turn
    # Besides, the last of a shared side to finish hears when a side-mate is ready (ruling
    # FLOW-3): at most once in each of the side's three phases.
    assert max(readiness) <= 3
    assert all(within_limits(m) for told in dms.values() for m in told)
    # The story fights: the Union hears of the Confederate fire on its units, each time in one
    # message that also calls for its orders.
    union = [text_of(m) for m in dms[host.id]]
    hit = [t for t in union if "**Under fire**" in t or "**Assaulted**" in t]
    assert hit and all("Your orders, please" in t for t in hit)
    # Side-mates read the same dossiers.
    mate = [text_of(m) for m in dms[players["union"][1].id]]
    assert [t for t in union if "Your orders, please" in t] == [
        t for t in mate if "Your orders, please" in t]
