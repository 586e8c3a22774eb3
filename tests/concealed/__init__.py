"""The Concealed Forces module: concealment markers, deployment, reveals, scouts, opportunity
fire and stragglers, in the rules, the umpire and the bot.
"""
