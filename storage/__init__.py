"""Persistence in SQLite through aiosqlite: games, the append-only event log, snapshots and the
outbox of deliveries, with numbered schema migrations.

Layer rule: ``storage`` may import ``rules`` (to (de)serialise its types) and nothing from
``render``, ``umpire`` or ``bot``.
"""
