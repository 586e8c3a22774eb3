"""``/conceal``: the Concealed Forces orders. ``force`` (a divisional commander's division, with
corps units joining it, or a lone cavalry brigade, goes under a concealment marker), ``breed``
(a concealed force breeds a decoy), ``reveal`` (a force turns back into its units, which
deploy), ``detach`` (order a unit detached from its division, or back in it, in the Command
Phase), ``scout`` (a force releases scouts), ``forced`` (a force force-marches this phase),
``plan`` and ``unplan`` (a force's deployment plan) and ``react`` (a revealed force's owner
answers at once: fire, charge or hold). A concealed force moves with ``/move``, naming its marker.

Thin commands: each turns the interaction into a ``rules.concealed.commands`` record and calls
``Umpire.handle``; the answer goes to the asking player alone, and the umpire's reports to each
side go out through the outbox. Every order of the module is one method below, built the same
way (``record`` and ``_give``). Marker arguments complete the player's own markers only, each
labelled with what is under it; what the player submits is read again by the umpire, which
answers a name of an enemy marker exactly as a name of no marker at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands
from discord.ext import commands

from bot import autocomplete as ac
from bot.buttons import bot_of
from bot.cogs import Interaction, give_order, unit_list
from bot.errors import order_record
from bot.game_choice import GameArg, game_for_autocomplete
from bot.replies import thinking
from rules.commands import Answer, GameCommand
from rules.concealed.commands import (
    BreedDecoy,
    ClearConcealPlan,
    ConcealForce,
    ConcealPlan,
    ForceMarch,
    MarkDetached,
    ReleaseScouts,
    Unconceal,
)
from umpire.modules.concealed import Concealing, concealed_choices_for

if TYPE_CHECKING:
    from bot.client import VedetteBot

Choices = list[app_commands.Choice[str]]

GAME_HELP = "Which game (needed only if you are in several and not in the game's channel)"
LEADER_HELP = "A divisional commander (his division conceals with him), or a lone cavalry brigade"
JOIN_HELP = ("Units directly under the division's corps that join it (its artillery, the corps "
             "commander and HQ), separated by commas")
MARKER_HELP = "One of your concealment markers, e.g. 'marker 4821'"
UNIT_HELP = "One of your units"
SCOUTS_HELP = ("Up to one cavalry unit and any skirmishers under the marker, separated by "
               "commas")
FORCED_HELP = "Forced-march MPs each unit may add this phase (0 takes it back)"
PLACE_HELP = "here (the marker's hex) or a direction from it: N, NE, SE, S, SW, NW"
FORMATION_HELP = "The formation it sets up in (empty: the rule's)"
PLAN_UNIT_HELP = "One unit under the marker (empty: the whole force's plan)"
QUESTION_HELP = "The question's number, as the message asking it gives it (e.g. confederate:q1)"
CHOICE_HELP = "fire or charge at the unit that found the force, or hold"
DETACHED_HELP = ("yes: detached from its division (it stays on the map when the division "
                 "conceals); no: back with its division")


#: The refusal of an order whose fields are out of bounds.
TOO_LONG = ("that order is too long or empty: name up to twenty units of up to 100 "
            "characters each")


def concealing(what: Concealing, context: str = "", *, listed: bool = False) -> ac.Completer:
    """A completer of what a Concealed Forces order may name now (``Umpire.concealed_choices``):
    ``context`` is the field naming the leader or marker the list depends on; ``listed``, a
    list of units separated by commas (the last item completed)."""
    async def complete(interaction: Interaction, current: str) -> Choices:
        game_id = await game_for_autocomplete(interaction)
        if game_id is None:
            return []
        umpire = bot_of(interaction).umpire
        # a boolean field typed False is a value, not an empty field ("detached: False")
        value = getattr(interaction.namespace, context, None) if context else None
        given = "" if value is None else str(value)
        try:
            found = await concealed_choices_for(umpire, game_id, interaction.user.id, what,
                                               given)
            known = (await umpire.own_unit_choices(game_id, interaction.user.id)
                     if listed else [])
        except Exception:
            ac.log.debug("no %s choices for game %s", what, game_id, exc_info=True)
            return []
        return (ac.unit_list_choices(current, known, found) if listed
                else ac.named(found, current))
    return complete


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
@app_commands.allowed_installs(guilds=True, users=False)
class ConcealedCog(commands.GroupCog, group_name="conceal",
                 group_description="Concealed forces: markers that hide a division or a decoy"):
    def __init__(self, bot: VedetteBot) -> None:
        self.bot = bot
        super().__init__()

    async def _give(self, interaction: Interaction, game: str | None,
                    command: GameCommand) -> None:
        await thinking(interaction)
        await give_order(interaction, game, command)

    @app_commands.command(name="force", description="Start of your movement phase: put a "
                                                    "division (or a lone cavalry brigade) under "
                                                    "a concealment marker")
    @app_commands.describe(leader=LEADER_HELP, join=JOIN_HELP, game=GAME_HELP)
    @app_commands.autocomplete(leader=concealing(Concealing.LEADER),
                               join=concealing(Concealing.JOIN, "leader", listed=True))
    async def force(self, interaction: Interaction, leader: app_commands.Range[str, 1, 100],
                    join: app_commands.Range[str, 1, 1000] | None = None,
                    game: GameArg | None = None) -> None:
        command = order_record(ConcealForce, TOO_LONG, leader=leader, join=unit_list(join or ""))
        await self._give(interaction, game, command)

    @app_commands.command(name="breed", description="Start of your movement phase: a concealed "
                                                    "force breeds a decoy in its hex")
    @app_commands.describe(marker=MARKER_HELP, game=GAME_HELP)
    @app_commands.autocomplete(marker=concealing(Concealing.BREEDING))
    async def breed(self, interaction: Interaction, marker: app_commands.Range[str, 1, 100],
                    game: GameArg | None = None) -> None:
        await self._give(interaction, game, order_record(BreedDecoy, TOO_LONG, marker=marker))

    @app_commands.command(name="reveal", description="Start of your movement phase: a concealed "
                                                     "force turns back into its units")
    @app_commands.describe(marker=MARKER_HELP, game=GAME_HELP)
    @app_commands.autocomplete(marker=concealing(Concealing.REVEALING))
    async def reveal(self, interaction: Interaction, marker: app_commands.Range[str, 1, 100],
                     game: GameArg | None = None) -> None:
        await self._give(interaction, game, order_record(Unconceal, TOO_LONG, marker=marker))

    @app_commands.command(name="detach", description="Command Phase: detach a unit from its "
                                                     "division, or send it back (from your next "
                                                     "movement phase)")
    @app_commands.describe(unit=UNIT_HELP, detached=DETACHED_HELP, game=GAME_HELP)
    @app_commands.autocomplete(unit=concealing(Concealing.DETACHING, "detached"))
    async def detach(self, interaction: Interaction, unit: app_commands.Range[str, 1, 100],
                     detached: bool = True, game: GameArg | None = None) -> None:
        command = order_record(MarkDetached, TOO_LONG, unit=unit, detached=detached)
        await self._give(interaction, game, command)

    @app_commands.command(name="scout", description="Start of your movement phase: a concealed "
                                                    "division releases scouts")
    @app_commands.describe(marker=MARKER_HELP, units=SCOUTS_HELP, game=GAME_HELP)
    @app_commands.autocomplete(marker=concealing(Concealing.SCOUTING),
                               units=concealing(Concealing.SCOUTS, "marker", listed=True))
    async def scout(self, interaction: Interaction, marker: app_commands.Range[str, 1, 100],
                    units: app_commands.Range[str, 1, 1000], game: GameArg | None = None) -> None:
        command = order_record(ReleaseScouts, TOO_LONG, marker=marker, units=unit_list(units))
        await self._give(interaction, game, command)

    @app_commands.command(name="forced", description="Your movement phase: a concealed force "
                                                     "force-marches (secret straggler checks)")
    @app_commands.describe(marker=MARKER_HELP, mp=FORCED_HELP, game=GAME_HELP)
    @app_commands.autocomplete(marker=concealing(Concealing.FORCING))
    async def forced(self, interaction: Interaction, marker: app_commands.Range[str, 1, 100],
                     mp: app_commands.Range[int, 0, 12], game: GameArg | None = None) -> None:
        command = order_record(ForceMarch, TOO_LONG, marker=marker, mp=mp)
        await self._give(interaction, game, command)

    @app_commands.command(name="plan", description="Where one unit of a concealed force sets up "
                                                   "when the force deploys (secret)")
    @app_commands.describe(marker=MARKER_HELP, unit=UNIT_HELP, place=PLACE_HELP,
                           formation=FORMATION_HELP, game=GAME_HELP)
    @app_commands.autocomplete(marker=concealing(Concealing.PLANNING),
                               unit=concealing(Concealing.PLAN_UNITS, "marker"),
                               formation=ac.formations)
    async def plan(self, interaction: Interaction, marker: app_commands.Range[str, 1, 100],
                   unit: app_commands.Range[str, 1, 100], place: app_commands.Range[str, 1, 20],
                   formation: app_commands.Range[str, 1, 20] | None = None,
                   game: GameArg | None = None) -> None:
        command = order_record(ConcealPlan, TOO_LONG, marker=marker, unit=unit, place=place,
                               formation=formation or "")
        await self._give(interaction, game, command)

    @app_commands.command(name="unplan", description="Withdraw a deployment plan: the units "
                                                     "deploy by the rule")
    @app_commands.describe(marker=MARKER_HELP, unit=PLAN_UNIT_HELP, game=GAME_HELP)
    @app_commands.autocomplete(marker=concealing(Concealing.UNPLANNING),
                               unit=concealing(Concealing.PLANNED, "marker"))
    async def unplan(self, interaction: Interaction, marker: app_commands.Range[str, 1, 100],
                     unit: app_commands.Range[str, 1, 100] | None = None,
                     game: GameArg | None = None) -> None:
        command = order_record(ClearConcealPlan, TOO_LONG, marker=marker, unit=unit or "")
        await self._give(interaction, game, command)

    @app_commands.command(name="react", description="A revealed force of yours answers at once: "
                                                    "fire, charge or hold")
    @app_commands.describe(question=QUESTION_HELP, choice=CHOICE_HELP, game=GAME_HELP)
    @app_commands.choices(choice=[app_commands.Choice(name=c, value=c)
                                  for c in ("fire", "charge", "hold")])
    async def react(self, interaction: Interaction, question: app_commands.Range[str, 1, 60],
                    choice: app_commands.Choice[str], game: GameArg | None = None) -> None:
        command = order_record(Answer, TOO_LONG, question=question, choice=choice.value)
        await self._give(interaction, game, command)


async def setup(bot: VedetteBot) -> None:
    """The extension's entry point (``VedetteBot.load_extension``)."""
    await bot.add_cog(ConcealedCog(bot))
