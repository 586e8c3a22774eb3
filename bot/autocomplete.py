"""Autocomplete: the player's own units and markers, the scenario's public named places,
formations, sides and scenarios. At most 25 choices, answered from what the umpire holds in
memory; whatever the player finally submits is validated again by the umpire. Never an enemy unit
or marker: unit names come from ``Umpire.unit_names`` (lists of units, completed to ids, from
``Umpire.own_unit_choices``: ruling ORD-10) and markers from ``Umpire.marker_choices``, which list
the asking player's own side only (a marker's label says what is under it, which only its owner
knows). Names match best where they begin, then where a word begins (ruling ORD-16)."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands

from bot.buttons import bot_of
from bot.game_choice import game_for_autocomplete
from rules.forces.words import FORMATIONS_BY_KIND
from umpire.games import catalog
from umpire.reads.naming import Named, complete_list, ranked
from umpire.service import UmpireError

Interaction = discord.Interaction[Any]
Choices = list[app_commands.Choice[str]]

MAX_CHOICES = 25
MAX_VALUE = 100
ROUTE_WORDS = ("road",)
FORMATIONS = sorted({str(f) for kinds in FORMATIONS_BY_KIND.values() for f in kinds})

log = logging.getLogger("vedette.bot")


def matching(names: list[str], typed: str) -> Choices:
    """Names starting with what was typed first, then names with a word starting with it
    ("Ward" offers Ward's brigade before Howard), then names containing it
    (``umpire.reads.naming.rank``)."""
    found = list(dict.fromkeys(names[i] for i in ranked(names, typed)))
    return [app_commands.Choice(name=n[:MAX_VALUE], value=n[:MAX_VALUE])
            for n in found[:MAX_CHOICES]]


def labelled(choices: list[tuple[str, str]], typed: str) -> Choices:
    """(value, label) pairs, best match of the label first, as ``matching``."""
    found = [choices[i] for i in ranked([label for _, label in choices], typed)]
    return [app_commands.Choice(name=label[:MAX_VALUE], value=value[:MAX_VALUE])
            for value, label in found[:MAX_CHOICES]]


def unit_list_choices(current: str, known: list[Named], offered: list[Named]) -> Choices:
    """Completions of the last item of a list of units or commands: each value the ids
    separated by commas, shown by the names (``umpire.reads.naming.complete_list``), so that no
    name's own commas can split it wrongly."""
    return [app_commands.Choice(name=name, value=value)
            for value, name in complete_list(current, known, offered)]


async def _own_unit_names(interaction: Interaction, game_id: str) -> list[str]:
    try:
        return await bot_of(interaction).umpire.unit_names(game_id, interaction.user.id)
    except Exception:
        log.debug("no unit names for game %s", game_id, exc_info=True)
        return []


async def _own_markers(interaction: Interaction, game_id: str) -> list[tuple[str, str]]:
    try:
        return await bot_of(interaction).umpire.marker_choices(game_id, interaction.user.id)
    except Exception:
        log.debug("no markers for game %s", game_id, exc_info=True)
        return []


async def units(interaction: Interaction, current: str) -> Choices:
    """What ``/move`` may name now: the asking player's own markers that may move (a concealed
    force moves by its marker), each labelled with what is under it, then his own units that
    may move; never a unit inside a marker (``Umpire.mover_choices``: ruling ORD-56)."""
    game_id = await game_for_autocomplete(interaction)
    if game_id is None:
        return []
    try:
        found = await bot_of(interaction).umpire.mover_choices(game_id, interaction.user.id)
    except Exception:
        log.debug("no movers for game %s", game_id, exc_info=True)
        return []
    return named(found, current)


def named(found: list[Named], current: str) -> Choices:
    """Choices of one unit or marker each, best match of the name first, completing to the
    ref an order reads."""
    return labelled([(n.ref, n.name) for n in found], current)


Completer = Callable[[Interaction, str], Coroutine[Any, Any, Choices]]


def offered(action: str) -> Completer:
    """A completer of one of the asking player's units the rules offer for ``action`` now
    (``Umpire.offer_choices``): the list is made by the order's own check."""
    async def complete(interaction: Interaction, current: str) -> Choices:
        game_id = await game_for_autocomplete(interaction)
        if game_id is None:
            return []
        try:
            found = await bot_of(interaction).umpire.offer_choices(
                game_id, interaction.user.id, action)
        except Exception:
            log.debug("no %s choices for game %s", action, game_id, exc_info=True)
            return []
        return named(found, current)
    return complete


async def own_units(interaction: Interaction, current: str) -> Choices:
    """A list of the asking player's own units, any of them (never an enemy's)."""
    game_id = await game_for_autocomplete(interaction)
    if game_id is None:
        return []
    try:
        known = await bot_of(interaction).umpire.own_unit_choices(game_id, interaction.user.id)
    except Exception:
        return []
    return unit_list_choices(current, known, known)


async def unit_names(interaction: Interaction, current: str) -> Choices:
    """The asking player's own units only (no markers)."""
    game_id = await game_for_autocomplete(interaction)
    if game_id is None:
        return []
    return matching(await _own_unit_names(interaction, game_id), current)


async def markers(interaction: Interaction, current: str) -> Choices:
    """The asking player's own markers, each labelled with what is under it; never an
    enemy's."""
    game_id = await game_for_autocomplete(interaction)
    if game_id is None:
        return []
    return labelled(await _own_markers(interaction, game_id), current)


async def _places(interaction: Interaction) -> list[str]:
    game_id = await game_for_autocomplete(interaction)
    if game_id is None:
        return []
    try:
        return await bot_of(interaction).umpire.place_names(game_id)
    except Exception:
        log.debug("no place names for game %s", game_id, exc_info=True)
        return []


async def places(interaction: Interaction, current: str) -> Choices:
    """The scenario's named places (printed on every map)."""
    return matching(await _places(interaction), current)


def route_choices(current: str, place_names: list[str]) -> list[str]:
    """Completions of the waypoint being typed at the end of a route: a place name (which may
    have several words: "road Wilderness Ch" completes to "road Wilderness Church") or the word
    ``road``. What was typed so far comes first."""
    if len(current) > MAX_VALUE:
        return []
    out: list[str] = [current.strip()] if current.strip() else []
    # Where a waypoint may begin: the start, and after every separator that ends a whole
    # waypoint (so "Wilderness Ch" is never read as the waypoint "Wilderness" and then "Ch").
    starts = [0] + [m.end() for m in re.finditer(r"[\s,;>]+", current)
                    if _ends_waypoint(current[:m.start()], place_names)]
    for name in [*place_names, *ROUTE_WORDS]:
        for at in starts:
            tail = _spaced(current[at:])
            if (tail or at == len(current)) and _spaced(name).startswith(tail):
                choice = (current[:at] + name).strip()
                if choice not in out and len(choice) <= MAX_VALUE:
                    out.append(choice)
                break
    return out[:MAX_CHOICES]


def _spaced(text: str) -> str:
    """Text as route words are compared: any case, runs of spaces as one."""
    return " ".join(text.lower().split())


def _ends_waypoint(before: str, place_names: list[str]) -> bool:
    """Whether the route typed so far ends with a whole waypoint: a map label (it has a
    digit), a route word, or a place name."""
    words = before.split()
    if not words:
        return False
    last = words[-1].lower()
    if last in ROUTE_WORDS or any(ch.isdigit() for ch in last):
        return True
    text = f" {_spaced(re.sub(r'[,;>]', ' ', before))}"
    return any(text.endswith(f" {_spaced(p)}") for p in place_names)


async def route(interaction: Interaction, current: str) -> Choices:
    names = route_choices(current, await _places(interaction))
    return [app_commands.Choice(name=n, value=n) for n in names]


async def formations(interaction: Interaction, current: str) -> Choices:
    """The formations the unit named in ``unit:`` could change to (one of the player's own);
    while it names none of them, every formation of the rules (public words)."""
    game_id = await game_for_autocomplete(interaction)
    unit = str(getattr(interaction.namespace, "unit", "") or "")
    found: list[str] | None = None
    if game_id is not None and unit.strip():
        try:
            found = await bot_of(interaction).umpire.formation_choices(game_id,
                                                                     interaction.user.id, unit)
        except Exception:
            log.debug("no formations for game %s", game_id, exc_info=True)
    return matching(FORMATIONS if found is None else found, current)


async def sides(interaction: Interaction, current: str) -> Choices:
    """The sides of the game being joined (public: they are in the scenario)."""
    game_id = await game_for_autocomplete(interaction)
    if game_id is None:
        return []
    try:
        sides = await bot_of(interaction).umpire.sides(game_id)
    except UmpireError:
        return []
    key = current.strip().lower()
    return [app_commands.Choice(name=f"{name} ({side})"[:MAX_VALUE], value=side)
            for side, name in sides
            if key in side.lower() or key in name.lower()][:MAX_CHOICES]


async def scenarios(interaction: Interaction, current: str) -> Choices:
    """The shipped scenarios and those in the host's folder (``VEDETTE_SCENARIOS``), by name."""
    extra = bot_of(interaction).umpire.scenarios
    key = current.strip().lower()
    out: Choices = []
    for entry in catalog.listing(extra):
        if key in entry.name.lower() or key in entry.title.lower():
            out.append(app_commands.Choice(name=f"{entry.name}: {entry.title}"[:MAX_VALUE],
                                           value=entry.name[:MAX_VALUE]))
    return out[:MAX_CHOICES]
