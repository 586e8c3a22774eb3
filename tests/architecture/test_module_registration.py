"""A rule module brings its own front end: its package under ``rules/``, its reads in
``umpire/modules/<name>.py``, its cog in ``bot/cogs/<name>.py``, and one line in each registry
(``rules.modules.catalog.SPECS``, ``rules.modules.built``, ``bot.client.EXTENSIONS``). No other
file imports from those, save the crossings listed here with their reasons, which are to shrink;
and the extensions list loads every cog."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from bot.client import EXTENSIONS, VedetteBot
from rules.modules.catalog import SPECS
from rules.modules.spec import ModuleSpec

ROOT = Path(__file__).resolve().parents[2]

#: The registries: they name every module.
REGISTRIES = {"rules/modules/catalog.py", "rules/modules/built.py"}

#: Imports of a module's packages from files not its own, still to be moved, by file: the
#: module packages each imports, and why it still does.
KNOWN_CROSSINGS: dict[str, set[str]] = {
    # One rule text using another's rules (not the front end): a concealed force's forced
    # march rolls the combat straggler check on the surprise move's band column, its opportunity
    # fire and charge are the combat module's; combat reads the Chancellorsville cavalry rules.
    "rules/combat/conditions.py": {"chancellorsville"},
    "rules/concealed/marching.py": {"combat", "surprise"},
    "rules/concealed/reveal/opportunity.py": {"combat"},
    # The ruleset file's reader parses the Chancellorsville cavalry table and the combat rules'
    # section; a module's ruleset sections would need a hook of their own.
    "rules/scenario/ruleset.py": {"chancellorsville", "combat"},
    # The scenario checker's warnings about the combat rules' tables.
    "umpire/cli/main.py": {"combat"},
    # Fire and assault autocomplete (``Umpire.fighter_choices``, ``target_choices``).
    "umpire/reads/naming.py": {"combat"},
    # The pending surprise-move order is a kind of pending order the store keeps.
    "umpire/reads/pending.py": {"surprise"},
    # The words for concealment markers on a side's map and lists.
    "umpire/words/markers.py": {"concealed"},
    # The after-action report says the victory die roll.
    "umpire/words/after_action.py": {"chancellorsville"},
    # The demos play each module's orders.
    "umpire/demo/main.py": {"surprise"},
    "umpire/demo/concealed.py": {"concealed"},
    "umpire/demo/chancellorsville.py": {"combat"},
    "umpire/demo/combat.py": {"combat"},
}

#: The cogs of the core (any other cog is a rule module's, named as its package).
CORE_COGS = {"game", "orders", "info", "host", "help", "settings"}


def module_packages() -> dict[str, tuple[ModuleSpec, ...]]:
    """The packages under ``rules/`` that declare rule modules (a ``spec.py`` holding specs
    of the catalog), with the specs each declares."""
    out: dict[str, tuple[ModuleSpec, ...]] = {}
    for spec_file in sorted(ROOT.glob("rules/*/spec.py")):
        package = spec_file.parent.name
        declared = vars(importlib.import_module(f"rules.{package}.spec")).values()
        specs = tuple(s for s in SPECS if any(value is s for value in declared))
        if specs:
            out[package] = specs
    return out


def imported_packages(path: Path, packages: set[str]) -> set[str]:
    """The module packages a file imports from (``rules.<p>``, ``umpire.modules.<p>``,
    ``bot.cogs.<p>``), at run time or not."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
            names += [f"{node.module}.{alias.name}" for alias in node.names]
    found: set[str] = set()
    for name in names:
        parts = name.split(".")
        for prefix in (("rules",), ("umpire", "modules"), ("bot", "cogs")):
            n = len(prefix)
            if tuple(parts[:n]) == prefix and len(parts) > n and parts[n] in packages:
                found.add(parts[n])
    return found


def own_files(package: str) -> set[str]:
    return {f"bot/cogs/{package}.py", f"umpire/modules/{package}.py"}


def crossings() -> dict[str, set[str]]:
    packages = set(module_packages())
    out: dict[str, set[str]] = {}
    for layer in ("rules", "umpire", "bot"):
        for path in sorted((ROOT / layer).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in REGISTRIES:
                continue
            owner = rel.split("/")[1] if rel.startswith("rules/") else None
            foreign = {p for p in imported_packages(path, packages)
                       if p != owner and rel not in own_files(p)}
            if foreign:
                out[rel] = foreign
    return out


def test_every_catalogued_module_has_a_package() -> None:
    packages = module_packages()
    declared = [s.name for specs in packages.values() for s in specs]
    assert sorted(declared) == sorted(s.name for s in SPECS)


def test_only_a_modules_own_files_import_its_packages() -> None:
    assert crossings() == KNOWN_CROSSINGS


def test_a_cog_is_the_cores_or_named_as_a_module_package() -> None:
    packages = set(module_packages())
    cogs = {p.stem for p in (ROOT / "bot" / "cogs").glob("*.py") if p.stem != "__init__"}
    assert cogs - CORE_COGS <= packages
    reads = {p.stem for p in (ROOT / "umpire" / "modules").glob("*.py") if p.stem != "__init__"}
    assert reads <= packages


def test_the_extensions_are_every_cog() -> None:
    cogs = {f"bot.cogs.{p.stem}" for p in (ROOT / "bot" / "cogs").glob("*.py")
            if p.stem != "__init__"}
    assert set(EXTENSIONS) == cogs
    assert len(EXTENSIONS) == len(set(EXTENSIONS))


async def test_the_extensions_load_every_cog_and_its_buttons() -> None:
    bot = VedetteBot(umpire=None, sync_commands=False)  # type: ignore[arg-type]
    try:
        await bot.setup_hook()
        assert list(bot.extensions) == list(EXTENSIONS)
        loaded = {cog.__module__ for cog in bot.cogs.values()}
        assert loaded == set(EXTENSIONS)
        top = {c.name for c in bot.tree.get_commands()}
        assert {"game", "march", "conceal", "fire", "assault", "rally", "help"} <= top
        buttons = {p.pattern.split(":")[1]
                   for p in bot._connection._view_store._dynamic_items}
        # The core's (moves, inbox, done, replay), the info cog's (units pages), the
        # surprise cog's (order previews, detours).
        assert {"move", "inbox", "done", "order", "march"} <= buttons
    finally:
        for name in list(bot.extensions):
            await bot.unload_extension(name)
