"""The installed ``vedette`` command: the umpire's commands plus ``run`` and ``sync``, which need
Discord."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from umpire import cli as umpire_cli
from umpire.settings import Settings

NO_TOKEN = ("vedette: no DISCORD_TOKEN set; put it in .env (see .env.example) or in the "
            "environment, then run again.")


def build_parser() -> argparse.ArgumentParser:
    parser = umpire_cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    run = sub.add_parser("run", help="run the Discord bot")
    run.set_defaults(func=_run)
    sync = sub.add_parser("sync", help="push the slash commands to Discord now")
    sync.set_defaults(func=_sync)
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
    settings = _settings_with_token()
    if settings is None:
        return 2
    from bot.main import run_bot

    return run_bot(settings)


def _sync(args: argparse.Namespace) -> int:
    settings = _settings_with_token()
    if settings is None:
        return 2
    from bot.main import sync_commands

    return sync_commands(settings)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
