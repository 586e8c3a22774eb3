"""Scenarios where a side has nothing to do in a phase: two forces apart, or in a field."""

from __future__ import annotations

from pathlib import Path

from tests.combat_support import FIELD

FIRE_PASSED = "Fire Phase passed: none of your units has a target in sight."

def field_file(tmp_path: Path, information: str = "open", options: str = "") -> Path:
    """The combat field under ``information``, with ``options`` in its header."""
    text = FIELD.read_text(encoding="utf-8").replace(
        'ruleset = "../../scenarios/', f'ruleset = "{FIELD.parent.parent.parent}/scenarios/')
    text = text.replace('information = "open"', f'information = "{information}"'
                        + (f"\noptions = {{ {options} }}" if options else ""))
    path = tmp_path / f"field-{information}.toml"
    path.write_text(text, encoding="utf-8")
    return path

# -- through the umpire --------------------------------------------------------------------------
def apart_file(tmp_path: Path, options: str = "") -> Path:
    """The field with the two sides' units far apart (nobody has a target), ``options`` in its
    header."""
    text = field_file(tmp_path, options=options).read_text(encoding="utf-8")
    for uid, cell in (("u-inf2", "A0102"), ("u-bat", "A0201"), ("u-cav", "A0202"),
                      ("c-inf", "A1208"), ("c-inf2", "A1207"), ("c-bat", "A1107"),
                      ("c-cav", "A1206")):
        block = text.split(f'id = "{uid}"', 1)
        head, tail = block[1].split('at = "', 1)
        text = block[0] + f'id = "{uid}"' + head + f'at = "{cell}' + tail[5:]
    text = text.replace('at = "A0504"', 'at = "A0101"')
    path = tmp_path / "apart.toml"
    path.write_text(text, encoding="utf-8")
    return path
