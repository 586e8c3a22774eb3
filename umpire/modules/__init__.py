"""The umpire's side of a rule text: reads a module needs beyond the core's (its previews, its
autocomplete), one file per module under the module's own name (``surprise.py`` for
``rules/surprise/``).
"""
