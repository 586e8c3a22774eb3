"""Sighting: who sees whom, and which cells stop a surprise march.

* ``rules.sighting.geometry``: the exact shape of a straight sight line between two cells;
* ``rules.sighting.height``: whether the ground and terrain a line passes block it;
* ``rules.sighting.disks``: sets of cells within a distance, as bitsets;
* ``rules.sighting.or_tree``: a union of many bitsets that one member changes cheaply;
* ``rules.sighting.tables``: every cell's visible cells, precomputed;
* ``rules.sighting.rule``: what a sighting rule answers (``SightingRule``);
* ``rules.sighting.tabled``: what the rules answering from per-cell tables share;
* ``rules.sighting.los``: the ``los`` rule, straight-line sight with a visibility limit;
* ``rules.sighting.paths``: the ``clear_path`` rule, sight along paths clear of woods and hills
  (Chancellorsville);
* ``rules.sighting.registry``: the rules a scenario chooses from by name;
* ``rules.sighting.sighting_pass``: each side's sighting under a rule, from scratch or kept up
  to date (a game's live one is ``rules.knowledge.live_sighting``);
* ``rules.sighting.along``: who sees whom at every step of a move, not only where it ends;
* ``rules.sighting.reference``: a slow, plain reference of the rule and the pass (a test oracle);
* ``rules.sighting.path_reference``: the same for the ``clear_path`` rule.

A new sighting rule is a new module here and one line in the registry.
"""
