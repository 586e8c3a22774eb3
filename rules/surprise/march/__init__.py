"""A surprise move as it runs on the map: the road column and its route, setting off, the march
carried out (blocked hexes, detours, the MPs after one), forced marches and their stragglers,
MPs saved in place, and units that stand apart from their force.

What a side orders and how the order travels is in ``rules.surprise.orders``; what stops or
shams a march from outside is in ``rules.surprise.interference`` and ``collision``.
"""
