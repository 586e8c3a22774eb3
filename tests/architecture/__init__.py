"""The architecture, held by tests: the layers and what each may import, the sub-layer rules, the
size of folders, the import tree of ``rules``, the game's words as enums, the bot's door to the
umpire, and the rules for the test suite itself.
"""
