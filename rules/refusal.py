"""The refusal of a command."""


class Refusal(Exception):
    """A command that is not accepted. The message is safe to show to the commanding side: its
    words depend only on what that side may know."""


class WindowClosed(Refusal):
    """An order the rules allow only before the side's first move of the phase, given after it:
    its own earlier order closed the window, which the umpire may name (ruling FLOW-64)."""
