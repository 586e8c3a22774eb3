"""Problems found in a scenario or ruleset file: the file, the field and what is wrong."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pydantic import ValidationError


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input file.

    ``field`` is a dotted path such as ``map.sheets[0].terrain``; ``where`` adds the row and
    column (1-based, as an author counts lines in the text) for problems inside map text.
    """

    file: str
    field: str
    message: str
    where: str = ""

    def __str__(self) -> str:
        place = f"{self.field} ({self.where})" if self.where else self.field
        return f"{self.file}: {place}: {self.message}"


class FileProblems(Exception):
    """Raised when input files are invalid; carries every problem found, not just the first."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


def field_path(loc: Iterable[int | str]) -> str:
    """Format a pydantic error location as ``a.b[2].c``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(top level)"


def from_validation_error(file: str, error: ValidationError, prefix: str = "") -> list[Problem]:
    """Turn pydantic's errors into problems with readable field paths."""
    problems = []
    for e in error.errors():
        loc = [p for p in e["loc"] if not (isinstance(p, str) and p.startswith("function-"))]
        path = field_path(loc)
        if prefix:
            path = f"{prefix}.{path}" if path != "(top level)" else prefix
        msg = e["msg"]
        if e["type"] == "extra_forbidden":
            msg = "unknown field (check its spelling)"
        elif e["type"] == "missing":
            msg = "required field is missing"
        problems.append(Problem(file, path, msg))
    return problems
