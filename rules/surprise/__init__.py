"""Surprise Move (rule text 000): the hidden-march variant, umpired.

A force on a surprise-move order stays in place and secretly saves its movement points, turn by
turn, until its owner sets it off, the MP Accumulation Table discovers it, or the enemy triggers
it; then it marches along its route as a road column, stopped by blocked hexes. The package keeps
one concept per module: ``orders`` (sending and accepting), ``accumulation``, ``execution``,
``interference``, ``cancellation``, ``collision``, with ``module`` tying them to the engine (and
registering it when imported) and ``spec`` declaring it.

The package itself imports nothing, so that reading its declaration never pulls in the engine.
"""
