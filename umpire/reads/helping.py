"""``/help``: the commands of the phase a player's side is in and what it can do now.

Written from what the player's side may know only: the public turn and phase, and the side's
own options (``rules.turn.idle.side_options``, read from its own view). Whether an enemy side has
finished a phase played at once is never said (ruling INFO-9): a side that has finished hears
only that it has. Someone who plays no side in the game hears the general commands.
"""

from __future__ import annotations

import functools
from pathlib import Path

from rules.modules.registry import in_force
from rules.scenario.markup import plain
from rules.state import GameState
from rules.turn.idle import SideOptions, side_options
from rules.turn.status import GameStatus
from umpire.answers import Reply
from umpire.base import UmpireBase
from umpire.clock.phase_clock import step_clock
from umpire.words.deadlines import PhaseDeadline, orders_due

#: The players' guide, as the bot's own files hold it.
GUIDE_FILE = Path(__file__).resolve().parents[2] / "docs" / "playing.md"
#: The line pointing to the whole guide when no address for the guides is set: the guide comes
#: with the answer, as a file Discord shows in place.
GUIDE = "The whole guide for players is attached (playing.md): open it to read it here."
#: The same, where the bot's files lack the guide.
GUIDE_NAMED = "The whole guide: docs/playing.md (in the Vedette repository)."


def guide(docs_url: str = "") -> str:
    """The line pointing to the whole guide: a link to ``playing.md`` in the folder the guides
    are published in (``VEDETTE_DOCS_URL``); when none is set, the guide goes with the answer
    (``guide_file``), or, lacking it, its name in the repository."""
    if not docs_url:
        return GUIDE if guide_file() is not None else GUIDE_NAMED
    return f"The whole guide: [Playing with Vedette]({docs_url.rstrip('/')}/playing.md)"


@functools.cache
def guide_file() -> bytes | None:
    """The players' guide, read once (``None`` if the bot's files lack it)."""
    try:
        return GUIDE_FILE.read_bytes()
    except OSError:
        return None


def with_guide(text: str, docs_url: str) -> Reply:
    """``text`` as an answer, with the guide attached when no address for it is set."""
    attached = guide_file() if not docs_url else None
    if attached is None:
        return Reply(text)
    return Reply(text, image=attached, image_name=GUIDE_FILE.name)


#: What anyone can do, in or out of a game.
GENERAL = ("**Vedette: commands**\n"
           "- /game create, /game join, /game leave, /game start, /game status, /game end\n"
           "- /map, /units, /log, /inbox: what your side knows, answered to you alone "
           "(/map whole:true for the whole board, /map stack:<hex> for what is there)\n"
           "- /done: your side has finished the phase\n"
           "- /host ...: the host's tools (pause, endphase, correct, seat, unseat)\n"
           "- /settings: your own settings for every game (preview:on|off for moves)\n"
           "- /help: this, with your phase's commands when you play in a game")

#: The commands of each core action a phase may allow (the ruleset's words); a rule module's
#: are in its spec (``ModuleSpec.phase_commands``).
ACTION_COMMANDS: dict[str, tuple[str, ...]] = {
    "move": ("/move",),
    "formation": ("/formation",),
}


def phase_commands(state: GameState) -> tuple[str, ...]:
    """The commands the current step allows under the rule modules in force, each once, less
    those the game's ruleset gives a module no means to play (``RuleModule.plays``: no fire
    table, no ``/fire``; ruling ORD-57)."""
    step = state.current
    out: dict[str, None] = {}
    for action in sorted(step.actions):
        for name in ACTION_COMMANDS.get(action, ()):
            out.setdefault(name, None)
        for module in in_force(state.modules):
            spec = module.spec
            for name in spec.phase_commands.get(action, ()) if spec is not None else ():
                if module.plays(state, name):
                    out.setdefault(name, None)
    return tuple(out)


def help_text(state: GameState, game_id: str, side: str | None,
              deadline: PhaseDeadline | None = None, docs_url: str = "") -> str:
    """The help for a player of ``side`` in the game (``None``: plays no side in it);
    ``deadline``: the current phase's, told to a side still at it. It ends with the link to
    the whole guide under ``docs_url``."""
    if side is None:
        return help_text_general(docs_url)
    lines = [f"**Game `{plain(game_id)}`: you command {plain(state.side_name(side))}.**"]
    if state.status == GameStatus.SETUP:
        lines.append("The game has not started yet: the host starts it with /game start.")
    elif state.status == GameStatus.ENDED:
        lines.append("The game is over: /log and /inbox keep what you were told.")
    elif state.status == GameStatus.PAUSED:
        lines.append(f"Turn {state.turn}: the host has paused the game; orders wait.")
        if deadline is not None and side in state.acting_sides():
            lines.append(orders_due(deadline))
    else:
        lines += _now(state, side, side_options(state, side), deadline)
    lines += ["", GENERAL, "", guide(docs_url)]
    return "\n".join(lines)


def _now(state: GameState, side: str, options: SideOptions,
         deadline: PhaseDeadline | None = None) -> list[str]:
    step = state.current
    whose = f"{plain(state.side_name(step.side))} " if step.side else ""
    heading = f"Turn {state.turn}: {whose}{plain(step.title)}."
    if side not in step.acting(state.sides):
        return [heading, "Nothing waits for you in this phase."]
    if side in state.done:
        return [heading, "Your side has finished this phase."]
    out = [heading]
    if deadline is not None:
        out.append(orders_due(deadline))
    commands = phase_commands(state)
    if commands:
        out.append("This phase's commands: " + ", ".join(commands) + ", /done.")
    if options.offers:
        out.append("You can now:")
        out += [f"- {offer.words}" + (f": {_names(offer.units)}" if offer.units else "")
                for offer in options.offers]
    else:
        out.append(f"Nothing your side could do now ({options.why_idle}): /done ends it.")
    return out


def _names(names: tuple[str, ...], shown: int = 6) -> str:
    more = len(names) - shown
    return ", ".join(plain(n) for n in names[:shown]) + (f" and {more} more" if more > 0
                                                        else "")


class Helping(UmpireBase):
    """``/help`` for a player (or anyone)."""

    async def help_for(self, game_id: str | None, user_id: int) -> Reply:
        """The help for ``user_id`` in the game ``game_id`` (``None``: no game): the phase's
        commands for their side and what it can do now, or the general commands when they
        play no side in it."""
        if game_id is None:
            return with_guide(help_text_general(self.docs_url), self.docs_url)
        game = await self.repository.get(game_id)
        player = await self.store.get_player(game_id, user_id)
        now = self.store.now()
        clock = await step_clock(self.store, game_id, game.state, now)
        return with_guide(help_text(game.state, game_id, player.side if player else None,
                                    None if clock is None else clock.shown(now),
                                    self.docs_url), self.docs_url)


def help_text_general(docs_url: str = "") -> str:
    """The help for someone in no game."""
    return f"{GENERAL}\n\n{guide(docs_url)}"
