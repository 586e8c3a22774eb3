"""How a rule module plugs in: the hooks a module may override (``api``), its declaration
(``spec``), the catalog of every module's spec, the registry of built modules, and the settings
and data a module keeps.

The two lists are here and nowhere else: ``catalog.SPECS`` (every module declared) and ``built``
(every module implemented, imported for its registration). A module's own rules live in its
package beside this one (``rules/surprise/``, ``rules/concealed/``, ...).
"""
