"""The ground: the grid of cells, the board's terrain, roads and streams, and the map's queries.

What belongs here answers a question about the map alone (which cells touch, what a step costs
in this terrain, where a road runs), with no unit on it. Nothing here imports the rest of
``rules``.
"""
