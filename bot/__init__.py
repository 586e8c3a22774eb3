"""The Discord front end: slash commands in cogs, autocomplete, buttons, and delivery of the
umpire's deliveries as DMs, threads and channel messages. No rule logic and no SQL here.

Layer rule: ``bot`` may import ``umpire`` (and the value types of ``rules`` it passes along).
"""
