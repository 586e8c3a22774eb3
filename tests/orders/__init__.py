"""Orders as a side gives them: previews read against what the side sees, units found by the
words on their counters, offers that the rules accept, markers moved like units, reports that
say why, and a turn settled in one hand-off.
"""
