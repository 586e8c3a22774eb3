"""The test suite's own rules: a test lives in the folder of what it specifies, helpers live in
``tests/support``, no test imports another test file, and a fixture reaches a test through a
``conftest.py`` or a support plugin, never through an import."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
#: Folders of tests that hold modules other than tests: helpers, started programs, the fake.
HELPERS = {"support", "processes", "fakediscord"}


def python_files() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts)


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def imports_a_test_module(path: Path) -> list[str]:
    return sorted(m for m in imported_modules(path)
                  if m.startswith("tests.") and m.rpartition(".")[2].startswith("test_"))


def test_no_test_file_is_imported_by_another() -> None:
    files = python_files()
    assert len(files) > 150
    assert {f: imports_a_test_module(f) for f in files if imports_a_test_module(f)} == {}


def test_nothing_imports_a_conftest() -> None:
    """A ``conftest.py`` holds fixtures; what tests import lives in ``tests/support``."""
    found = {f: sorted(m for m in imported_modules(f) if m.split(".")[-1] == "conftest"
                       or ".conftest." in m) for f in python_files()}
    assert {f: ms for f, ms in found.items() if ms} == {}


def test_no_fixture_is_imported() -> None:
    """An imported fixture needs a ``noqa`` or an ``__all__`` to survive the linter, and hides
    where it comes from: fixtures come from a ``conftest.py`` or a plugin it names."""
    # The needles are put together here so that this file does not find itself.
    needles = ("noqa: " + "F401", "noqa: " + "F811")
    for path in python_files():
        text = path.read_text(encoding="utf-8")
        assert not any(n in text for n in needles), path
        if path.name.startswith("test_") and path != Path(__file__).resolve():
            assert "__all__" not in text, path


def test_every_test_lives_in_a_folder_of_what_it_specifies() -> None:
    for path in python_files():
        where = path.relative_to(TESTS).parts
        if path.name.startswith("test_"):
            assert len(where) >= 2 and where[0] not in HELPERS, path
        elif path.name not in ("__init__.py", "conftest.py"):
            assert where[0] in HELPERS, f"{path}: a helper outside tests/support"


def test_the_import_check_finds_a_test_module(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from tests.bot.test_bot import x\nimport tests.umpire.test_ready\n")
    assert imports_a_test_module(bad) == ["tests.bot.test_bot", "tests.umpire.test_ready"]
