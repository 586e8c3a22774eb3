"""A quiet inbox on Discord: the flank-march story, played by two players a side through the
bot, tells each player a turn's news and results in at most three direct messages (the
median: one a phase its side acts in), none past Discord's limits, and the enemy's fire once,
in the dossier of the side's next phase. A side-mate's readiness (ruling FLOW-3) edits the
dossier of the player still at their orders."""

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
    a_turn = [len(messages) for turn in story.sent for messages in turn.values()]
    # A turn's news and results: three messages a player, one a phase (the median).
    assert statistics.median(a_turn) <= 3, a_turn
    dms = {u.id: fake.dms_to(u) for u in story.everyone}
    assert all(within_limits(m) for sent in dms.values() for m in sent)
    # A side-mate's readiness (ruling FLOW-3) is no message of its own: it edits the orders
    # message of the player still at their orders, which then ends with it.
    union, mate = ([text_of(m) for m in dms[u.id]] for u in story.players["union"])
    assert not any(t.startswith(READY) for t in union + mate)
    edited = [t for t in union + mate if f"\n\n{READY}" in t]
    assert edited and all(t.rpartition("\n\n")[0].endswith("/done.") for t in edited)
    # The story fights: the Union hears of the Confederate fire on its units, each time in one
    # message that also calls for its orders.
    hit = [t for t in union if "**Under fire**" in t or "**Assaulted**" in t]
    assert hit and all("Your orders, please" in t for t in hit)
    # Side-mates read the same dossiers (but for the readiness note at the end).
    assert [without_note(t) for t in union if "Your orders, please" in t] == [
        without_note(t) for t in mate if "Your orders, please" in t]


def without_note(text: str) -> str:
    return text.partition(f"\n\n{READY}")[0]
