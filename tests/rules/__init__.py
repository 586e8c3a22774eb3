"""The core rules (``rules/``): the grid, the ground, line of sight and sighting, knowledge and
views, forces and markers, orders and movement, the turn, and scenario files.
"""
