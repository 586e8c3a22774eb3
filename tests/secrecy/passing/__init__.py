"""Seen on the way: sighting at every step of a move, what each side learns of a unit passing, and
the reference the per-step sighting is checked against (rulings INFO-18, INFO-19)."""
