"""The buttons of a question put to a side at once (``rules.turn.reaction``): one record per
choice in the question's message (``NewDelivery.buttons``), which the front end turns into its
own buttons. A press is the presser's ``Answer``, decided by the rules like a typed one: a
press by anyone the question was not put to, for a choice not offered or after the answer, is
refused as such."""

from __future__ import annotations

from rules.turn.reaction import Question
from storage.json_codec import JsonObject

#: An answer button's record in a delivery.
ANSWER_ACTION = "answer"


def answer_buttons(game_id: str, question: Question) -> tuple[JsonObject, ...]:
    """One button per choice, in the question's order; the default one says so."""
    return tuple({"action": ANSWER_ACTION, "game": game_id, "question": question.id,
                  "choice": choice, "default": choice == question.default}
                 for choice in question.choices)
