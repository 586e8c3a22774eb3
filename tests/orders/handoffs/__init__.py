"""A turn settled in one hand-off: Done for the turn, standing orders carried out by the
umpire, a Command Phase that passes by itself, and what that tells each side.
"""
