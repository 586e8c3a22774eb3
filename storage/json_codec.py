"""Strict JSON for payloads, options and buttons: what is stored is exactly what comes back.

``json.dumps`` quietly turns tuples into lists and integer keys into strings and writes ``NaN``,
so a value would not round-trip. :func:`encode` refuses such values instead, naming where in the
value the problem is; everything it accepts decodes to an equal value.
"""

from __future__ import annotations

import json
import math
from typing import Any

from rules.scenario.nesting import TooDeep, loads_json
from storage.errors import StorageError

JsonObject = dict[str, Any]
"""A JSON object as Python holds it: str keys; values None, bool, int, float, str, list, dict."""


def encode(value: object, what: str) -> str:
    """Serialise ``value`` compactly; raise :class:`StorageError` naming ``what`` and the path of
    the first part that is not JSON."""
    if not _plain(value):
        _check(value, "$", what)  # names where it is not JSON, if it is not
    # ensure_ascii (the default) escapes lone surrogates, which UTF-8 could not store.
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def decode(text: str, what: str) -> Any:
    """The value :func:`encode` serialised; :class:`StorageError` naming ``what`` when the text
    is not JSON or nests deeper than :data:`rules.scenario.nesting.MAX_NESTING` (a database file
    from elsewhere holds what anyone wrote in it: it is measured before it is parsed)."""
    try:
        return loads_json(text)
    except TooDeep as e:
        raise StorageError(f"{what} {e}") from None
    except json.JSONDecodeError as e:
        raise StorageError(f"{what} is not JSON ({e})") from None


def decode_object(text: str, what: str) -> JsonObject:
    value = decode(text, what)
    if not isinstance(value, dict):
        raise StorageError(f"{what} is not a JSON object")
    return value


def _plain(value: object) -> bool:
    """Whether ``value`` is JSON made of the plain types alone: the quick answer for what is
    almost always stored; anything else (a ``str`` or ``int`` subclass, or what is not JSON at
    all) is left to ``_check``, which says where it is not JSON."""
    if isinstance(value, dict):
        return type(value) is dict and all(type(key) is str and _plain(item)
                                           for key, item in value.items())
    if isinstance(value, list):
        return type(value) is list and all(_plain(item) for item in value)
    if isinstance(value, float):
        return type(value) is float and math.isfinite(value)
    return value is None or type(value) in _SCALARS


_SCALARS = (str, int, bool)


def _check(value: object, path: str, what: str) -> None:
    if value is None or isinstance(value, bool | int | str):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise StorageError(f"{what}: {value!r} at {path} is not a JSON number")
        return
    if isinstance(value, list):
        for index, item in enumerate(value):
            _check(item, f"{path}[{index}]", what)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise StorageError(
                    f"{what}: key {key!r} at {path} is not a string (JSON keys are strings)"
                )
            _check(item, f"{path}.{key}", what)
        return
    hint = " (use a list)" if isinstance(value, tuple) else ""
    raise StorageError(f"{what}: {type(value).__name__} at {path} is not JSON{hint}")
