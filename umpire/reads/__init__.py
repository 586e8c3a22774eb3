"""The query side: what answers a player's question, each answer from the asker's view. Status,
units, pictures and maps, replays of past turns, ``/help``, move previews, orders waiting for a
confirmation, a player's settings, and how a name a player types is matched to a unit.

Nothing here changes a game; a read that must store something (a picture drawn, a pending
order) writes only what belongs to the asker.
"""
