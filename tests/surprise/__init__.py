"""The Surprise Move module: marches, their timing and collisions, shams, and its orders, in the
rules, the umpire and the bot.
"""
