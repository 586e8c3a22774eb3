"""Nothing lost: bots killed and restarted, several processes on one database, deadlines applied
once, option changes under load.
"""
