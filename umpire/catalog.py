"""Finding scenario files and loading them with their rulesets."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from pathlib import Path

from rules.loader import LoadedScenario, load, parse_model
from rules.problems import FileProblems, Problem
from rules.scenario import Scenario
from storage.records import GameSources

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
    """A scenario by path, file name or scenario id."""
    p = Path(name)
    if p.suffix == ".toml" and p.is_file():
        return p
    for f in scenario_files(extra):
        if f.stem == name or f.name == name:
            return f
    known = ", ".join(f.stem for f in scenario_files(extra)) or "none"
    raise FileNotFoundError(f"no scenario called {name!r}; known: {known}")


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


def read_sources(path: Path) -> GameSources:
    """The texts of a scenario file and of the ruleset it names, as a game is pinned to them
    (with their SHA-256); raises ``FileProblems`` when either cannot be read."""
    path = path.resolve()
    scenario_text = _read(path, str(path), "(file)", "cannot be read")
    ruleset_name = _ruleset_name(scenario_text)
    if ruleset_name is None:
        parse_model(Scenario, scenario_text, str(path))
        raise FileProblems([Problem(str(path), "scenario.ruleset", "required field is missing")])
    ruleset_path = (path.parent / ruleset_name).resolve()
    ruleset_text = _read(ruleset_path, str(path), "scenario.ruleset",
                         f"ruleset file {ruleset_name!r} cannot be read next to it")
    return GameSources(path.name, scenario_text, _sha256(scenario_text), ruleset_path.name,
                       ruleset_text, _sha256(ruleset_text))


#: Scenarios loaded from stored texts, by the SHA-256 of both texts (they never change).
_PINNED: dict[tuple[str, str], LoadedScenario] = {}


def load_sources(sources: GameSources) -> LoadedScenario:
    """Load a game's scenario from its stored texts, never from the files; raises
    ``FileProblems`` (a stored text that no longer loads: a newer Vedette checks more) or
    ``ValueError`` (a text that does not match its stored SHA-256)."""
    key = (sources.scenario_sha256, sources.ruleset_sha256)
    cached = _PINNED.get(key)
    if cached is not None:
        return cached
    for text, sha, name in ((sources.scenario_text, sources.scenario_sha256,
                             sources.scenario_name),
                            (sources.ruleset_text, sources.ruleset_sha256, sources.ruleset_name)):
        if _sha256(text) != sha:
            raise ValueError(f"the stored copy of {name} does not match its SHA-256")
    loaded = load(sources.scenario_text, sources.scenario_name, sources.ruleset_text,
                  sources.ruleset_name)
    _PINNED[key] = loaded
    return loaded


def _read(path: Path, file: str, field: str, why: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as e:
        raise FileProblems([Problem(file, field, f"{why}: {e.strerror}")]) from None
    except UnicodeDecodeError:
        raise FileProblems([Problem(file, field, f"{why}: it is not UTF-8 text")]) from None


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


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
