"""The reaction window's clock: a question whose time is up gets its default.

A rule may give a side a number of seconds to answer a question put to it at once
(``rules.turn.reaction``). The rules have no clock; the umpire has. ``time_out_questions`` finds the
open questions whose time, counted from when their ``question_asked`` event was stored, has run
out by ``now``, and gives for each the host's ``AnswerTimeout`` command, logged like any other
(so ``vedette verify`` decides it again). Its request id is the question's, so that two
processes, or a retry, never apply a deadline twice. Whoever runs the game calls it now and
then: the bot's outbox loop calls ``time_out_all`` on every pass, in every process sharing the
database. A process that finds the default already applied by another (the request is answered
"already accepted", or the question is no longer open) counts nothing and goes on.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from rules import commands as cmd
from rules.turn.reaction import Question, open_questions
from rules.turn.status import GameStatus
from storage.clock import utc_now
from umpire.answers import UmpireError

if TYPE_CHECKING:  # the routing words a question's deadline from ``times_out_at``
    from umpire.service import Umpire


def times_out_at(asked: datetime, question: Question) -> datetime | None:
    """When the clock gives ``question`` its default: its ``seconds`` after ``asked``, the
    moment its ``question_asked`` event was stored. ``None``: it waits for the step's end."""
    if question.seconds is None:
        return None
    return asked + timedelta(seconds=question.seconds)


async def time_out_questions(umpire: Umpire, game_id: str, now: datetime | None = None
                             ) -> list[str]:
    """Apply the default of every open question of the game whose time has run out; returns
    their ids."""
    now = now or utc_now()
    state = await umpire.repository.state_for(game_id)
    timed = {q.id: q for q in open_questions(state) if q.seconds is not None}
    if not timed or state.status != GameStatus.ACTIVE:
        return []
    record = await umpire.store.get_game(game_id)
    assert record is not None
    asked_at: dict[str, datetime] = {}
    for event in await umpire.store.events(game_id):
        if event.type == "question_asked":
            asked_at[str(event.payload["question"]["id"])] = event.created_at
    done: list[str] = []
    for qid, question in timed.items():
        asked = asked_at.get(qid)
        due = None if asked is None else times_out_at(asked, question)
        if due is None or now < due:
            continue
        try:
            reply = await umpire.handle(game_id, record.host_user_id,
                                        cmd.AnswerTimeout(question=qid), is_admin=True,
                                        request_id=f"answer-timeout:{game_id}:{qid}")
        except UmpireError:
            continue  # answered meanwhile (here or in another process): nothing to apply
        if not reply.repeated:
            done.append(qid)
    return done


async def time_out_all(umpire: Umpire, now: datetime | None = None) -> list[tuple[str, str]]:
    """``time_out_questions`` for every game in play; returns (game id, question id) for each
    question whose default was applied. A deadline survives a restart: it is counted from the
    stored event, not kept in memory."""
    done: list[tuple[str, str]] = []
    for game in await umpire.store.list_games(status=GameStatus.ACTIVE):
        done += [(game.id, qid) for qid in await time_out_questions(umpire, game.id, now)]
    return done
