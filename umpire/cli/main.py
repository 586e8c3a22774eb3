"""The ``vedette`` command: the offline demo, scenario checks, map rendering, dice verification,
and running the bot."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from rules.combat.config import side_warnings
from rules.combat.spec import SPEC as COMBAT
from rules.modules.catalog import SPECS
from rules.scenario.loader import LoadedScenario
from rules.scenario.problems import FileProblems
from rules.scenario.ruleset import Ruleset
from rules.turn.sequence import visibility_warnings
from storage.errors import StorageError


def main(argv: Sequence[str] | None = None,
         parser: argparse.ArgumentParser | None = None) -> int:
    """Run a ``vedette`` command. The Discord commands (``run``, ``sync``) are added by
    ``bot.cli``, which is the installed entry point, so that this layer never imports the bot."""
    parser = parser or build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
    except StorageError as e:
        # A database that cannot serve (missing, read-only, damaged, too new) is the host's to
        # fix: one line saying why, never a traceback.
        print(f"vedette {args.command}: {' '.join(str(e).split())}", file=sys.stderr)
        return 1
    return code


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="vedette", description="A Discord umpire for double-blind "
                                "hex-and-counter wargames.")
    sub = p.add_subparsers(title="commands", metavar="COMMAND", dest="command")

    demo = sub.add_parser("demo", help="play the sample game offline and write what each side got")
    demo.add_argument("--out", type=Path, default=Path("vedette-demo"),
                      help="folder for the demo's files (default: ./vedette-demo)")
    demo.add_argument("--scenario", choices=("flank-march", "chancellorsville-hidden"),
                      default="flank-march",
                      help="the flank march (default), or Chancellorsville's hidden units: "
                           "sighting in the woods and Stuart's charge")
    demo.add_argument("--variant", choices=("success", "discovery", "concealed"),
                      default=None,
                      help="flank-march only: Jackson's flank march succeeds (default), or "
                           "Union pickets discover it; or Colston's concealed division and its "
                           "decoys meet Union cavalry")
    demo.add_argument("--raid", action="store_true",
                      help="chancellorsville-hidden only: the Federal cavalry raid goes, and "
                           "the victory roll is made at the end")
    demo.set_defaults(func=_demo)

    scen = sub.add_parser("scenario", help="scenario tools")
    scen_sub = scen.add_subparsers(title="scenario commands", metavar="ACTION")
    check = scen_sub.add_parser("check", help="validate scenario and ruleset files and "
                                "summarise them")
    check.add_argument("paths", nargs="+", type=Path)
    check.set_defaults(func=_check)

    verify = sub.add_parser("verify", help="re-adjudicate a finished game: every command, "
                            "event and die roll, from its published seed")
    source = verify.add_mutually_exclusive_group(required=True)
    source.add_argument("--db", help="the bot's database: a SQLite file or a postgresql:// URL")
    source.add_argument("--record", type=Path,
                        help="a game record file, as posted in the game's channel at its end")
    verify.add_argument("--game", default=None,
                        help="game id, with --db (optional if the file has one game)")
    verify.add_argument("--rolls", action="store_true",
                        help="also list every secret roll told to a side, by the number its "
                        "message gave it, with its place in the log")
    verify.set_defaults(func=_verify)

    render = sub.add_parser("render", help="draw a scenario's opening as one side sees it")
    render.add_argument("scenario")
    render.add_argument("--side", default=None, help="side id (default: the umpire's full view)")
    render.add_argument("--around", default=None, help="centre a window on this label or place")
    render.add_argument("--radius", type=int, default=10)
    render.add_argument("--out", type=Path, required=True)
    render.set_defaults(func=_render)

    from umpire.cli.db import add_db_commands

    _add_db_copy(add_db_commands(sub))
    return p


def _add_db_copy(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``vedette db copy``, beside ``db migrate``."""
    copy = actions.add_parser(
        "copy", help="copy every game from one database to a new, empty one (a SQLite file to "
        "PostgreSQL, say) and check that each replays to the same state")
    copy.add_argument("--from", dest="source", required=True,
                      help="the database to copy: a SQLite file or a postgresql:// URL")
    copy.add_argument("--to", dest="destination", required=True,
                      help="the empty database to copy into: a postgresql:// URL or a file")
    copy.set_defaults(func=_db_copy)


def _db_copy(args: argparse.Namespace) -> int:
    import asyncio

    from umpire.cli.db import shown_target
    from umpire.cli.db_copy import CopyRefused, copy_database

    try:
        report = asyncio.run(copy_database(args.source, args.destination))
    except CopyRefused as e:
        print(f"vedette db copy: {e}", file=sys.stderr)
        return 1
    print(f"copied {shown_target(args.source)} to {shown_target(args.destination)}:")
    for line in report.lines():
        print(line)
    if not report.ok:
        print("the destination holds the copy: empty it (or make a new one) before copying "
              "again", file=sys.stderr)
    return 0 if report.ok else 1


def _check(args: argparse.Namespace) -> int:
    from umpire.games.catalog import load_file, load_ruleset_file

    failed = 0
    for path in args.paths:
        if path.name.endswith(".ruleset.toml"):
            # A ruleset alone: its own fields and tables; what a scenario's modules need of it
            # is checked with the scenario.
            try:
                ruleset = load_ruleset_file(path)
            except FileProblems as e:
                failed += 1
                _print_problems(path, e)
                continue
            print(ruleset_summary(ruleset, path))
            continue
        try:
            loaded = load_file(path)
        except FileProblems as e:
            failed += 1
            _print_problems(path, e)
            continue
        print(summary(loaded, path))
        # Warnings do not fail the check: the scenario plays, as the warning says.
        for warning in (*visibility_warnings(loaded.scenario, loaded.ruleset),
                        *_condition_warnings(loaded)):
            print(f"  warning: {warning}")
    return 1 if failed else 0


def _print_problems(path: Path, e: FileProblems) -> None:
    print(f"{path}: {len(e.problems)} problem(s)")
    for problem in e.problems:
        print(f"  {problem}")


def ruleset_summary(ruleset: Ruleset, path: Path) -> str:
    """What a checked ruleset holds, on one line: its name, its tables and the rule modules
    whose tables are all there."""
    stand_in = (" (stand-in numbers)" if ruleset.stand_in
                and "stand-in" not in ruleset.name.lower() else "")
    served = [spec.name for spec in SPECS if spec.tables
              and not ruleset.missing_tables([spec.name])]
    return (f"{path}: ok - ruleset {ruleset.name} [{ruleset.id}]{stand_in}; tables: "
            f"{', '.join(ruleset.tables) or 'none'}"
            + (f" (all those of {', '.join(served)})" if served else ""))


def _condition_warnings(loaded: LoadedScenario) -> tuple[str, ...]:
    """Combat conditions naming sides the scenario lacks; only the combat module reads them."""
    if COMBAT.name not in loaded.scenario.scenario.modules:
        return ()
    sides = [side.id for side in loaded.scenario.sides]
    return side_warnings(loaded.ruleset.combat.conditions, sides)


def summary(loaded: LoadedScenario, path: Path) -> str:
    s, gm = loaded.scenario, loaded.map
    grid = gm.grid
    shape = (f"hex ({s.map.orientation}-topped)" if grid.kind == "hex"
             else f"square ({s.map.neighbours} neighbours)")
    lines = [
        f"{path}: ok - {s.scenario.title} [{s.scenario.id}]",
        f"  ruleset: {loaded.ruleset.name}" + (
            " (stand-in numbers)" if loaded.ruleset.stand_in
            and "stand-in" not in loaded.ruleset.name.lower() else ""),
        f"  grid: {shape}, {grid.width} x {grid.height} = {grid.size} cells; sheets "
        f"{', '.join(sh.letter for sh in s.map.sheets)} of {s.map.sheet_width} x "
        f"{s.map.sheet_height}; {len(gm.roads)} roads, {len(s.map.places)} places",
        f"  turns: {s.turns[0].turn}-{s.turns[-1].turn} ({s.turns[0].time} to "
        f"{s.turns[-1].time}); information: {s.scenario.information}; modules: "
        f"{', '.join(s.scenario.modules) or 'none'}",
    ]
    for side in s.sides:
        kinds = Counter(u.kind for u in s.units if u.side == side.id)
        total = sum(kinds.values())
        detail = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
        lines.append(f"  {side.id}: {total} units ({detail})")
    return "\n".join(lines)


def _demo(args: argparse.Namespace) -> int:
    from umpire.demo.main import run_demo

    return run_demo(args.out, args.variant, scenario=args.scenario, raid=args.raid)


def _verify(args: argparse.Namespace) -> int:
    import asyncio

    from umpire.verify.check import verify, verify_record

    if args.record is not None:
        return verify_record(args.record, rolls=args.rolls)
    return asyncio.run(verify(args.db, args.game, rolls=args.rolls))


def _render(args: argparse.Namespace) -> int:
    from umpire.cli.render import render_opening

    return render_opening(args.scenario, args.side, args.around, args.radius, args.out)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
