"""Finding scenario files and loading them with their rulesets."""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from rules.scenario.loader import LoadedScenario, decode, load, parse_model
from rules.scenario.models import Scenario
from rules.scenario.nesting import TooDeep, loads_toml
from rules.scenario.problems import FileProblems, Problem
from rules.scenario.ruleset import Ruleset
from storage.records import GameSources

log = logging.getLogger("vedette.catalog")

SHIPPED = Path(__file__).resolve().parents[2] / "scenarios"


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
    text = _read(path)
    ruleset_name = _ruleset_name(text)
    if ruleset_name is None:
        # Report the missing field together with anything else wrong in the scenario.
        parse_model(Scenario, text, str(path))
        raise FileProblems([Problem(str(path), "scenario.ruleset", "required field is missing")])
    ruleset_path = (path.parent / ruleset_name).resolve()
    ruleset_mtime = _mtime(ruleset_path)
    try:
        ruleset_bytes = ruleset_path.read_bytes()
    except OSError:
        problem = Problem(str(path), "scenario.ruleset",
                          f"ruleset file {ruleset_name!r} not found next to it")
        raise FileProblems([problem]) from None
    ruleset_text = decode(ruleset_bytes, str(ruleset_path))
    loaded = load(text, str(path), ruleset_text, str(ruleset_path))
    _CACHE[path] = (mtime, ruleset_path, ruleset_mtime, loaded)
    return loaded


def load_ruleset_file(path: Path) -> Ruleset:
    """Load and check a ruleset file on its own; raises ``FileProblems`` naming the file and
    every bad field. (What a ruleset must hold for a scenario's modules is checked with the
    scenario.)"""
    return parse_model(Ruleset, _read(path), str(path))


def _read(path: Path) -> str:
    """A scenario or ruleset file's text; ``FileProblems`` if it cannot be read or is not
    UTF-8."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise FileProblems([Problem(str(path), "(file)", f"cannot be read: {e.strerror}")]
                           ) from None
    return decode(data, str(path))


@dataclass(frozen=True, slots=True)
class Entry:
    """A catalog scenario as the list to choose from shows it: its name and its title."""

    name: str
    title: str


#: Each listed file's entry (``None``: left out), by path and modification time.
_ENTRIES: dict[tuple[Path, int | None], Entry | None] = {}


def listing(extra: Path | None = None) -> list[Entry]:
    """The catalog's scenarios, each with the title in its header (the file name when the header
    cannot be read). A file that is not UTF-8 text, or that nests too deeply to be read
    (:data:`rules.scenario.nesting.MAX_NESTING`), is left out, with one log line, and never keeps
    the others from being listed."""
    out: list[Entry] = []
    for path in scenario_files(extra):
        key = (path, _mtime(path))
        if key not in _ENTRIES:
            _ENTRIES[key] = _entry(path)
        entry = _ENTRIES[key]
        if entry is not None:
            out.append(entry)
    return out


def _entry(path: Path) -> Entry | None:
    try:
        text = _read(path)
    except FileProblems as e:
        log.warning("scenario %s is left out of the list: %s", path, e.problems[0].message)
        return None
    try:
        header = loads_toml(text).get("scenario", {})
    except tomllib.TOMLDecodeError:
        header = {}
    except TooDeep as e:
        log.warning("scenario %s is left out of the list: %s", path, e)
        return None
    title = header.get("title") if isinstance(header, dict) else None
    return Entry(path.stem, str(title or path.stem))


def read_sources(path: Path) -> GameSources:
    """The texts of a scenario file and of the ruleset it names, as a game is pinned to them
    (with their SHA-256); raises ``FileProblems`` when either cannot be read."""
    path = path.resolve()
    scenario_text = _read_source(path, str(path), "(file)", "cannot be read")
    ruleset_name = _ruleset_name(scenario_text)
    if ruleset_name is None:
        parse_model(Scenario, scenario_text, str(path))
        raise FileProblems([Problem(str(path), "scenario.ruleset", "required field is missing")])
    ruleset_path = (path.parent / ruleset_name).resolve()
    ruleset_text = _read_source(ruleset_path, str(path), "scenario.ruleset",
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


def _read_source(path: Path, file: str, field: str, why: str) -> str:
    """A file's text to pin a game to; problems name ``file`` and ``field``."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise FileProblems([Problem(file, field, f"{why}: {e.strerror}")]) from None
    return decode(data, str(path))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _mtime(path: Path) -> int | None:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return None


def _ruleset_name(text: str) -> str | None:
    """The ruleset a scenario names; ``None`` when its text cannot be read (the caller then
    reports why, with ``parse_model``)."""
    try:
        data = loads_toml(text)
    except (tomllib.TOMLDecodeError, TooDeep):
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
