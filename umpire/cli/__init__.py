"""The ``vedette`` command line for hosts and authors: the subcommands (``main``), the database
tools (``db``, ``db_copy``) and rendering a scenario's map (``render``).
"""
