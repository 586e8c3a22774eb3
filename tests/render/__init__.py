"""The renderer: maps drawn per side, and their readability.
"""
