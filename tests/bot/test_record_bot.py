"""Through the fake Discord: ``/host correct`` is announced in the game's channel, and ``/game
end`` posts the game record there as a file that ``vedette verify --record`` checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import VedetteBot
from tests.support.botkit import Table, public, say, set_up, settle
from umpire.verify.check import verify_record
from umpire.verify.record import file_name


async def test_corrections_are_public_and_the_record_is_posted_at_the_end(
        table: Table, bot: VedetteBot, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    gid = await set_up(table, bot)
    # alice hosts and plays blue: she corrects her own side's units (ruling ORD-40).
    correction = {"unit": "blue-1", "field": "strength", "value": "4", "reason": "misread"}
    assert "in play" in await say(table, "host correct", table.alice, correction,
                                  channel=table.channel)
    assert "started" in await say(table, "game start", table.alice, channel=table.channel)
    await settle(bot)
    assert "Done" in await say(table, "host correct", table.alice, correction)  # from a DM
    await settle(bot)
    [announced] = [t for t in public(table) if "**Correction**" in t]
    assert f"<@{table.alice.id}> corrected a unit of Blue Army" in announced
    assert "1st Brigade" not in announced and "misread" not in announced

    assert "over" in await say(table, "game end", table.alice, channel=table.channel)
    await settle(bot)
    [posted] = [m for m in table.fake.messages_in(table.channel)
                if any(a["filename"] == file_name(gid) for a in m["attachments"])]
    assert "1st Brigade: strength 4 (misread)" in posted["content"]
    [attachment] = posted["attachments"]
    assert not posted["embeds"]  # a file, not a picture
    record = tmp_path / file_name(gid)
    record.write_bytes(table.fake.world.blobs[int(attachment["id"])].data)
    assert verify_record(record) == 0
    assert "1st Brigade: strength 4 (misread)" in capsys.readouterr().out
    after = await say(table, "host correct", table.alice, {**correction, "game": gid},
                      channel=table.channel)
    assert "in play" in after or "not in a game" in after
    assert (await bot.umpire.repository.state_for(gid)).units["blue-1"].strength == 4
