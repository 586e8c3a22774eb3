"""The rules package imports as a tree: every module imports on its own, no import cycle hides
behind a late import, and every rule module is declared once and either played or refused."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.modules.built import load_all, require_playable
from rules.modules.catalog import SPECS, RuleNotImplemented
from rules.modules.registry import MODULES

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"


def module_names() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in sorted(RULES.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imported(tree: ast.AST) -> list[tuple[str, list[str]]]:
    """Every import the module runs, wherever it stands (at the top or inside a function: a
    late import still makes the graph); imports only for the type checker are left out, since
    they never run."""
    found: list[tuple[str, list[str]]] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child.test):
                for other in child.orelse:
                    visit_one(other)
                continue
            visit_one(child)

    def visit_one(node: ast.AST) -> None:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            found.extend((a.name, []) for a in node.names)
        visit(node)

    visit(tree)
    return found


def import_graph() -> dict[str, set[str]]:
    """Each rules module and the rules modules importing it runs (a submodule's import runs its
    packages' ``__init__`` too)."""
    names = module_names()
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        deps: set[str] = set()
        for module, members in imported(ast.parse(path.read_text(encoding="utf-8"))):
            for target in (module, *(f"{module}.{m}" for m in members)):
                parts = target.split(".")
                deps |= {".".join(parts[:i]) for i in range(1, len(parts) + 1)
                         if ".".join(parts[:i]) in names}
        graph[name] = {d for d in deps if d != name and not name.startswith(d + ".")}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle (as a path that ends where it starts), or nothing."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> list[str]:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state:
                found = walk(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state:
            found = walk(node)
            if found:
                return found
    return []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) == []


def test_a_late_import_counts_and_a_type_checking_one_does_not() -> None:
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from rules.state import GameState\n"
                     "def f():\n    from rules.engine import decide\n")
    assert imported(tree) == [("typing", ["TYPE_CHECKING"]), ("rules.engine", ["decide"])]


def test_the_rules_import_graph_has_no_cycle() -> None:
    graph = import_graph()
    assert "rules.engine" in graph and "rules.surprise.march.execution" in graph
    assert find_cycle(graph) == []


def test_no_rules_module_imports_by_name_at_run_time() -> None:
    """A module imported from a string is an edge the graph cannot see."""
    users = [str(p.relative_to(ROOT)) for p in RULES.rglob("*.py")
             if "importlib" in p.read_text(encoding="utf-8")
             or "__import__" in p.read_text(encoding="utf-8")]
    assert users == []


CHILD = """
import importlib, json, os, sys, traceback
import pydantic  # the heavy third-party imports, shared by every child

class Warm(pydantic.BaseModel):  # loads pydantic's lazily imported internals once
    x: int = 0
    y: dict[str, list[int]] = {}
names = json.loads(sys.argv[1])
at_once = max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
              else (os.cpu_count() or 1))
failed = {}
running = {}  # pid: (module name, read end of its pipe)

def reap():
    pid, status = os.wait()
    name, read = running.pop(pid)
    message = b""
    while chunk := os.read(read, 65536):
        message += chunk
    os.close(read)
    if status != 0:
        failed[name] = message.decode(errors="replace") or f"exit status {status}"

for name in names:
    while len(running) >= at_once:
        reap()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        for other in running.values():
            os.close(other[1])
        try:
            assert not [m for m in sys.modules if m == "rules" or m.startswith("rules.")]
            importlib.import_module(name)
            code = 0
        except BaseException:
            os.write(write, traceback.format_exc().encode()[-32768:])  # fits the pipe
            code = 1
        os._exit(code)
    os.close(write)
    running[pid] = (name, read)
while running:
    reap()
print(json.dumps(failed))
"""


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="forks a child per module")
def test_each_rules_module_imports_alone() -> None:
    """Each module imported first, in an interpreter where no rules module is loaded yet (a
    child forked before any is), imports without error: no order of imports is needed. (The
    children run a few at a time, one per processor; each is a process of its own.)"""
    names = sorted(module_names())
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(names)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {}


def test_every_declared_module_is_played_or_refused() -> None:
    """A module declared in ``rules.modules.catalog.SPECS`` is either registered with that very
    declaration, or refused at game creation as not implemented; nothing is registered that is
    not declared (test modules, registered by tests themselves, have no spec)."""
    load_all()
    for spec in SPECS:
        module = MODULES.get(spec.name)
        if module is None:
            with pytest.raises(RuleNotImplemented, match="is not implemented yet"):
                require_playable([spec.name])
        else:
            assert module.spec is spec
            assert module.commands == spec.commands and module.actions == spec.actions
    declared = {spec.name for spec in SPECS}
    assert {"combat", "surprise_move", "concealed_forces", "chancellorsville",
            "raid_victory"} <= set(MODULES)
    assert {m for m in MODULES if MODULES[m].spec is not None} <= declared
    with pytest.raises(RuleNotImplemented, match="rule module 'no_such_rules'"):
        require_playable(["combat", "no_such_rules"])
