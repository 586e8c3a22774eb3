"""Previews of a unit's or a concealed force's move, read against the enemy the side knows
of, and a Confirm that keeps the preview's word.
"""
