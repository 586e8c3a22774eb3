"""Fair dice after the game: ``vedette verify`` re-adjudicates a finished game from its log or its
record and checks every roll against the published seed; ``record`` writes the game record.
"""
