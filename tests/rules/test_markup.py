"""Names and reasons typed by authors and players read as typed in messages."""

from __future__ import annotations

import discord.utils
import pytest

from rules.scenario.markup import plain
from tests.fakediscord import FakeDiscord


@pytest.mark.parametrize(("typed", "shown"), [
    ("Jackson's Corps", "Jackson's Corps"),
    ("**bold** _it_ `code` ~~gone~~ ||secret||",
     r"\*\*bold\*\* \_it\_ \`code\` \~\~gone\~\~ \|\|secret\|\|"),
    ("[click](https://example.com)", r"\[click\](https://example.com)"),
    ("<@123456789012345678> <#1> <t:0>", r"\<@123456789012345678\> \<\#1\> \<t:0\>"),
    ("@everyone and @here", "@\u200beveryone and @\u200bhere"),
    ("# Heading\n> quote", r"\# Heading \> quote"),
    ("back\\slash", "back\\\\slash"),
])
def test_plain(typed: str, shown: str) -> None:
    assert plain(typed) == shown


def test_plain_text_loses_nothing_discord_would_show() -> None:
    """Discord's own escaping, then ours: what a reader sees is what was typed."""
    typed = "**x** _y_ `z`"
    assert plain(typed).replace("\\", "") == discord.utils.escape_markdown(typed).replace("\\", "")


async def test_the_fake_pings_as_discord_does() -> None:
    async with FakeDiscord(token="t") as fake:
        content = "@everyone <@5> <@6>"
        assert fake.pings({"content": content}) == ["everyone", "5", "6"]
        assert fake.pings({"content": content, "allowed_mentions": {"parse": []}}) == []
        assert fake.pings({"content": content,
                           "allowed_mentions": {"parse": [], "users": ["6"]}}) == ["6"]
        assert fake.pings({"content": content,
                           "allowed_mentions": {"parse": ["everyone", "users"]}}) == [
            "everyone", "5", "6"]
