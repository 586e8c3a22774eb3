"""Every message of the sample games, read as its players receive it: the flank-march story
(two players a side) and each of ``SAMPLES`` (one a side), played through the bot against the
fake Discord and then ended by the host. What the players were sent (direct messages as
Discord shows them), everything the game queued (the channel's posts: the victory, the
after-action report and its file of rolls) and each player's ``/log``, before and after the end,
must read as English:

* no word doubled ("the the", "in in") and no "End of the End";
* no unit or command given by its id where it has a name ("close combat by fitz-lee");
* no result echoed by its own meaning ("**DRAW** (draw)");
* every roll read on a table says what its result means ("**I** (initiative taken: ...)");
* every roll read on no table says what came of it ("4 on 1d6: marker 7431 keeps the force,
  ...").
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest

from rules.state import GameState
from storage.store import Store
from tests.fakediscord import FakeDiscord
from tests.support.botkit import SAMPLES, TOKEN, Story, play_sample, play_story, text_of
from umpire.reads.maps import MapMaker
from umpire.service import Umpire
from umpire.words import after_action

pytestmark = pytest.mark.slow  # each sample is a whole scripted game through the bot

GAME = "g1"
FLANK_MARCH = "flank-march"

#: A word written twice running, whatever its case ("the the", "In in").
DOUBLED = re.compile(r"\b([A-Za-z]+)\s+\1\b", re.IGNORECASE)
#: A phase that already names an end, given an end of its own.
END_OF_END = re.compile(r"\bEnd of the End\b", re.IGNORECASE)
#: A result followed by itself as its meaning ("**DRAW** (draw)").
ECHO = re.compile(r"\*\*([^*]+)\*\*\s*\(\1\)", re.IGNORECASE)
#: A roll's result read on a table, in bold as the messages give it ("on 2d6 ...; initiative
#: table, column 10-12: **I**", "roll 4: **DR**"), or plain as the after-action report's list
#: of rolls does ("on 2d6 ...; initiative column 10-12: I"): what follows must be its meaning.
ROLL_READS = (re.compile(r"(?:\broll \d+|\bon \d+d\d+)[^*]*?: \*\*[^*]+\*\*(?P<after>.*)$"),
              re.compile(r"\bon \d+d\d+[^:*]*?; [\w ]+ column [^:]+: [^\s*]+(?P<after>.*)$"))

#: A roll's value on its dice ("4 on 1d6"), wherever a line gives one: what follows it.
ROLL_VALUE = re.compile(r"\b\d+ on \d+d\d+(?P<after>.*)$")
#: What follows a roll's value when the line says what came of it: its modifiers, if any, then
#: the table read ("; initiative table ...") or the outcome (": marker 7431 keeps the force").
SAID = re.compile(r"(?: \((?!game `)[^)]+\))?(?:; |: )\S")

#: What a result means, in brackets after it (not the roll's number among the side's, which
#: a side's roll ends with).
MEANING = re.compile(r" \((?!game `)[^)]+\)")


@dataclass(frozen=True)
class Played:
    """What a sample's players read, one text a message, and the final state (for its ids)."""

    texts: tuple[str, ...]
    state: GameState


async def _play(folder: Path, sample: str) -> Played:
    async with FakeDiscord(token=TOKEN, callback_deadline=3.0) as fake:
        story: Story = (await play_story(fake, folder) if sample == FLANK_MARCH
                        else await play_sample(fake, folder, sample))
        texts = [text_of(m) for u in story.everyone for m in fake.dms_to(u)]
    host = story.players["union"][0].id
    async with Store.open(folder / "vedette.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        texts += [(await umpire.log_text(GAME, u.id)).text for u in story.everyone]
        if (await umpire.repository.state_for(GAME)).status != "ended":
            await umpire.end_game(GAME, host, reason="The scripted turns are over.")
        texts += [(await umpire.log_text(GAME, u.id)).text for u in story.everyone]
        state = await umpire.repository.state_for(GAME)
        # The after-action report's file of rolls, as attached (a sent file is not kept).
        texts.append("\n".join(after_action.roll_lines(state, await store.events(GAME))))
    texts += _queued(folder / "vedette.db")
    return Played(tuple(t for t in texts if t), state)


def _queued(database: Path) -> list[str]:
    """Every message the game queued, whoever it went to, with any text file attached (the
    after-action report's rolls)."""
    with sqlite3.connect(database) as conn:
        rows = conn.execute("SELECT text, image, image_name FROM deliveries ORDER BY id").fetchall()
    out = []
    for text, image, name in rows:
        out.append(text or "")
        if image is not None and str(name or "").endswith(".txt"):
            out.append(bytes(image).decode("utf-8"))
    return out


@pytest.fixture(params=(FLANK_MARCH, *SAMPLES))
def played(request: pytest.FixtureRequest) -> Played:
    """One play of a sample, ended by the host (in its own event loop, the fake Discord's)."""
    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(_play(Path(folder), str(request.param)))


def _lines(texts: Iterable[str]) -> list[str]:
    return [line for text in texts for line in text.splitlines() if line.strip()]


def raw_ids(state: GameState) -> set[str]:
    """The ids of the scenario's units and commands that are not their names: none of them
    may stand as a word of its own in a message (a hyphen is part of the word)."""
    scenario = state.loaded.scenario
    named = [(u.id, u.name) for u in scenario.units] + [(c.id, c.name) for c in scenario.commands]
    return {uid for uid, name in named if uid != name}


def doubled_words(lines: list[str]) -> list[str]:
    return [line for line in lines if DOUBLED.search(line) or END_OF_END.search(line)]


def ids_shown(lines: list[str], ids: set[str]) -> list[tuple[str, str]]:
    words = re.compile(r"(?<![\w-])[A-Za-z0-9][\w.-]*(?<![.-])(?![\w-])")
    return [(w, line) for line in lines for w in words.findall(line) if w in ids]


def echoed_results(lines: list[str]) -> list[str]:
    return [line for line in lines if ECHO.search(line)]


def roll_reads(lines: list[str]) -> list[tuple[str, str]]:
    """Each roll read on a table: its line, and what follows its result there."""
    return [(line, found["after"]) for line in lines for pattern in ROLL_READS
            if (found := pattern.search(line)) is not None]


def silent_rolls(lines: list[str]) -> list[str]:
    """Roll lines whose result is not followed by what it means."""
    return [line for line, after in roll_reads(lines) if not MEANING.match(after)]


def unsaid_outcomes(lines: list[str]) -> list[str]:
    """Roll lines that give a roll's value and nothing of what came of it: neither a table
    read nor an outcome after it."""
    return [line for line in lines
            if (found := ROLL_VALUE.search(line)) is not None and not SAID.match(found["after"])]


def test_every_message_of_the_sample_reads_as_english(played: Played) -> None:
    """One test a sample, each play read once (a play takes several seconds)."""
    lines = _lines(played.texts)
    ids = raw_ids(played.state)
    # What is read is a whole game, its ids and its rolls: the checks below can fail.
    assert len(lines) > 50 and ids
    assert roll_reads(lines)
    found = {"doubled words": doubled_words(lines),
             "ids for names": ids_shown(lines, ids),
             "results echoed": echoed_results(lines),
             "rolls without their meaning": silent_rolls(lines),
             "rolls without their outcome": unsaid_outcomes(lines)}
    assert found == {kind: [] for kind in found}
