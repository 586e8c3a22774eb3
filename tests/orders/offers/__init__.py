"""What a side is offered (its "you may" lists, its autocomplete, its help) against what its
orders accept, and the start-of-phase orders' window.
"""
