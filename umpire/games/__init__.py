"""The command side: what changes a game. Loading and committing games (``repository``), deciding
commands and retrying them when another process wrote first, setting games up, seats and ready
players, host corrections, game ids and options, the scenario catalog, the dice, and the routing
of a batch of events to the audiences that are told of it.

Everything that changes a game commits through ``repository.Repository``, in one transaction
with the deliveries it causes.
"""
