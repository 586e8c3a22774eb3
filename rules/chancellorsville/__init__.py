"""The Chancellorsville hidden-units variant (rule text 002), as two rule modules.

* ``chancellorsville``: both sides' counters face down until sighted (the ``inverted`` model, or
  ``hidden`` if the scenario prefers), sighting by clear paths (the ``clear_path`` rule of
  ``rules.sighting``), Stuart's cavalry and forts on the combat table;
* ``raid_victory``: the Federal cavalry raid, which takes units out of the game and changes what
  each side sees, and the die roll at the end that picks the victory chart's column.

Files: ``spec`` (both modules' declarations), ``module`` and ``raid_module`` (their
``RuleModule``\\s), ``cavalry`` and ``cavalry_notice`` (the ruleset's cavalry rules A to H and
their public notice at the start), ``settings`` (the scenario's ``[settings.raid_victory]``),
``raid`` (which units ride off), ``victory`` (places held and the score), ``events``.
"""
