"""A quiet inbox on Discord: the flank-march story, played by two players a side through the
bot, tells each player a turn's news and results in at most three direct messages (the
median: one a phase its side acts in), none past Discord's limits, and the enemy's fire once,
in the dossier of the side's next phase. A side-mate's readiness (ruling FLOW-3) is told
besides, and counted apart."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

from tests.fakediscord import FakeDiscord
from tests.support.botkit import READY, play_story, text_of

#: Discord's limits on one message.
MAX_CONTENT, MAX_EMBED, MAX_EMBEDS = 2000, 4096, 6000


def within_limits(message: dict[str, Any]) -> bool:
    embeds = [str(e.get("description") or "") for e in message.get("embeds") or []]
    return (len(str(message.get("content") or "")) <= MAX_CONTENT
            and all(len(e) <= MAX_EMBED for e in embeds) and sum(map(len, embeds)) <= MAX_EMBEDS)


async def test_the_flank_march_sends_each_player_at_most_three_messages_a_turn(
        fake: FakeDiscord, tmp_path: Path) -> None:
    story = await play_story(fake, tmp_path)
    told = [[text_of(m) for m in messages] for turn in story.sent for messages in turn.values()]
    readiness = [sum(t.startswith(READY) for t in texts) for texts in told]
    # The turn's news and results: three messages a player, a phase each (the median).
    assert statistics.median(len(t) - r for t, r in zip(told, readiness, strict=True)) <= 3
    # Besides, the last of a shared side to finish hears when a side-mate is ready (ruling
    # FLOW-3): at most once in each of the side's three phases.
    assert max(readiness) <= 3
    dms = {u.id: fake.dms_to(u) for u in story.everyone}
    assert all(within_limits(m) for sent in dms.values() for m in sent)
    # The story fights: the Union hears of the Confederate fire on its units, each time in one
    # message that also calls for its orders.
    union, mate = ([text_of(m) for m in dms[u.id]] for u in story.players["union"])
    hit = [t for t in union if "**Under fire**" in t or "**Assaulted**" in t]
    assert hit and all("Your orders, please" in t for t in hit)
    # Side-mates read the same dossiers.
    assert [t for t in union if "Your orders, please" in t] == [
        t for t in mate if "Your orders, please" in t]
