"""The application service: loads games, checks who may do what, asks ``rules``, stores events and
deliveries in one transaction, and owns dice seeds, per-game locks and the ``vedette`` command.

Layer rule: ``umpire`` may import ``rules``, ``storage`` and ``render``; never ``bot``.
"""
