"""Pacing (``VEDETTE_SEND_PACE``, ``bot.pacing``): each message reaches Discord no sooner than the
pace after the command that queued it, plus its audience's slot (the channel first, then the
host, then the players in the order they took their seats), and no sooner than the pace after
Discord answered the message before it in the same channel, whatever work the bot had to do for
it or for anyone else meanwhile (ruling INFO-13). Sleeping never ends early, so these lower
bounds hold on any machine; without the pacing the messages come within milliseconds, and the
test fails."""

from __future__ import annotations

import itertools
import time
from collections import defaultdict
from pathlib import Path

from bot.pacing import SLOT
from rules import commands as cmd
from tests.fakediscord import FakeDiscord, RecordedRequest
from tests.support.botkit import FIXTURES, TOKEN, started_game

PACE = 0.4


def tiny(tmp_path: Path) -> Path:
    text = (FIXTURES / "tiny.toml").read_text(encoding="utf-8").replace(
        'ruleset = "tiny.ruleset.toml"', f'ruleset = "{FIXTURES / "tiny.ruleset.toml"}"')
    path = tmp_path / "tiny.toml"
    path.write_text(text, encoding="utf-8")
    return path


def posts_and_edits(requests: list[RecordedRequest]) -> dict[str, list[RecordedRequest]]:
    """The messages posted or edited, by channel, in the order they reached Discord."""
    found: dict[str, list[RecordedRequest]] = defaultdict(list)
    for r in requests:
        if r.matches("POST", "/channels/*/messages") or r.matches("PATCH",
                                                                   "/channels/*/messages/*"):
            found[r.path.split("/")[2]].append(r)
    return found


async def test_each_message_waits_its_pace_from_the_command_and_from_the_one_before(
        tmp_path: Path) -> None:
    async with FakeDiscord(token=TOKEN, latency=0.05) as fake, \
            started_game(fake, tmp_path, tiny(tmp_path), ("blue", "grey"),
                         channel=True) as (bot, alice, bob):
        await bot.outbox.idle()  # the start's messages, unpaced
        bot.outbox.pace = PACE
        players = {"blue": alice, "grey": bob}
        before = len(fake.requests)
        done_at = time.monotonic()
        for side in (await bot.umpire.repository.state_for("g1")).acting_sides():
            await bot.umpire.handle("g1", players[side].id, cmd.Done())
        bot.outbox.kick("g1")
        await bot.outbox.idle()
        channels = posts_and_edits(fake.requests[before:])
        assert len(channels) >= 2  # the channel, and at least one player's DMs
        assert sum(len(sent) for sent in channels.values()) >= 3
        # Slots: the channel 0, the host 1, alice (seated first) 2, bob 3.
        slots = {str(fake.dm_channel(alice).id): 2, str(fake.dm_channel(bob).id): 3}
        for channel, sent in channels.items():
            slot = slots.get(channel, 0)
            assert sent[0].received >= done_at + PACE + slot * SLOT
            for earlier, later in itertools.pairwise(sent):
                assert later.received >= earlier.answered + PACE
