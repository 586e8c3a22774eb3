"""Combat orders: ``/fire``, ``/assault`` and ``/rally``. Thin commands: each builds a
``rules.combat.commands`` record and calls ``Umpire.handle``; the answer goes to the asking player
alone, and the umpire's private reports to each side go out through the outbox.

Autocomplete offers for ``unit:``/``units:`` only the player's own units that may fire (or
assault) now, as the rules offer it (``Umpire.fighter_choices``); the last of a comma-separated
list is completed, and each choice's value is the units' ids, so that a name's own commas never
split it. For ``target:`` it offers only what the player's side sees (``Umpire.target_choices``,
read through the side's view): first what the chosen units could strike now, with distance and
sight, then the rest; a counter seen without its identity is named by its map label."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from discord import app_commands
from discord.ext import commands

from bot.autocomplete import MAX_CHOICES, MAX_VALUE, offered, unit_list_choices
from bot.buttons import bot_of
from bot.cogs import Interaction, give_order, in_servers_and_dms, unit_list
from bot.errors import order_record
from bot.game_choice import GameArg, game_for_autocomplete
from bot.replies import thinking
from rules.combat.commands import Assault, Fire, Rally
from rules.commands import GameCommand
from umpire.reads.naming import Action, ranked

if TYPE_CHECKING:
    from bot.client import VedetteBot

Choices = list[app_commands.Choice[str]]
Completer = Callable[[Interaction, str], Coroutine[Any, Any, Choices]]

GAME_HELP = "Which game (needed only if you are in several and not in the game's channel)"
UNIT_HELP = "One of your units, or several firing together, separated by commas"
UNITS_HELP = "Your attacking units, each next to the target, separated by commas"
TARGET_HELP = ("An enemy unit your troops see, by name; or the map label of a counter you see "
               "only as a marker")


#: The refusal of an order whose fields are out of bounds.
TOO_LONG = "that order is too long or empty: name up to eight units, and a target"


def _fighters(action: Action) -> Completer:
    async def complete(interaction: Interaction, current: str) -> Choices:
        """The asking player's own units that may ``action`` now (never an enemy's)."""
        game_id = await game_for_autocomplete(interaction)
        if game_id is None:
            return []
        umpire = bot_of(interaction).umpire
        try:
            known = await umpire.own_unit_choices(game_id, interaction.user.id)
            offered = await umpire.fighter_choices(game_id, interaction.user.id, action)
        except Exception:
            return []
        return unit_list_choices(current, known, offered)
    return complete


def _targets(action: Action, units_field: str) -> Completer:
    async def complete(interaction: Interaction, current: str) -> Choices:
        """What the asking player's side sees to aim at, and nothing else: first what the
        units named in ``units_field`` could strike now."""
        game_id = await game_for_autocomplete(interaction)
        if game_id is None:
            return []
        chosen = str(getattr(interaction.namespace, units_field, "") or "")
        try:
            found = await bot_of(interaction).umpire.target_choices(
                game_id, interaction.user.id, action, chosen)
        except Exception:
            return []
        return [app_commands.Choice(name=found[i][1][:MAX_VALUE], value=found[i][0][:MAX_VALUE])
                for i in ranked([words for _, words in found], current)][:MAX_CHOICES]
    return complete


fire_units = _fighters("fire")
assault_units = _fighters("assault")
fire_targets = _targets("fire", "unit")
assault_targets = _targets("assault", "units")


class CombatCog(commands.Cog):
    def __init__(self, bot: VedetteBot) -> None:
        self.bot = bot

    async def _give(self, interaction: Interaction, game: str | None,
                    command: GameCommand) -> None:
        await give_order(interaction, game, command)

    @in_servers_and_dms
    @app_commands.command(name="fire", description="Fire at an enemy your troops see")
    @app_commands.describe(unit=UNIT_HELP, target=TARGET_HELP, game=GAME_HELP)
    @app_commands.autocomplete(unit=fire_units, target=fire_targets)
    async def fire(self, interaction: Interaction, unit: app_commands.Range[str, 1, 300],
                   target: app_commands.Range[str, 1, 100],
                   game: GameArg | None = None) -> None:
        await thinking(interaction)
        await self._give(interaction, game,
                         order_record(Fire, TOO_LONG, units=unit_list(unit), target=target))

    @in_servers_and_dms
    @app_commands.command(name="assault", description="Close combat: attack an enemy next to "
                                                      "your units")
    @app_commands.describe(units=UNITS_HELP, target=TARGET_HELP,
                           advance="Advance into the cell if the defenders leave it "
                                   "(default: yes)", game=GAME_HELP)
    @app_commands.autocomplete(units=assault_units, target=assault_targets)
    async def assault(self, interaction: Interaction, units: app_commands.Range[str, 1, 300],
                      target: app_commands.Range[str, 1, 100], advance: bool = True,
                      game: GameArg | None = None) -> None:
        await thinking(interaction)
        command = order_record(Assault, TOO_LONG, units=unit_list(units), target=target,
                               advance=advance)
        await self._give(interaction, game, command)

    @in_servers_and_dms
    @app_commands.command(name="rally", description="Try to rally one of your units")
    @app_commands.describe(unit="One of your shaken, disorganized or routed units",
                           game=GAME_HELP)
    @app_commands.autocomplete(unit=offered("rally"))
    async def rally(self, interaction: Interaction, unit: app_commands.Range[str, 1, 100],
                    game: GameArg | None = None) -> None:
        await thinking(interaction)
        await self._give(interaction, game, order_record(Rally, TOO_LONG, unit=unit))


async def setup(bot: VedetteBot) -> None:
    """The extension's entry point (``VedetteBot.load_extension``)."""
    await bot.add_cog(CombatCog(bot))
