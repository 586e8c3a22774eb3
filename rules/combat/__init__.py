"""The combat module: fire, close combat, morale and stragglers, read from the ruleset's tables.

The package is kept free of imports so that ``rules.scenario.ruleset`` can read
``rules.combat.config``
(the ``[combat]`` section of a ruleset) without pulling in the engine; the rule module itself
registers when ``rules.combat.module`` is imported (``rules.modules.registry.IMPLEMENTATIONS``).
"""
