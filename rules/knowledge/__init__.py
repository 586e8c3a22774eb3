"""What a view is made of: the levels of what a side knows of a unit, the information models,
what is sighted, the public part of the game, module notes, the overlay of blocked cells and the
words reports share.

Layer rule (held by ``tests/architecture``): nothing here imports ``rules.engine`` or
``rules.orders``. Knowledge is read off the state; it never decides an order.
"""
