"""Time-driven acts: phase deadlines and their reminders, the clock that ends a phase whose time is
up, and the default answer to a reaction question whose time has run out.

What happens because time passed goes here; each act is logged as a command like any other.
"""
