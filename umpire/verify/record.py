"""The game record: what anyone needs to check a finished game without the owner's database.

A record holds the game's id, the scenario and ruleset texts it was pinned to (with their
SHA-256), the options chosen at creation, every event of the log with its place (commands in
full among them), and the seed. It is posted as a JSON file in the game's channel when the game
ends; ``vedette verify --record FILE`` re-adjudicates it exactly as it does a database.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rules.scenario.nesting import TooDeep, loads_json
from storage.json_codec import JsonObject
from storage.records import GameRecord, GameSources
from storage.store import Store

FORMAT = "vedette-game-record"
VERSION = 1


class RecordError(ValueError):
    """A file that is not a readable game record; the message says what is wrong with it."""


@dataclass(frozen=True, slots=True)
class LoggedEvent:
    """One event of the log as stored: its place, type, audience and payload."""

    seq: int
    type: str
    audience: str
    payload: JsonObject


@dataclass(frozen=True, slots=True)
class GameLog:
    """A game as a checker sees it. ``sources`` is ``None`` for a game created before its
    scenario was stored with it; ``seed_hex`` is the seed the record claims (the log's own
    ``game_ended`` event is what counts)."""

    game_id: str
    sources: GameSources | None
    without: tuple[str, ...]
    rules: JsonObject
    events: tuple[LoggedEvent, ...]
    seed_hex: str | None = None


def game_options(record: GameRecord) -> tuple[tuple[str, ...], JsonObject]:
    """The options chosen at creation that change the rules: modules played without, and rule
    options laid over the scenario's."""
    without = tuple(str(m) for m in record.options.get("without", []))
    rules = record.options.get("rules")
    return without, dict(rules) if isinstance(rules, dict) else {}


def build(record: GameRecord, sources: GameSources | None,
          events: Iterable[LoggedEvent]) -> GameLog:
    without, rules = game_options(record)
    logged = tuple(events)
    seed = next((str(e.payload.get("seed_hex")) for e in reversed(logged)
                 if e.type == "game_ended"), None)
    return GameLog(record.id, sources, without, rules, logged, seed)


async def from_store(store: Store, game: GameRecord) -> GameLog:
    """The game's record as its database holds it now."""
    events = [LoggedEvent(e.seq, e.type, e.audience, e.payload)
              for e in await store.events(game.id)]
    return build(game, await store.game_sources(game.id), events)


def to_json(log: GameLog) -> bytes:
    """The record file's bytes (UTF-8 JSON, one event a line so that it reads in an editor)."""
    head: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": log.game_id,
        "scenario": None if log.sources is None else {
            "name": log.sources.scenario_name, "sha256": log.sources.scenario_sha256,
            "text": log.sources.scenario_text},
        "ruleset": None if log.sources is None else {
            "name": log.sources.ruleset_name, "sha256": log.sources.ruleset_sha256,
            "text": log.sources.ruleset_text},
        "options": {"without": list(log.without), "rules": log.rules},
        "seed": log.seed_hex,
    }
    parts = [f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
             for key, value in head.items()]
    events = [json.dumps({"seq": e.seq, "type": e.type, "audience": e.audience,
                          "payload": e.payload}, ensure_ascii=False, sort_keys=True)
              for e in log.events]
    parts.append(' "events": [\n  ' + ",\n  ".join(events) + "\n ]")
    return ("{\n" + ",\n".join(parts) + "\n}\n").encode("utf-8")


def from_json(data: bytes) -> GameLog:
    """Read a record file; raises ``RecordError`` naming what is wrong."""
    try:
        raw = loads_json(data)
    except UnicodeDecodeError:
        raise RecordError("it is not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise RecordError(f"it is not JSON ({e})") from None
    except TooDeep as e:
        raise RecordError(f"it {e}") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise RecordError("it is not a Vedette game record")
    if raw.get("version") != VERSION:
        raise RecordError(f"it is a version {raw.get('version')!r} record; this Vedette reads "
                          f"version {VERSION}")
    try:
        return GameLog(
            game_id=_text(raw["game"], "game"),
            sources=_sources(raw.get("scenario"), raw.get("ruleset")),
            without=tuple(_text(m, "options.without") for m in raw["options"]["without"]),
            rules=_object(raw["options"]["rules"], "options.rules"),
            events=tuple(_event(e, n) for n, e in enumerate(raw["events"])),
            seed_hex=None if raw.get("seed") is None else _text(raw["seed"], "seed"),
        )
    except (KeyError, TypeError) as e:
        raise RecordError(f"a field is missing or of the wrong kind ({e})") from None


def _sources(scenario: object, ruleset: object) -> GameSources | None:
    if scenario is None and ruleset is None:
        return None
    s, r = _object(scenario, "scenario"), _object(ruleset, "ruleset")
    return GameSources(_text(s["name"], "scenario.name"), _text(s["text"], "scenario.text"),
                       _text(s["sha256"], "scenario.sha256"), _text(r["name"], "ruleset.name"),
                       _text(r["text"], "ruleset.text"), _text(r["sha256"], "ruleset.sha256"))


def _event(raw: object, index: int) -> LoggedEvent:
    e = _object(raw, f"events[{index}]")
    seq = e["seq"]
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise RecordError(f"events[{index}].seq is not a whole number")
    return LoggedEvent(seq, _text(e["type"], f"events[{index}].type"),
                       _text(e["audience"], f"events[{index}].audience"),
                       _object(e["payload"], f"events[{index}].payload"))


def _text(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{where} is not text")
    return value


def _object(value: object, where: str) -> JsonObject:
    if not isinstance(value, dict):
        raise RecordError(f"{where} is not an object")
    return value


def file_name(game_id: str) -> str:
    return f"vedette-{game_id}-record.json"
