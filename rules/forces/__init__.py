"""The forces: units and their words, markers, where a unit is and where it counts, the chain of
command, how a player's name for a unit is looked up, and which records a new set of them
replaced.

What belongs here describes a side's troops as they stand, not what they are ordered to do
(``rules.orders``) nor what the enemy knows of them (``rules.knowledge``).
"""
