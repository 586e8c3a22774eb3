"""What a scenario author writes, and how it is read: the scenario and ruleset files' models, the
loader that checks them as a whole, the ruleset's tables, and the limits on what is read.

What belongs here turns a file into checked values, or refuses it with a problem that names the
place in the file. Play itself does not happen here.
"""
