"""Finding scenario files and loading them with their rulesets."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path

from rules.loader import LoadedScenario, load, parse_model
from rules.problems import FileProblems, Problem
from rules.scenario import Scenario

SHIPPED = Path(__file__).resolve().parent.parent / "scenarios"


def scenario_files(extra: Path | None = None) -> list[Path]:
    """Every scenario file shipped with Vedette or in the host's extra folder (rulesets, named
    ``*.ruleset.toml``, are not scenarios)."""
    folders = [SHIPPED] + ([extra] if extra else [])
    out: list[Path] = []
    for folder in folders:
        if folder.is_dir():
            out += sorted(p for p in folder.glob("*.toml") if not p.name.endswith(".ruleset.toml"))
    return out


def find(name: str, extra: Path | None = None) -> Path:
    """A scenario by path, file name or scenario id (for trusted callers: the command line and
    tests). Members of a server choose with :func:`find_named`, which never takes a path."""
    p = Path(name)
    if p.suffix == ".toml" and p.is_file():
        return p
    return find_named(name, extra)


def find_named(name: str, extra: Path | None = None) -> Path:
    """A catalog scenario (shipped, or in the host's folder) by its name, with or without
    ``.toml``. Anything else, a path included, gets the same answer listing the catalog's names,
    whether or not such a file exists somewhere: the answer tells nothing about the machine."""
    files = scenario_files(extra)
    for f in files:
        if name in (f.stem, f.name):
            return f
    known = ", ".join(dict.fromkeys(f.stem for f in files)) or "none"
    raise FileNotFoundError(f"there is no such scenario; choose one of: {known}")


def without_folders(problem: Problem) -> Problem:
    """The problem naming its file without the folders it sits in (for messages to players)."""
    return dataclasses.replace(problem, file=Path(problem.file).name)


#: The last load of each scenario file, with the modification times of it and its ruleset.
_CACHE: dict[Path, tuple[int | None, Path, int | None, LoadedScenario]] = {}


def load_file(path: Path) -> LoadedScenario:
    """Load and check a scenario file and the ruleset it names; raises ``FileProblems``.

    A file loaded before is not read again while neither it nor its ruleset has changed (the
    bot's autocomplete asks for the scenario at every keystroke)."""
    path = path.resolve()
    cached = _CACHE.get(path)
    if cached is not None:
        mtime, ruleset_path, ruleset_mtime, loaded = cached
        if _mtime(path) == mtime and _mtime(ruleset_path) == ruleset_mtime:
            return loaded
    # The times are taken before the reads: an edit made meanwhile is seen at the next load.
    mtime = _mtime(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        problem = Problem(str(path), "(file)", f"cannot be read: {e.strerror}")
        raise FileProblems([problem]) from None
    ruleset_name = _ruleset_name(text)
    if ruleset_name is None:
        # Report the missing field together with anything else wrong in the scenario.
        parse_model(Scenario, text, str(path))
        raise FileProblems([Problem(str(path), "scenario.ruleset", "required field is missing")])
    ruleset_path = (path.parent / ruleset_name).resolve()
    ruleset_mtime = _mtime(ruleset_path)
    try:
        ruleset_text = ruleset_path.read_text(encoding="utf-8")
    except OSError:
        problem = Problem(str(path), "scenario.ruleset",
                          f"ruleset file {ruleset_name!r} not found next to it")
        raise FileProblems([problem]) from None
    loaded = load(text, str(path), ruleset_text, str(ruleset_path))
    _CACHE[path] = (mtime, ruleset_path, ruleset_mtime, loaded)
    return loaded


def _mtime(path: Path) -> int | None:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


def _ruleset_name(text: str) -> str | None:
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    header = data.get("scenario")
    name = header.get("ruleset") if isinstance(header, dict) else None
    return name if isinstance(name, str) else None


def with_options(loaded: LoadedScenario, options: Mapping[str, str | int | bool]
                 ) -> LoadedScenario:
    """The scenario with the game options chosen when the game was created laid over its own
    ``[scenario] options`` (for example ``surprise_collision``)."""
    if not options:
        return loaded
    header = loaded.scenario.scenario
    merged = {**header.options, **options}
    scenario = loaded.scenario.model_copy(
        update={"scenario": header.model_copy(update={"options": merged})})
    return dataclasses.replace(loaded, scenario=scenario)
