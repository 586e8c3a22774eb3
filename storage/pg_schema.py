"""PostgreSQL's SQL for each numbered migration (the list and the runner: ``storage.migrations``).
"""

from __future__ import annotations

POSTGRESQL_SQL: dict[int, str] = {}
