"""The non-interference harness's scenarios: a game made in variants that differ only in
hidden enemy state, under each information model."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rules import commands as cmd
from rules.knowledge.information import InformationModel
from tests.support.botkit import FIXTURES

HOST, BLUE, GREY = 1, 10, 20

SEED = bytes(range(32))

#: A Grey cavalry picket in plain sight of General Azure: what Blue's troops do see of Grey.
SCOUTS = """
[[units]]
id = "grey-scouts"
side = "grey"
name = "Grey Scouts"
kind = "cavalry"
strength = 3
at = "A0604"
"""

@dataclass(frozen=True)
class Variant:
    """One game: the scenario's text edited by ``edits`` (old, new), and Grey's orders in its
    first movement phase."""

    edits: tuple[tuple[str, str], ...] = ()
    grey_orders: tuple[cmd.Command, ...] = ()
    extra: str = ""
    unseen: tuple[str, ...] = ()  # Grey units that must stay out of Blue's sight throughout

def scenario(tmp_path: Path, name: str, model: InformationModel, variant: Variant) -> Path:
    text = (FIXTURES / "tiny.toml").read_text(encoding="utf-8")
    text = text.replace('ruleset = "tiny.ruleset.toml"',
                        f'ruleset = "{FIXTURES / "tiny.ruleset.toml"}"')
    text = text.replace('information = "open"', f'information = "{model}"')
    for old, new in variant.edits:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / f"{name}.toml"
    path.write_text(text + SCOUTS + variant.extra, encoding="utf-8")
    return path
