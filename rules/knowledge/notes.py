"""What a rule module tells one side in its view, as a typed note.

A module's ``view_notes`` hook returns a ``ModuleNote`` subclass (a frozen dataclass of its
own), or ``None`` when it has nothing to tell the side. A note is addressed: the module builds it
for one side and puts in it only what that side may know (its own marches, say).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ModuleNote:
    """The base of every module's note in a ``SideView.notes``."""
