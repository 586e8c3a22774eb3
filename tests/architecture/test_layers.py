"""The layers import only what DESIGN.md allows, read from the source itself."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FORBIDDEN: dict[str, set[str]] = {
    "rules": {"storage", "render", "umpire", "bot", "discord", "aiosqlite", "PIL", "asyncio",
              "sqlite3", "socket", "aiohttp"},
    "storage": {"umpire", "bot", "render", "discord", "PIL"},
    "render": {"storage", "umpire", "bot", "discord", "aiosqlite"},
    "umpire": {"bot", "discord"},
    # The bot reaches games, seats, pending orders and the outbox through the umpire only.
    "bot": {"storage", "aiosqlite", "sqlite3"},
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_only_what_it_may(layer: str) -> None:
    files = sorted((ROOT / layer).rglob("*.py"))
    assert files, f"{layer}/ has no modules"
    breaches = [
        f"{f.relative_to(ROOT)} imports {name}"
        for f in files
        for name in sorted(imported_roots(f) & FORBIDDEN[layer])
    ]
    assert breaches == []


def test_render_sees_no_full_state() -> None:
    """The renderer draws views; it must not import the state module or the engine."""
    for f in (ROOT / "render").rglob("*.py"):
        source = f.read_text(encoding="utf-8")
        assert "rules.state" not in source and "rules.engine" not in source, f


def test_the_checker_catches_a_breach(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import asyncio\nfrom storage.store import Store\n", encoding="utf-8")
    assert imported_roots(bad) & FORBIDDEN["rules"] == {"asyncio", "storage"}


# -- sub-layers ------------------------------------------------------------------------------
#: Within a layer, folders that must not reach for others: (the folder or module, what it may
#: not import, why).
SUB_LAYERS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("rules/knowledge", ("rules.engine", "rules.orders"),
     "what a side knows is read off the state; it never decides an order"),
    ("rules/view.py", ("rules.engine", "rules.orders"),
     "the one door to a player's view decides nothing"),
    ("umpire/words", ("storage.store",),
     "words are written from views, never read from the database"),
)


def imported_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def reaches(name: str, forbidden: tuple[str, ...]) -> bool:
    return any(name == f or name.startswith(f + ".") for f in forbidden)


@pytest.mark.parametrize(("where", "forbidden", "why"), SUB_LAYERS,
                         ids=[s[0] for s in SUB_LAYERS])
def test_sub_layer_imports_only_what_it_may(where: str, forbidden: tuple[str, ...],
                                            why: str) -> None:
    place = ROOT / where
    files = sorted(place.rglob("*.py")) if place.is_dir() else [place]
    assert files, where
    breaches = [f"{f.relative_to(ROOT)} imports {name} ({why})" for f in files
                for name in sorted(imported_names(f)) if reaches(name, forbidden)]
    assert breaches == []


def test_the_sub_layer_check_catches_a_breach(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from rules.orders.movement import plan\nfrom rules import engine\n",
                   encoding="utf-8")
    found = {n for n in imported_names(bad) if reaches(n, ("rules.engine", "rules.orders"))}
    assert found == {"rules.orders.movement", "rules.orders.movement.plan", "rules.engine"}
