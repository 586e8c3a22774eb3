"""The combat module: fire, close combat, morale, stragglers and their tables, in the rules, the
umpire and the bot.
"""
