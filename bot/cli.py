"""The installed ``vedette`` command: the umpire's commands plus ``run`` and ``sync``, which need
Discord, and ``backup``, a consistent copy of the live database. ``run --shards 0-3
--shard-count 8`` serves some of Discord's shards (``bot.shards``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from umpire.cli import main as umpire_cli
from umpire.settings import Settings, database_file

NO_TOKEN = ("vedette: no DISCORD_TOKEN set; put it in .env (see .env.example) or in the "
            "environment, then run again.")


def build_parser() -> argparse.ArgumentParser:
    parser = umpire_cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    run = sub.add_parser("run", help="run the Discord bot")
    run.add_argument("--shards", default=None, metavar="IDS",
                     help="only these of Discord's shards, e.g. 0-3 or 0,2 (default: "
                          "VEDETTE_SHARDS, else every shard); needs --shard-count")
    run.add_argument("--shard-count", default=None, metavar="N",
                     help="the bot's number of shards, the same in every process (default: "
                          "VEDETTE_SHARD_COUNT, else what Discord asks for)")
    run.set_defaults(func=_run)
    sync = sub.add_parser("sync", help="push the slash commands to Discord now")
    sync.set_defaults(func=_sync)
    backup = sub.add_parser("backup", help="copy the database consistently, even while the bot "
                            "runs")
    backup.add_argument("--db", default=None,
                        help="the database file (default: VEDETTE_DB, else vedette.db); a "
                        "PostgreSQL database is backed up with pg_dump instead")
    backup.add_argument("--out", type=Path, required=True, help="the backup file to write")
    backup.add_argument("--overwrite", action="store_true", help="replace --out if it exists")
    backup.set_defaults(func=_backup)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return umpire_cli.main(argv, build_parser())


def _settings_with_token() -> Settings | None:
    settings = Settings()
    if not settings.discord_token:
        print(NO_TOKEN, file=sys.stderr)
        return None
    return settings


def _run(args: argparse.Namespace) -> int:
    from bot.shards import ShardError, plan

    settings = Settings()
    # The options win over the settings, each on its own: a count from .env and shards on the
    # command line make one plan. A bad plan stops here, before the database or Discord.
    try:
        shards = plan(args.shards if args.shards is not None else settings.shards,
                      args.shard_count if args.shard_count is not None else settings.shard_count)
    except ShardError as e:
        print(f"vedette run: {e}.", file=sys.stderr)
        return 2
    if not settings.discord_token:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    from bot.main import run_bot

    return run_bot(settings, shards)


def _sync(args: argparse.Namespace) -> int:
    settings = _settings_with_token()
    if settings is None:
        return 2
    from bot.main import sync_commands

    return sync_commands(settings)


def _backup(args: argparse.Namespace) -> int:
    import asyncio

    from umpire.front import DatabaseError, backup_database

    target: str = args.db or Settings().db
    db = database_file(target)
    if db is None:
        print("vedette: the database is on PostgreSQL: back it up with pg_dump (see "
              "docs/hosting.md); vedette backup copies SQLite files only", file=sys.stderr)
        return 2
    if not db.is_file():
        print(f"vedette: no database at {db}", file=sys.stderr)
        return 2

    try:
        written = asyncio.run(backup_database(db, args.out, overwrite=args.overwrite))
    except DatabaseError as e:
        print(f"vedette: {e}", file=sys.stderr)
        return 1
    print(f"vedette: {db} backed up to {written}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
