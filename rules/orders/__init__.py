"""What a player orders and how it runs: routes, movement and its costs, the stops the rules
force on a move, and what changes when units change place.

What belongs here works out one order of the core (a move) from the state; a rule module's own
orders live in its package.
"""
