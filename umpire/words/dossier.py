"""A turn dossier's layout: a side's message of one batch, in sections in a fixed order.

A message that tells a side of things of more than one kind reads as a dossier: a heading
line (the call for orders' first line: the phase, the turn, the deadline), then one section for
each kind, always in this order:

1. **what your troops saw**: enemies sighted, seen moving, lost from sight; enemy markers;
2. **what happened to your units**: fire and assaults on them, arrivals, a rule's news;
3. **marches and markers**: the side's surprise marches, its concealment markers;
4. **what you may do now**: the question to answer, the orders the phase allows.

Within a section the pieces keep the order they happened in (a secret roll right after the
result it decides: ``umpire.games.inbox``). A message of one kind only keeps its plain order,
with no headings. Headings are Markdown (``### ``), which Discord shows in a plain message and
in a component message alike; the bot cuts a dossier at them into the parts of its component
message (``bot.messages``), and ``/inbox`` shows the same text.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from rules import events as ev

#: Between two pieces of one message.
BETWEEN = "\n\n"
#: How a section's heading starts: the bot cuts a dossier before each.
HEADING = "### "
#: How the dossier's own heading line starts.
TITLE = "## "


class Section(StrEnum):
    """Which section of a dossier a piece belongs in, in the dossier's order."""

    SEEN = "seen"
    HAPPENED = "happened"
    MARCHES = "marches"
    #: A question the side must answer at once.
    NOW = "now"
    #: The side's call for orders: its first line heads the dossier.
    CALL = "call"


HEADINGS: dict[Section, str] = {
    Section.SEEN: "What your troops saw",
    Section.HAPPENED: "What happened to your units",
    Section.MARCHES: "Marches and markers",
    Section.NOW: "What you may do now",
    Section.CALL: "What you may do now",
}
ORDER = tuple(Section)

#: Rule texts whose reports to a side are about its own marches and markers.
_MARCHING_RULES = ("rules.surprise", "rules.concealed")


def section_of(event: ev.GameEvent) -> Section:
    """The section a rule module's report of ``event`` goes in."""
    module = type(event).__module__
    if any(module == m or module.startswith(m + ".") for m in _MARCHING_RULES):
        return Section.MARCHES
    return Section.HAPPENED


def dossier_text(pieces: Sequence[tuple[Section, str]], opening: str | None = None) -> str:
    """The pieces once each, a blank line apart: in their order under ``opening`` when they are
    all of one section; otherwise as a dossier, in sections. ``opening``: words that come
    first either way (the answer to the command that caused them)."""
    unique = list(dict.fromkeys((s, t) for s, t in pieces if t))
    kinds = {HEADINGS[s] for s, _ in unique}
    if len(kinds) < 2:
        return BETWEEN.join(dict.fromkeys(t for t in (opening, *(t for _, t in unique)) if t))
    calls = [t for s, t in unique if s is Section.CALL]
    title, _, rest = calls[0].partition("\n") if calls else ("", "", "")
    parts = [p for p in (opening, TITLE + title if title else "") if p]
    heading = ""
    for section in ORDER:
        texts = [t for s, t in unique if s is section]
        if section is Section.CALL and calls:
            texts = [rest, *texts[1:]] if rest else texts[1:]
        if not texts:
            continue
        if HEADINGS[section] != heading:
            heading = HEADINGS[section]
            texts[0] = f"{HEADING}{heading}\n{texts[0]}"
        parts += texts
    return BETWEEN.join(dict.fromkeys(parts))


def parts_of(text: str) -> list[str]:
    """A dossier cut before each section heading (the first part: what comes before the first
    section); a message without headings is one part."""
    parts: list[str] = []
    current: list[str] = []
    for line in text.split("\n"):
        if line.startswith(HEADING) and current:
            parts.append("\n".join(current).strip("\n"))
            current = []
        current.append(line)
    parts.append("\n".join(current).strip("\n"))
    return [p for p in parts if p]
