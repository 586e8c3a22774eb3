"""What the host and the create post read of a game's options: words, never Python data."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.knowledge.public import ANNOUNCE_FINISHED
from umpire.games import catalog
from umpire.games import options as game_options

TINY = Path(__file__).parents[1] / "fixtures" / "tiny.toml"


def test_an_option_without_words_of_its_own_reads_as_a_name_and_a_value(
        monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = catalog.load_sources(catalog.read_sources(TINY))
    said = game_options.announcement(loaded, (), {ANNOUNCE_FINISHED: True})
    assert said == ("Rule options: each side's finish of a phase played at once is announced "
                    "(chosen by the host).")
    # An option the words table does not know (one added without words) still reads plainly.
    monkeypatch.delitem(game_options.OPTION_WORDS, ANNOUNCE_FINISHED)
    said = game_options.announcement(loaded, (), {ANNOUNCE_FINISHED: True})
    assert said == "Rule options: announce finished: on (chosen by the host)."
    assert "=" not in said and "'" not in said
