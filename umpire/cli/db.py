"""``vedette db …``: the database's own tools. ``db migrate`` upgrades a database's schema (a
SQLite file or a PostgreSQL database) to this Vedette's, saying the version before and after.

A bot upgrades its database when it starts; ``db migrate`` does it beforehand, for instance
before starting several bot processes on one PostgreSQL database, or to see that an upgrade
works on a copy.
"""

from __future__ import annotations

import argparse
import asyncio

from storage.database import upgrade
from umpire.settings import Settings

DB_HELP = "the database: a SQLite file or a postgresql:// URL (default: VEDETTE_DB)"


def add_db_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]
                    ) -> argparse._SubParsersAction[argparse.ArgumentParser]:
    """Add ``db`` and its actions to the ``vedette`` command; the actions' subparsers."""
    db = sub.add_parser("db", help="database tools: upgrade the schema")
    actions = db.add_subparsers(title="database commands", metavar="ACTION")
    migrate = actions.add_parser("migrate", help="upgrade the database's schema to this "
                                 "Vedette's (a bot also does it when it starts)")
    migrate.add_argument("--db", default=None, help=DB_HELP)
    migrate.set_defaults(func=_migrate)
    return actions


def _migrate(args: argparse.Namespace) -> int:
    target: str = args.db or Settings().db
    before, after = asyncio.run(upgrade(target))
    where = shown_target(target)
    if before == after:
        print(f"vedette: database {where} is at schema {after}, this Vedette's: nothing to do")
    else:
        print(f"vedette: database {where} upgraded from schema {before} to {after}")
    return 0


def shown_target(target: str) -> str:
    """The target as it may be printed: a URL loses its password."""
    from storage.postgres import shown

    return shown(target) if "://" in target else target
