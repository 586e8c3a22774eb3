"""The product's promise, held by tests: nothing a side receives (messages, pictures, views,
reports, the timing and order of what arrives) depends on what it may not know.
"""
