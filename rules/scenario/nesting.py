"""How deeply a text read from outside may nest: TOML arrays, tables and dotted keys, JSON arrays
and objects.

Python's TOML and JSON parsers recurse once for each level (a few hundred levels exhaust the
interpreter's stack and raise ``RecursionError``), and TOML's cost for a dotted key grows with
the square of its parts. So a text is measured before it is parsed, by a scan that skips strings
and comments, and refused with :class:`TooDeep` beyond :data:`MAX_NESTING` levels. Every reader
of scenario and ruleset files, game records and the JSON a database holds goes through
:func:`loads_toml` or :func:`loads_json`.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

#: The deepest nesting read. A scenario, a ruleset, a record or a stored payload nests a handful
#: of levels; 64 leaves room to spare and keeps the parsers (a couple of stack frames a level)
#: far from Python's default recursion limit of 1000.
MAX_NESTING = 64

# The tokens the scan needs, leftmost first: strings and comments are skipped whole, so that a
# bracket or dot inside them counts for nothing. A multi-line string closes at its first three
# quotes and takes up to two more (TOML 1.0); an unclosed one runs to the end, as the parser
# reads it. ``=``, ``,`` and line ends end a dotted key, as brackets do.
_TOML_TOKENS = re.compile(r'''
      """[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*(?:"{3,5})?
    | \'\'\'[^']*(?:'(?!'')[^']*)*(?:'{3,5})?
    | "[^"\\\n]*(?:\\.[^"\\\n]*)*"?
    | '[^'\n]*'?
    | \#[^\n]*
    | [\[\]{}.=,\n]
''', re.VERBOSE | re.DOTALL)
# JSON: its strings are dropped, then all but its brackets (a stored snapshot is read at every
# load of its game, so the scan is kept to what the regular expression engine does fast).
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


class TooDeep(ValueError):
    """A text or value nested deeper than :data:`MAX_NESTING` levels."""

    def __init__(self, things: str) -> None:
        super().__init__(f"nests {things} more than {MAX_NESTING} levels deep (Vedette "
                         f"reads at most {MAX_NESTING})")


def loads_toml(text: str) -> dict[str, Any]:
    """TOML text as a dict; raises :class:`TooDeep` (checked before parsing) or
    ``tomllib.TOMLDecodeError``."""
    _check_toml(text)
    data = tomllib.loads(text)
    # ``[a.b]`` then ``c.d = 1`` nest four tables with no key longer than two parts.
    if _depth_within(data) > MAX_NESTING:
        raise TooDeep("tables")
    return data


def loads_json(text: str | bytes) -> Any:
    """JSON text as Python values; raises :class:`TooDeep` (checked before parsing),
    ``json.JSONDecodeError`` or ``UnicodeDecodeError``."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    _check_json(text)
    return json.loads(text)


def _check_toml(text: str) -> None:
    if text.count("[") + text.count("{") + text.count(".") <= MAX_NESTING:
        return  # cannot nest deeper: most short texts are let through unscanned
    depth = dots = 0
    for token in _TOML_TOKENS.finditer(text):
        mark = token.group()
        if mark in ("[", "{"):
            depth, dots = depth + 1, 0
        elif mark in ("]", "}"):
            # A stray closing bracket is a syntax error the parser reports; never below zero.
            depth, dots = max(depth - 1, 0), 0
        elif mark == ".":
            dots += 1  # one more part of a dotted key (a float's one dot is counted too)
        elif mark in ("=", ",", "\n"):
            dots = 0
        else:
            continue
        if depth + dots > MAX_NESTING:
            raise TooDeep("arrays, tables or dotted keys")


def _check_json(text: str) -> None:
    if text.count("[") + text.count("{") <= MAX_NESTING:
        return
    depth = 0
    for mark in _NOT_BRACKETS.sub("", _JSON_STRING.sub("", text)):
        if mark in "[{":
            depth += 1
            if depth > MAX_NESTING:
                raise TooDeep("arrays and objects")
        elif depth:
            depth -= 1


def _depth_within(document: dict[str, Any]) -> int:
    """How many lists and tables deep a document goes below its top level (without
    recursing): ``a = [[1]]`` goes two deep, as its brackets say."""
    deepest = 0
    stack: list[tuple[object, int]] = [(child, 0) for child in document.values()]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth + 1)
            if deepest > MAX_NESTING:
                return deepest
            stack += [(child, depth + 1) for child in item]
    return deepest
