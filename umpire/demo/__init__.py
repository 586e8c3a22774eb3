"""Scripted stories of play, run by ``vedette demo``: one per rule text, each a whole game played
through the umpire with its messages printed side by side.
"""
