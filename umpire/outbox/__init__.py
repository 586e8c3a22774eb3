"""Sending: the outbox drained lane by lane (one lane per audience), the lease a process holds on
a lane, and the notice a player gets when a DM cannot reach them.
"""
