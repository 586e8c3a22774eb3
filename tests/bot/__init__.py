"""The Discord bot, through the local fake Discord: commands, buttons, threads, pacing, seats,
shards and what players see in the channel and their DMs.
"""
