"""The house, held by tests: every folder of code is a contract (its ``__init__`` docstring says
what belongs there), no folder grows past what a newcomer can take in at a glance, and the
sub-layers keep to their rules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("rules", "storage", "render", "umpire", "bot", "tests")
#: Folders that hold data, not code: they are not packages and need no docstring.
DATA = {"fixtures", "reference_images", "fonts", "__pycache__"}
#: The most entries (modules and folders, ``__init__.py`` aside) a folder of code may hold.
MOST_ENTRIES = 20


def code_folders() -> list[Path]:
    found = []
    for layer in LAYERS:
        for folder in [ROOT / layer, *sorted((ROOT / layer).rglob("*"))]:
            if folder.is_dir() and not DATA & set(folder.relative_to(ROOT).parts):
                found.append(folder)
    return found


def entries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()
                  if p.name not in DATA and p.name != "__init__.py"
                  and (p.is_dir() or p.suffix == ".py"))


def test_the_folders_are_found() -> None:
    names = {f.relative_to(ROOT).as_posix() for f in code_folders()}
    assert {"rules/knowledge", "umpire/words", "bot/cogs", "tests/support",
            "tests/secrecy"} <= names


@pytest.mark.parametrize("folder", code_folders(), ids=lambda f: f.relative_to(ROOT).as_posix())
def test_no_folder_holds_more_than_a_glance_takes_in(folder: Path) -> None:
    assert len(entries(folder)) <= MOST_ENTRIES, entries(folder)


@pytest.mark.parametrize("folder", code_folders(), ids=lambda f: f.relative_to(ROOT).as_posix())
def test_every_folder_says_what_belongs_in_it(folder: Path) -> None:
    init = folder / "__init__.py"
    assert init.exists(), f"{folder.relative_to(ROOT)} is not a package"
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
    assert doc and len(doc.split()) >= 8 and "TODO" not in doc, init.relative_to(ROOT)


def test_the_size_check_counts_modules_and_folders(tmp_path: Path) -> None:
    for n in range(MOST_ENTRIES + 1):
        (tmp_path / f"m{n}.py").write_text("")
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "notes.txt").write_text("")
    assert len(entries(tmp_path)) == MOST_ENTRIES + 1
