"""The Previous and Next buttons under a replayed map (``/game replay``).

Their custom ids carry all they need, so they keep working after a restart:
``vedette:replay:<game>:<side>:<turn>``. A press asks the umpire again, as the presser: whoever
presses, and whatever the id says, they see only what the umpire lets them replay (a forged id
for the other side during play is refused with the words for a side that does not exist).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.buttons import GameButton, bot_of
from bot.cogs import in_game_server, is_admin
from bot.errors import Refused
from bot.messages import build
from bot.replies import send_notice
from bot.views import GAME_ID
from umpire.reads.replay import ReplayFrame

if TYPE_CHECKING:
    from bot.client import VedetteBot

Interaction = discord.Interaction[Any]
SIDE = r"[A-Za-z0-9_-]{1,40}"
IMAGE_NAME = "replay.png"


async def replay_frame(interaction: Interaction, game_id: str, side: str | None,
                       turn: int | None) -> ReplayFrame:
    """The frame the umpire lets this user see."""
    bot = bot_of(interaction)
    game = await bot.umpire.game(game_id)
    if game is None:
        raise Refused(f"there is no game {game_id[:40]!r}")
    return await bot.umpire.replay(game_id, interaction.user.id, side, turn,
                                   in_server=await in_game_server(interaction, game),
                                   is_admin=is_admin(interaction, game))


def frame_view(frame: ReplayFrame) -> discord.ui.View | None:
    """Previous and Next, where there is a turn before or after this one."""
    if frame.first == frame.last:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(ReplayButton(frame.game_id, frame.side, frame.turn - 1, "Previous",
                               disabled=frame.turn <= frame.first))
    view.add_item(ReplayButton(frame.game_id, frame.side, frame.turn + 1, "Next",
                               disabled=frame.turn >= frame.last))
    return view


class ReplayButton(GameButton,
                   template=re.compile(rf"vedette:replay:(?P<game>{GAME_ID}):(?P<side>{SIDE}):"
                                       r"(?P<turn>\d{1,4})")):
    """Turn the replay to another turn (the presser's own permissions apply)."""

    groups = (("game", str), ("side", str), ("turn", int))

    def __init__(self, game_id: str, side: str, turn: int, label: str = "Turn", *,
                 disabled: bool = False) -> None:
        super().__init__(game_id, f"vedette:replay:{game_id}:{side}:{max(0, turn)}", label,
                         discord.ButtonStyle.secondary, disabled=disabled)
        self.side = side
        self.turn = max(0, turn)

    async def press(self, interaction: Interaction, bot: VedetteBot) -> None:
        # Rebuilding a past turn may take a while: acknowledge first. A refusal comes as a
        # message of its own, and the replayed map stays as it was.
        await interaction.response.defer()
        frame = await replay_frame(interaction, self.game_id, self.side, self.turn)
        parts = build(frame.text, frame.image, IMAGE_NAME)
        await interaction.edit_original_response(
            content=parts.content, embeds=parts.embeds, attachments=parts.files,
            view=frame_view(frame))
        await send_notice(interaction)
