"""The test suite. A test goes in the folder of the code it specifies (``tests/<layer>/`` or
``tests/<rule module>/``); a promise that cuts across layers goes in ``secrecy`` or ``reliability``;
helpers live in ``support`` and programs the tests start in ``processes``. No test imports a
``test_`` module, and fixtures come from the nearest ``conftest.py`` or a support plugin
(``tests/architecture/test_tests.py`` holds this).
"""
