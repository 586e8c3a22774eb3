"""The union of many bitsets, kept so that one member changes at the cost of a few unions.

A side sees the union of what each of its observer cells sees, and pickets the union of its
combat units' disks. When an observer leaves a cell, that union must be taken again without it:
over every other cell, that is one union per cell of the side. Kept as a binary tree whose leaves
are the members and whose every node is the union of its two children, it is one union per
level instead: about eight for a side of three hundred cells.
"""

from __future__ import annotations

from collections.abc import Mapping


class OrTree:
    """Bitsets by key (a cell), and their union (``total``)."""

    __slots__ = ("_free", "_members", "_nodes", "_slots", "_total", "_width")

    def __init__(self, members: Mapping[int, int] | None = None) -> None:
        # The tree is built at the first change: a union asked for once (a fresh pass) is
        # taken straight.
        self._members = dict(members or {})
        total = 0
        for bits in self._members.values():
            total |= bits
        self._total = total
        self._nodes: list[int] = []

    def _grown(self) -> None:
        if not self._nodes:
            self._build(self._members, len(self._members))
            self._members = {}

    def _build(self, members: Mapping[int, int], room: int) -> None:
        width = 1
        while width < room:
            width *= 2
        nodes = [0] * (2 * width)
        slots: dict[int, int] = {}
        for slot, (key, bits) in enumerate(members.items()):
            slots[key] = slot
            nodes[width + slot] = bits
        for i in range(width - 1, 0, -1):
            nodes[i] = nodes[2 * i] | nodes[2 * i + 1]
        self._nodes = nodes
        self._slots = slots
        self._width = width
        # Free leaves, the lowest taken first.
        self._free = list(range(width - 1, len(slots) - 1, -1))

    @property
    def total(self) -> int:
        """The union of every member."""
        return self._nodes[1] if self._nodes else self._total

    def __len__(self) -> int:
        return len(self._slots) if self._nodes else len(self._members)

    def put(self, key: int, bits: int) -> None:
        """Add a member, or change it."""
        self._grown()
        slot = self._slots.get(key)
        if slot is None:
            if not self._free:
                members = {k: self._nodes[self._width + s] for k, s in self._slots.items()}
                members[key] = bits
                self._build(members, 2 * self._width)
                return
            slot = self._slots[key] = self._free.pop()
        self._set(slot, bits)

    def drop(self, key: int) -> None:
        """Remove a member (``KeyError`` if there is none)."""
        self._grown()
        slot = self._slots.pop(key)
        self._set(slot, 0)
        self._free.append(slot)

    def _set(self, slot: int, bits: int) -> None:
        nodes = self._nodes
        i = self._width + slot
        nodes[i] = bits
        while i > 1:
            nodes[i >> 1] = bits = bits | nodes[i ^ 1]  # the node and its sibling
            i >>= 1
