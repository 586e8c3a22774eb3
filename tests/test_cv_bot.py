"""The Chancellorsville variant on Discord: ``/game create`` with the raid and victory-roll
options, announced in the game's channel and refused for a scenario that does not play them;
its maps (face-down counters, face-up sighted ones, fog; ghosts under the raid) and its
end-of-game post."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot.client import VedetteBot
from rules.chancellorsville.spec import RAID_VICTORY
from rules.registry import MODULES
from tests.test_bot import Table, bot, final, public, say, table, text_of  # noqa: F401

CV = "chancellorsville-hidden"
RAID_WORDS = "the raid option is played"
NO_RAID_WORDS = "no raid: the Federal cavalry stays"
NO_CHART_WORDS = "no victory chart at the end of the game"
CHART_WORDS = "the victory chart is read at the end of the game"


async def create(table: Table,  # noqa: F811
                 options: dict[str, object]) -> tuple[str, list[str]]:
    """alice creates a game in the channel; her answer and what the channel was told."""
    before = len(public(table))
    handle = await table.fake.slash("game create", options, user=table.alice,
                                    channel=table.channel)
    answer = text_of(await final(handle))
    if "You host game" in answer:
        await table.fake.wait_for(lambda: len(public(table)) > before, what="the create post")
    return answer, public(table)[before:]


@contextmanager
def raid_module_not_built() -> Iterator[None]:
    """The ``raid_victory`` module declared but not built (its ``RuleModule`` unregistered),
    as a module is between its declaration and its code."""
    module = MODULES.pop(RAID_VICTORY)
    try:
        yield
    finally:
        MODULES[RAID_VICTORY] = module


async def test_create_with_the_raid_and_no_victory_roll_announces_both(
        table: Table, bot: VedetteBot) -> None:  # noqa: F811
    answer, [post] = await create(table, {"scenario": CV, "raid": True, "victory_roll": False})
    assert "You host game" in answer
    assert RAID_WORDS in post and NO_CHART_WORDS in post
    assert post.count("chosen by the host") == 2
    [game] = await bot.umpire.store.list_games(channel_id=table.channel.id)
    assert game.options["rules"] == {"raid": True, "victory_roll": False}
    options = (await bot.umpire.state_for(game.id)).loaded.scenario.scenario.options
    assert options["raid"] is True and options["victory_roll"] is False


async def test_create_without_options_announces_the_scenarios_choice(
        table: Table, bot: VedetteBot) -> None:  # noqa: F811
    """Whether the raid went changes what both sides see: the post says so even when the host
    chose nothing."""
    _, [post] = await create(table, {"scenario": CV})
    assert NO_RAID_WORDS in post and CHART_WORDS in post
    assert post.count("(the scenario)") == 2 and "chosen by the host" not in post
    [game] = await bot.umpire.store.list_games(channel_id=table.channel.id)
    assert "rules" not in game.options


async def test_the_raid_is_refused_for_a_scenario_without_the_raid_module(
        table: Table, bot: VedetteBot) -> None:  # noqa: F811
    for options in ({"raid": True}, {"victory_roll": False}, {"raid": False}):
        answer = await say(table, "game create", table.alice,
                           {"scenario": "flank-march", **options}, channel=table.channel)
        assert answer.startswith(f"the option {next(iter(options))!r} belongs to the rule "
                                 "module 'raid_victory'"), answer
        assert "which scenario 'flank-march' does not play" in answer
    # Nothing was created and nothing was said in the channel.
    assert await bot.umpire.store.list_games(channel_id=table.channel.id) == []
    assert public(table) == []
    # The channel is still free for a game.
    answer, [post] = await create(table, {"scenario": "flank-march"})
    assert "You host game" in answer and "raid" not in post


async def test_a_declared_module_not_built_is_switched_off_and_its_options_refused(
        table: Table, bot: VedetteBot) -> None:  # noqa: F811
    """The create post names a module the scenario declares and the umpire cannot play yet;
    its options are refused like those of a module the scenario does not name."""
    with raid_module_not_built():
        answer = await say(table, "game create", table.alice, {"scenario": CV, "raid": True},
                           channel=table.channel)
        assert "belongs to the rule module 'raid_victory'" in answer
        assert await bot.umpire.store.list_games(channel_id=table.channel.id) == []
        answer, [post] = await create(table, {"scenario": CV})
    assert "You host game" in answer
    assert ("Rule modules switched off (the umpire cannot play them yet, so this game is "
            "played without them): raid_victory (Chancellorsville raid option") in post
    # Played without, its options are not announced as if in force.
    assert "Rule options" not in post
    [game] = await bot.umpire.store.list_games(channel_id=table.channel.id)
    assert game.options["without"] == [RAID_VICTORY]
