"""Storage: the SQLite and PostgreSQL stores, their properties, the database files and tools, and
the outbox's leases.
"""
