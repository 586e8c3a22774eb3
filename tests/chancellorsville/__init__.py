"""The Chancellorsville hidden-units variant: the sample scenario, its raid, cavalry, combat and
victory, and its secrecy.
"""
