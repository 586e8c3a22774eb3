"""Helpers imported by tests, never a test file: the bot's table and fake-Discord kit, each rule
text's small language for scripting its articles' examples, the non-interference harness, the
lockstep transport, and the modules and servers tests set up. Modules named in
``tests/conftest.py``'s ``pytest_plugins`` also bring fixtures.
"""
