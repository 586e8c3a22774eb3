"""The game itself, pure: grids, terrain, units, movement, sighting, tables and the rule modules.

Layer rule: ``rules`` imports nothing from ``storage``, ``render``, ``umpire`` or ``bot``, and
nothing that does I/O (no asyncio, sqlite, sockets, discord or Pillow). Given a state, a command
and a source of dice it returns events; the state is a fold of events. ``rules.view.project`` is
the only door through which game state reaches a player.
"""
