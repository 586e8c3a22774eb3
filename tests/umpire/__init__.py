"""The umpire (``umpire/``): games and seats, ready players, corrections, reads and replays,
pictures, words, deadlines, help, verification and the after-action report.
"""
