"""The precomputed line-of-sight tables: for every cell, the bitset of cells it sees.

Cells are board indices; a set of cells is an int bitset (bit ``i`` is cell index ``i``). The
tables are worked out one relative sight line at a time for all observers at once with
big-integer shifts, and the symmetry of sight halves the work. They apply exactly the rule of
``rules.sighting.height.clear_line`` (the tests compare them with the plain reference in
``rules.sighting.reference``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

from rules.ground.gamemap import GameMap
from rules.ground.grid import HexGrid, SquareGrid
from rules.sighting.disks import BoardMasks, col_row_delta, disk, distance, parities
from rules.sighting.geometry import Rel, line_shape
from rules.sighting.height import is_obstacle


def build_visibility(game_map: GameMap, rng: int) -> list[int]:
    """For every cell, the bitset of cells it sees at distances up to ``rng``.

    For each relative position ``rel`` (and each parity class of offset coordinates) a bitset
    over observers is worked out at once: ``visible[rel]`` holds the observers whose line to the
    cell at ``rel`` is clear. A crossed cell at ``(c, t)`` blocks observer ``o`` when the cell
    ``o + c`` blocks at the interpolated height between the elevations of ``o`` and ``o + rel``;
    the observers are grouped by their own and their target's elevation, so that the height is
    the same across a group and the blocking cells are one precomputed bitset, shifted. Sight is
    symmetric, so ``visible[-rel]`` is ``visible[rel]`` moved to the targets. Finally the
    per-position bitsets are transposed into per-cell bitsets.
    """
    grid = game_map.grid
    width, height = grid.width, grid.height
    n = grid.size
    board = (1 << n) - 1
    classes = parities(grid)

    # Masks of the board by parity class, and ranges of columns and rows.
    masks = BoardMasks(grid)
    par_mask, rect = masks.parity, masks.inside

    # Heights: elevation of the ends, line-of-sight height and obstacles of what lies between.
    elev = game_map.elevation
    low, high = min(elev), max(elev)
    span = high - low
    los_h = [game_map.los_height(i) for i in range(n)]
    obstacle = [is_obstacle(game_map, i) for i in range(n)]
    at_elev = [0] * (span + 1)
    for i, e in enumerate(elev):
        at_elev[e - low] |= 1 << i
    # blocking[2k] : cells that block a line at height exactly low + k;
    # blocking[2k+1]: cells that block a line at a height strictly between low + k and low + k + 1.
    blocking = [0] * (2 * span + 2)
    for k in range(span + 1):
        level = low + k
        exact = strictly = 0
        for i in range(n):
            h = los_h[i]
            if h > level or (obstacle[i] and h == level):
                exact |= 1 << i
            if h > level:
                strictly |= 1 << i
        blocking[2 * k], blocking[2 * k + 1] = exact, strictly

    # Relative positions in range, their board offsets per parity class, and the window of
    # offsets that the per-cell transposition runs over.
    rels = [r for r in disk(grid, rng) if distance(grid, r) <= rng]
    delta = {(p, r): col_row_delta(grid, p, r) for p in classes for r in rels}
    shift0 = max(abs(dr * width + dc) for dc, dr in delta.values())
    big = shift0 + 1  # every bitset below is pre-shifted up by ``big`` so all shifts go down
    blocking_up = [b << big for b in blocking]
    elev_up = [e << big for e in at_elev]
    window = [0] * (2 * shift0 + 1)

    window[shift0] = board  # every cell sees itself
    for rel in rels:
        dist = distance(grid, rel)
        if dist == 0:
            continue
        neg = tuple(-x for x in rel)
        if dist > 1 and rel < neg:
            continue  # done with its mirror image
        for p in classes:
            dc, dr = delta[(p, rel)]
            if abs(dc) >= width or abs(dr) >= height:
                continue
            observers = par_mask[p] & rect(dc, dr)
            if not observers:
                continue
            off = dr * width + dc
            if dist == 1:
                seen = observers  # adjacent cells: always a clear line (LOS-7)
            else:
                seen = _clear_observers(
                    grid, p, rel, observers, off, width, span, blocking_up, elev_up, at_elev,
                    big, rect,
                )
            window[shift0 + off] |= seen
            if dist > 1:
                window[shift0 - off] |= seen << off if off >= 0 else seen >> -off
    return _transpose(window, shift0, n)


def _clear_observers(
    grid: HexGrid | SquareGrid,
    parity: int,
    rel: Rel,
    observers: int,
    off: int,
    width: int,
    span: int,
    blocking_up: list[int],
    elev_up: list[int],
    at_elev: list[int],
    big: int,
    rect: Callable[[int, int], int],
) -> int:
    """Observers (of one parity class) whose line to the cell at ``rel`` from them is clear."""
    shape = line_shape(grid, rel)

    def keys(t: Fraction) -> tuple[int, ...]:
        return _height_keys(t, span)

    crossings = []
    for c, t in shape.crossed:
        dc, dr = col_row_delta(grid, parity, c)
        crossings.append((big + dr * width + dc, keys(t)))
    pairs = []
    for c1, c2, t in shape.sides:
        dc1, dr1 = col_row_delta(grid, parity, c1)
        dc2, dr2 = col_row_delta(grid, parity, c2)
        # A cell beside the line may lie off the board, where nothing blocks.
        valid = rect(dc1, dr1) & rect(dc2, dr2)
        pairs.append((big + dr1 * width + dc1, big + dr2 * width + dc2, valid, keys(t)))

    targets_at = [(e >> (big + off)) & observers for e in elev_up]
    seen = 0
    for a, at_a in enumerate(at_elev):
        group_a = at_a & observers
        if not group_a:
            continue
        base = 2 * a
        for b, at_b in enumerate(targets_at):
            group = group_a & at_b
            if not group:
                continue
            d = b - a + span
            blocked = 0
            for sh, k in crossings:
                blocked |= blocking_up[base + k[d]] >> sh
            for sh1, sh2, valid, k in pairs:
                bits = blocking_up[base + k[d]]
                blocked |= (bits >> sh1) & (bits >> sh2) & valid
            seen |= group & ~blocked
    return seen


@lru_cache(maxsize=4096)
def _height_keys(t: Fraction, span: int) -> tuple[int, ...]:
    """For each elevation difference d (target minus observer, -span..span), which of the
    ``blocking`` bitsets judges a line at position t: the line's height there is observer + t*d,
    and the whole part of t*d and whether it has a fractional part pick the bitset."""
    out = []
    for d in range(-span, span + 1):
        whole, part = divmod(t.numerator * d, t.denominator)
        out.append(2 * whole + (1 if part else 0))
    return tuple(out)


def _transpose(window: list[int], shift0: int, n: int) -> list[int]:
    """Turn bitsets by relative offset (over observers) into bitsets by observer (over cells).

    Each window row becomes a string of '0'/'1' with character ``i`` for cell ``i``; slicing the
    columns of all rows together with ``zip`` transposes them in C, one block of cells at a time.
    """
    zeros = "0" * n
    rows = [format(w, f"0{n}b")[::-1] if w else zeros for w in window]
    out = [0] * n
    block = 256
    for start in range(0, n, block):
        stop = min(n, start + block)
        columns = zip(*(row[start:stop] for row in rows), strict=True)
        for j, col in enumerate(columns):
            o = start + j
            bits = int("".join(col)[::-1], 2)
            out[o] = (bits << o) >> shift0
    return out
