"""Programs the tests start as separate processes: a bot, crash and restart drivers, workers that
play or lease beside the test's own process, and a PostgreSQL worker.
"""
