"""The sequence of play: turns and their steps, the reaction window, phase deadlines, what a side
could do now (offers) and when it may pass by itself, where a game stands, and how it is won.

What belongs here decides when things happen, not what an order does.
"""
