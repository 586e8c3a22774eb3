"""A concealed force comes into the open: what reveals it, how near it may come to the enemy and
what the enemy sees, its deployment by the owner's plan, and the opportunity fire and charges of a
force just revealed.
"""
