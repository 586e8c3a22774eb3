"""Concealed Forces (rule text 001): divisions under concealment markers, decoys that breed,
and the reveal when a real unit comes close enough to see.

``records`` keeps the module's data, ``pool`` counts the decoys a side may use, ``creating``,
``breeding`` and ``moving`` are the owner's orders, ``revealing`` and ``deploying`` what happens
when an enemy unit finds a force, and ``module`` plugs it all into the engine.
"""
