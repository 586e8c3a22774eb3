"""``vedette verify``: re-adjudicate a finished game from its log and its published seed.

Every accepted command is in the log in full, first in the events it led to. The checker starts
from the scenario and ruleset the game was pinned to, decides each command again through the
rules engine with the game's dice, and compares what comes out with what the log holds, event by
event: every roll, its modifiers and its result, every move, every report. It also checks that
the log has no gaps, that the seed matches the commitment posted at the start, and lists the
host's corrections. A changed result, an added modifier, a deleted roll or a changed path all
show as a difference from the rules.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from rules import events as ev
from rules.engine import Refusal, redecide
from rules.modules.built import load_all
from rules.reading import event_from_json
from rules.scenario.problems import FileProblems
from rules.state import GameState, initial_state
from storage.errors import StorageError
from storage.sql import Backend, database_kind
from storage.store import Store
from umpire.games import catalog
from umpire.games.dice import SeededDice, roll, sources_commitment
from umpire.verify.record import GameLog, LoggedEvent, RecordError, from_json, from_store
from umpire.words.corrections import corrections, words

#: Differences listed in full; a tampered log often differs everywhere after the first.
MAX_LISTED = 20


@dataclass
class Verdict:
    """What checking a game found. ``readjudicated`` is false when the log could not be decided
    again (a log written before commands were kept in full): then only the rolls' values were
    checked against the seed."""

    game_id: str
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    commands: int = 0
    rolls: int = 0
    readjudicated: bool = False
    corrections: list[str] = field(default_factory=list)
    secret: bool = False
    #: Each secret roll told to a side, by the number its message gave it, with its place.
    side_rolls: list[str] = field(default_factory=list)
    #: The commitments the log says were posted at the start (dice, then scenario texts): a
    #: record forged whole after the game verifies against itself, so players compare these
    #: with the start message they saw in the game's channel.
    commitments: tuple[str, str] = ("", "")

    @property
    def ok(self) -> bool:
        return not self.problems and self.readjudicated and not self.secret


def check(log: GameLog) -> Verdict:
    """Check a game's log against the rules (pure CPU work, no I/O)."""
    load_all()  # every module's commands and events, whichever the game plays
    verdict = Verdict(log.game_id)
    events = log.events
    verdict.rolls = sum(1 for e in events if e.type == "die_rolled")
    verdict.side_rolls = _side_rolls(events)
    _check_sequence(events, verdict)
    seed_hex = _seed(log, verdict)
    if seed_hex is None:
        return verdict
    loaded = None
    if log.sources is None:
        verdict.notes.append("it was created before Vedette stored a game's scenario with it")
    else:
        try:
            rules = {str(k): v for k, v in log.rules.items() if isinstance(v, str | int | bool)}
            loaded = catalog.with_options(catalog.load_sources(log.sources), rules)
        except (FileProblems, ValueError) as e:
            verdict.problems.append(f"the game's scenario cannot be loaded: {e}")
    old = [e.seq for e in events if e.type == "command_accepted" and "command" not in e.payload]
    if old or (events and events[0].type != "command_accepted"):
        verdict.notes.append("its log was written before Vedette kept every command in full")
    if verdict.notes or loaded is None:
        _check_roll_values(events, seed_hex, log.game_id, verdict)
        return verdict
    state = initial_state(loaded, log.without)
    assert log.sources is not None
    binding = sources_commitment(bytes.fromhex(seed_hex), log.sources.scenario_sha256,
                                 log.sources.ruleset_sha256)
    _readjudicate(state, events, seed_hex, log.game_id, verdict, binding)
    verdict.corrections = [words(state, c, mention=False) for c in corrections(events)]
    return verdict


def _side_rolls(events: Sequence[LoggedEvent]) -> list[str]:
    """The rolls told to each side, numbered as their messages numbered them."""
    told: dict[str, int] = {}
    out = []
    for index, e in enumerate(events):
        if e.type != "die_rolled" or not e.audience.startswith("side:"):
            continue
        side = e.audience.removeprefix("side:")
        told[side] = told.get(side, 0) + 1
        words = roll_words(e.payload, logged_outcome(events, index))
        out.append(f"{side} roll {told[side]}: log event {e.seq}: {words}")
    return out


def roll_words(p: Mapping[str, object], meaning: str = "") -> str:
    """A logged roll in words: its purpose, value and dice, modifiers, and the table read (with
    what its result means, when ``meaning`` says); a roll read on no table with what came of
    it, when ``meaning`` says (``logged_outcome``)."""
    text = f"{p.get('purpose')}: {p.get('value')} on {p.get('dice')}"
    mods = p.get("modifiers")
    if isinstance(mods, dict) and mods:
        text += " (" + ", ".join(f"{k.replace('_', ' ')} {v:+d}" for k, v in mods.items()
                                 if isinstance(v, int)) + ")"
    if p.get("table"):
        table = str(p.get("table")).replace("_", " ")
        text += f"; {table} column {p.get('column')}: {p.get('result')}"
        text += f" ({meaning})" if meaning else ""
    elif meaning:
        text += f": {meaning}"
    return text


def logged_outcome(events: Sequence[LoggedEvent], index: int) -> str:
    """What came of the logged roll ``events[index]`` when it was read on no table, from the
    events its rule logged after it (``rules.events.roll_outcome``); empty when nothing that
    follows says (or the log's events no longer read)."""
    roll = events[index]
    if roll.payload.get("table"):
        return ""
    after = []
    for e in events[index + 1:]:
        if e.type == "die_rolled":
            break
        after.append(e)
    try:
        rolled = _typed(roll)
        return ev.roll_outcome(rolled, (_typed(e) for e in after)) if isinstance(
            rolled, ev.DieRolled) else ""
    except (ValueError, ValidationError):
        return ""


def _typed(e: LoggedEvent) -> ev.GameEvent:
    return event_from_json(json.dumps(e.payload), e.audience)


def _check_sequence(events: Sequence[LoggedEvent], verdict: Verdict) -> None:
    expected = 1
    for e in events:
        if e.seq > expected:
            missing = f"event {expected}" if e.seq == expected + 1 else \
                f"events {expected} to {e.seq - 1}"
            verdict.problems.append(f"the log has a gap: {missing} missing")
        elif e.seq < expected:
            verdict.problems.append(f"the log is out of order: event {e.seq} comes after "
                                    f"event {expected - 1}")
        expected = e.seq + 1


def _seed(log: GameLog, verdict: Verdict) -> str | None:
    """The published seed, checked against the commitment made at the start."""
    ended = [e for e in log.events if e.type == "game_ended"]
    if not ended:
        verdict.secret = True
        return None
    seed_hex = str(ended[-1].payload.get("seed_hex", ""))
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        verdict.problems.append(f"the published seed {seed_hex[:80]!r} is not hexadecimal")
        return None
    if log.seed_hex is not None and log.seed_hex != seed_hex:
        verdict.problems.append("the record's seed is not the one the log published")
    started = [e for e in log.events if e.type == "game_started"]
    commitment = str(started[0].payload.get("seed_sha256")) if started else ""
    verdict.commitments = (commitment, str(started[0].payload.get("sources_commitment", ""))
                           if started else "")
    if hashlib.sha256(seed).hexdigest() != commitment:
        verdict.problems.append("the published seed does not match the commitment made at "
                                "the start")
    return seed_hex


def _check_roll_values(events: Sequence[LoggedEvent], seed_hex: str, game_id: str,
                       verdict: Verdict) -> None:
    """What can be checked of a log that cannot be decided again: each roll's own value."""
    seed = bytes.fromhex(seed_hex)
    for e in events:
        if e.type != "die_rolled":
            continue
        try:
            expected = roll(seed, game_id, e.seq, str(e.payload["purpose"]),
                            str(e.payload["dice"]))
        except (KeyError, ValueError) as x:
            verdict.problems.append(f"event {e.seq}: a roll that cannot be read ({x})")
            continue
        if expected != e.payload.get("value"):
            verdict.problems.append(f"event {e.seq} ({e.payload['purpose']}): logged "
                                    f"{e.payload.get('value')}, the seed gives {expected}")


def _readjudicate(state: GameState, events: Sequence[LoggedEvent], seed_hex: str,
                  game_id: str, verdict: Verdict, binding: str) -> None:
    """Decide every logged command again and compare, batch by batch. After a difference the
    check goes on from the next logged command, with the state the rules give."""
    dice = SeededDice(bytes.fromhex(seed_hex), game_id)
    verdict.readjudicated = True
    i = 0
    while i < len(events):
        head = events[i]
        if head.type != "command_accepted":
            verdict.problems.append(f"event {head.seq} ({_what(head)}) follows from no logged "
                                    "command: the rules give no such event")
            i = _next_command(events, i)
            continue
        try:
            accepted = event_from_json(json.dumps(head.payload), head.audience)
            assert isinstance(accepted, ev.CommandAccepted)
            outcome = redecide(state, accepted, seed_hex, dice, sources_commitment=binding)
        except Refusal as r:
            verdict.problems.append(f"event {head.seq}: the rules refuse the logged command "
                                    f"({head.payload.get('kind')}): {r}")
            i = _next_command(events, i)
            continue
        except (ValidationError, ValueError, TypeError, KeyError, AssertionError) as x:
            verdict.problems.append(f"event {head.seq}: the logged command cannot be decided "
                                    f"again ({_short(x)})")
            i = _next_command(events, i)
            continue
        verdict.commands += 1
        difference = _compare(outcome.events, events[i:], state.seq + 1)
        state = outcome.state
        if difference:
            verdict.problems.append(difference)
            i = _next_command(events, i)
        else:
            i += len(outcome.events)


def _compare(expected: Sequence[ev.Event], logged: Sequence[LoggedEvent], seq: int) -> str:
    """The first difference between the rules' events and the log's, in words ('' if none)."""
    for n, want in enumerate(expected):
        place = seq + n
        payload: dict[str, Any] = json.loads(ev.event_to_json(want))
        if n >= len(logged) or (n > 0 and logged[n].type == "command_accepted"):
            return (f"event {place}: the log lacks {_what_payload(want.type, payload)}, which "
                    "the rules give here")
        got = logged[n]
        if got.type != want.type:
            return (f"event {got.seq}: the log has {_what(got)} where the rules give "
                    f"{_what_payload(want.type, payload)}")
        if got.audience != want.audience:
            return (f"event {got.seq} ({_what(got)}): told to {got.audience!r} in the log, to "
                    f"{want.audience!r} by the rules")
        if got.payload != payload:
            keys = sorted(set(got.payload) | set(payload))
            fields = [k for k in keys if got.payload.get(k) != payload.get(k)]
            parts = "; ".join(f"{k} is {_short(got.payload.get(k))} in the log, "
                              f"{_short(payload.get(k))} by the rules" for k in fields)
            return f"event {got.seq} ({_what(got)}): {parts}"
    extra = len(expected)
    if extra < len(logged) and logged[extra].type != "command_accepted":
        got = logged[extra]
        return (f"event {got.seq} ({_what(got)}) does not follow from the command at event "
                f"{seq}: the rules give no such event")
    return ""


def _next_command(events: Sequence[LoggedEvent], i: int) -> int:
    for j in range(i + 1, len(events)):
        if events[j].type == "command_accepted":
            return j
    return len(events)


def _what(e: LoggedEvent) -> str:
    return _what_payload(e.type, e.payload)


def _what_payload(kind: str, payload: dict[str, Any]) -> str:
    if kind == "die_rolled":
        return f"a roll for {str(payload.get('purpose'))[:80]}"
    if kind == "command_accepted":
        return f"the command {str(payload.get('kind'))[:40]!r}"
    return kind


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


# -- the command line ---------------------------------------------------------------------------
async def verify(db: str | Path, game_id: str | None, *, rolls: bool = False) -> int:
    """Check one game of a database (``vedette verify --db``: a SQLite file or a PostgreSQL
    URL); ``rolls`` lists every secret roll told to a side, under the number its message gave
    it."""
    if database_kind(db) is Backend.SQLITE and not Path(db).is_file():
        print(f"vedette verify: no database file at {db}")
        return 2
    async with Store.open(db) as store:
        db = store.target  # a URL without its password
        games = await store.list_games()
        if game_id is None:
            if len(games) != 1:
                ids = ", ".join(g.id for g in games) or "none"
                print(f"vedette verify: {db} holds {len(games)} games ({ids}); choose one with "
                      "--game")
                return 2
            game = games[0]
        else:
            found = [g for g in games if g.id == game_id]
            if not found:
                print(f"vedette verify: no game {game_id!r} in {db}")
                return 2
            game = found[0]
        try:
            log = await from_store(store, game)
        except StorageError as e:
            # A log holding JSON that cannot be read (not JSON, or nested too deeply).
            print(f"vedette verify: {db} cannot be read: {' '.join(str(e).split())}")
            return 2
    return report(check(log), rolls=rolls)


def verify_record(path: Path, *, rolls: bool = False) -> int:
    """Check a game record file (``vedette verify --record``), without any database."""
    try:
        data = path.read_bytes()
    except OSError as e:
        print(f"vedette verify: cannot read {path}: {e.strerror}")
        return 2
    try:
        log = from_json(data)
    except RecordError as e:
        print(f"vedette verify: {path} is not a game record Vedette can read: {e}")
        return 2
    return report(check(log), rolls=rolls)


def report(verdict: Verdict, *, rolls: bool = False) -> int:
    """Print the verdict; 0 when the whole game was re-adjudicated and matches."""
    gid = verdict.game_id
    if rolls and not verdict.secret:
        print(f"secret rolls told to each side ({len(verdict.side_rolls)}):")
        for line in verdict.side_rolls:
            print(f"  {line}")
    if verdict.secret:
        print(f"game {gid} has not ended: its seed is still secret, so its rolls cannot be "
              "checked yet")
        for p in verdict.problems:
            print(p)
        return 1
    listed = verdict.problems[:MAX_LISTED]
    for p in listed:
        print(p)
    if len(verdict.problems) > len(listed):
        print(f"... and {len(verdict.problems) - len(listed)} more differences")
    if not verdict.readjudicated:
        why = "; ".join(verdict.notes) or "its scenario cannot be loaded"
        print(f"game {gid} cannot be re-adjudicated: {why}. Only the values of its "
              f"{verdict.rolls} rolls were checked against the seed"
              + (" (they match)." if not verdict.problems else "."))
        return 1
    if verdict.problems:
        print(f"game {gid}: the log does not match the rules ({len(verdict.problems)} "
              "difference(s) above)")
    else:
        print(f"game {gid}: commitment matches; all {verdict.rolls} rolls verified; "
              f"{verdict.commands} commands re-adjudicated, and every event of the log is what "
              "the rules give, with no gaps")
        dice_sha, texts_sha = verdict.commitments
        print("compare with the start message in the game's channel: dice commitment "
              f"{dice_sha}, scenario commitment {texts_sha}")
    if verdict.corrections:
        print(f"corrections by the host ({len(verdict.corrections)}):")
        for c in verdict.corrections:
            print(f"  {c}")
    else:
        print("corrections by the host: none")
    return 1 if verdict.problems else 0
