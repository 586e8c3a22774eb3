"""English a player or host reads, written from views only: the words of events, replies to
commands, unit lists, markers, stacks, the status post, a phase's deadline, the dice verdict,
and the whole-truth texts for the host and a finished game.

Rule (held by ``tests/secrecy/test_reports.py``): a function here takes a ``SideView`` (or the
event's own data), never the game state, except those on the named whole-truth allowlist; and
nothing here imports ``storage.store``.
"""
