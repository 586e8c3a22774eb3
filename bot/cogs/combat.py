"""Combat orders: ``/fire``, ``/assault`` and ``/rally``. Thin commands: each builds a
``rules.combat.commands`` record and calls ``Umpire.handle``; the answer goes to the asking player
alone, and the umpire's private reports to each side go out through the outbox.

Autocomplete offers the player's own units for ``unit:``/``units:`` (the last of a comma-separated
list is completed) and, for ``target:``, only the enemy units the player's side sees identified
now (``Umpire.visible_enemy_names``, read through the side's view): never anything unseen. A
counter seen only as a marker is named by its map label."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pydantic
from discord import app_commands
from discord.ext import commands

from bot.autocomplete import MAX_CHOICES, MAX_VALUE, matching
from bot.cogs import Interaction, give_order, in_servers_and_dms
from bot.errors import Refused
from bot.game_choice import GameArg, game_for_autocomplete
from bot.replies import thinking
from rules.combat.commands import Assault, Fire, Rally
from rules.commands import GameCommand

if TYPE_CHECKING:
    from bot.client import VedetteBot

Choices = list[app_commands.Choice[str]]

GAME_HELP = "Which game (needed only if you are in several and not in the game's channel)"
UNIT_HELP = "One of your units, or several firing together, separated by commas"
UNITS_HELP = "Your attacking units, each next to the target, separated by commas"
TARGET_HELP = ("An enemy unit your troops see, by name; or the map label of a counter you see "
               "only as a marker")


def _bot(interaction: Interaction) -> VedetteBot:
    bot: VedetteBot = interaction.client
    return bot


def unit_list(text: str) -> tuple[str, ...]:
    """The units named in a comma-separated list."""
    return tuple(part.strip() for part in text.split(",") if part.strip())


def combat_order(kind: type[GameCommand], **fields: Any) -> GameCommand:
    """The command record, or a plain refusal when a field is out of bounds."""
    try:
        return kind(**fields)
    except pydantic.ValidationError:
        raise Refused("that order is too long or empty: name up to eight units, and a target")\
            from None


def list_choices(current: str, names: list[str]) -> list[str]:
    """Completions of the last item of a comma-separated list of names."""
    head, _, tail = current.rpartition(",")
    prefix = (head.strip() + ", ") if head.strip() else ""
    out: list[str] = []
    for choice in matching(names, tail):
        value = prefix + choice.value
        if len(value) <= MAX_VALUE and value not in out:
            out.append(value)
    return out[:MAX_CHOICES]


async def own_units(interaction: Interaction, current: str) -> Choices:
    """The asking player's own units (never an enemy's)."""
    game_id = await game_for_autocomplete(interaction)
    if game_id is None:
        return []
    try:
        names = await _bot(interaction).umpire.unit_names(game_id, interaction.user.id)
    except Exception:
        return []
    return [app_commands.Choice(name=v, value=v) for v in list_choices(current, names)]


async def targets(interaction: Interaction, current: str) -> Choices:
    """Enemy units the asking player's side sees identified now, and nothing else."""
    game_id = await game_for_autocomplete(interaction)
    if game_id is None:
        return []
    try:
        names = await _bot(interaction).umpire.visible_enemy_names(game_id,
                                                                   interaction.user.id)
    except Exception:
        return []
    return matching(names, current)


class CombatCog(commands.Cog):
    def __init__(self, bot: VedetteBot) -> None:
        self.bot = bot

    async def _give(self, interaction: Interaction, game: str | None,
                    command: GameCommand) -> None:
        await give_order(interaction, game, command)

    @in_servers_and_dms
    @app_commands.command(name="fire", description="Fire at an enemy your troops see")
    @app_commands.describe(unit=UNIT_HELP, target=TARGET_HELP, game=GAME_HELP)
    @app_commands.autocomplete(unit=own_units, target=targets)
    async def fire(self, interaction: Interaction, unit: app_commands.Range[str, 1, 300],
                   target: app_commands.Range[str, 1, 100],
                   game: GameArg | None = None) -> None:
        await thinking(interaction)
        await self._give(interaction, game,
                         combat_order(Fire, units=unit_list(unit), target=target))

    @in_servers_and_dms
    @app_commands.command(name="assault", description="Close combat: attack an enemy next to "
                                                      "your units")
    @app_commands.describe(units=UNITS_HELP, target=TARGET_HELP,
                           advance="Advance into the cell if the defenders leave it "
                                   "(default: yes)", game=GAME_HELP)
    @app_commands.autocomplete(units=own_units, target=targets)
    async def assault(self, interaction: Interaction, units: app_commands.Range[str, 1, 300],
                      target: app_commands.Range[str, 1, 100], advance: bool = True,
                      game: GameArg | None = None) -> None:
        await thinking(interaction)
        await self._give(interaction, game, combat_order(
            Assault, units=unit_list(units), target=target, advance=advance))

    @in_servers_and_dms
    @app_commands.command(name="rally", description="Try to rally one of your units")
    @app_commands.describe(unit="One of your shaken, disorganized or routed units",
                           game=GAME_HELP)
    @app_commands.autocomplete(unit=own_units)
    async def rally(self, interaction: Interaction, unit: app_commands.Range[str, 1, 100],
                    game: GameArg | None = None) -> None:
        await thinking(interaction)
        await self._give(interaction, game, combat_order(Rally, unit=unit))
