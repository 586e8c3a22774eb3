"""The refusal of a command."""


class Refusal(Exception):
    """A command that is not accepted. The message is safe to show to the commanding side: its
    words depend only on what that side may know."""
