"""The quiet inbox (``umpire.games.inbox``): a batch's messages to a side are one message; what
a side learns while it does not act waits for its next dossier; secret rolls sit after the
result they decide."""

from __future__ import annotations

from pathlib import Path

from rules.combat.commands import Assault
from rules.commands import Done
from storage.held_news import Held
from storage.records import Recipient
from storage.store import Store
from tests.support.combat_games import CONFEDERATE, HOST, SEED, UNION, variant
from umpire.games.inbox import fold
from umpire.games.routing import Message, Piece
from umpire.reads.maps import MapMaker
from umpire.service import Umpire
from umpire.words.dossier import Section, parts_of

DONE = {"kind": "done", "game": "g1", "side": "blue"}


def news(side: str, text: str, section: Section = Section.HAPPENED) -> Message:
    return Message("side", side, text, section=section)


def held(*texts: str) -> list[Held]:
    """News held earlier, of what happened to the side's units."""
    return [Held("happened", t) for t in texts]


def roll(side: str, text: str) -> Message:
    return Message("side", side, text, piece=Piece.ROLL)


def call(side: str, text: str) -> Message:
    return Message("side", side, text, map_for=f"window:{side}", buttons=(DONE,),
                   piece=Piece.CALL)


def public(text: str) -> Message:
    return Message("public", "", text)


def test_news_in_the_enemys_phase_is_held_not_sent() -> None:
    folded = fold([public("Grey moves."), news("blue", "Grey cavalry seen at A0304."),
                   roll("blue", "Secret roll: 4."), news("blue", "Under fire: blue-1 holds.")],
                  {}, commanding="grey")
    assert folded.messages == [public("Grey moves.")]
    assert folded.hold == {"blue": held("Grey cavalry seen at A0304.",
                                        "Under fire: blue-1 holds.", "Secret roll: 4.")}
    assert folded.release == frozenset()


def test_the_call_for_orders_opens_with_everything_held_since_the_last_message() -> None:
    folded = fold([public("Blue's phase."), news("blue", "Reinforcements at A0101."),
                   call("blue", "Your orders, please.")],
                  {"blue": held("Grey cavalry seen at A0304.", "Lost from sight: grey-1.")},
                  commanding="grey")
    assert [m.kind for m in folded.messages] == ["public", "side"]
    dossier = folded.messages[1]
    assert dossier.text == ("Grey cavalry seen at A0304.\n\nLost from sight: grey-1.\n\n"
                            "Reinforcements at A0101.\n\nYour orders, please.")
    assert dossier.map_for == "window:blue" and dossier.buttons == (DONE,)
    assert dossier.piece is Piece.NEWS and not dossier.answers
    assert folded.release == {"blue"} and folded.hold == {}


def test_a_sides_own_command_is_answered_in_one_message_with_all_it_caused() -> None:
    folded = fold([roll("blue", "Secret roll for morale: 9."),
                   news("blue", "Under fire: grey-1 loses 1."),
                   roll("blue", "Secret roll for stragglers: 2."),
                   news("blue", "Stragglers: none."), news("grey", "Fired on by blue-1.")],
                  {"blue": held("old news")}, commanding="blue", acknowledged="Fire: blue-1.")
    [mine] = [m for m in folded.messages if m.target == "blue"]
    assert mine.answers
    # What the side held goes first: the answer is the side's message.
    assert mine.text == ("old news\n\nUnder fire: grey-1 loses 1.\n\n"
                         "Secret roll for morale: 9.\n\nStragglers: none.\n\n"
                         "Secret roll for stragglers: 2.")
    assert folded.answer == "Fire: blue-1.\n\n" + mine.text
    assert folded.release == {"blue"} and folded.hold == {"grey": held("Fired on by blue-1.")}


def test_a_phase_of_the_sides_that_ends_or_begins_is_told_at_once() -> None:
    passed = news("blue", "Fire Phase passed: none of your units has a target in sight.")
    folded = fold([passed], {"blue": held("Grey cavalry seen.")}, commanding="grey",
                  acting={"blue", "grey"})
    assert folded.messages == [Message("side", "blue", "Grey cavalry seen.\n\n" + passed.text)]
    assert folded.release == {"blue"} and folded.answer is None


def test_an_answer_that_repeats_the_first_report_says_it_once() -> None:
    folded = fold([news("blue", "Assault: grey-1 retreats.")], {}, commanding="blue",
                  acknowledged="Assault: grey-1 retreats.")
    assert folded.answer == "Assault: grey-1 retreats."


def test_a_question_goes_at_once_with_what_the_side_held() -> None:
    question = Message("side", "blue", "Return fire? Answer yes or no.",
                       piece=Piece.QUESTION)
    folded = fold([news("blue", "Grey infantry at A0405."), question],
                  {"blue": held("Grey cavalry seen at A0304.")}, commanding="grey")
    [asked] = folded.messages
    assert asked.text == ("Grey cavalry seen at A0304.\n\nGrey infantry at A0405.\n\n"
                          "Return fire? Answer yes or no.")
    assert folded.release == {"blue"}


def test_the_end_of_the_game_tells_every_side_what_it_still_held() -> None:
    folded = fold([public("The game is over.")],
                  {"blue": held("Grey cavalry seen."), "grey": []}, ending=True)
    assert folded.messages == [public("The game is over."),
                               Message("side", "blue", "Grey cavalry seen.")]
    assert folded.release == {"blue"}


def test_a_roll_with_no_result_after_it_comes_before_the_call() -> None:
    folded = fold([roll("blue", "Secret roll for acceptance: 10."),
                   call("blue", "Your orders, please.")], {}, commanding="grey")
    assert folded.messages[0].text == "Secret roll for acceptance: 10.\n\nYour orders, please."


def test_repeated_words_are_told_once() -> None:
    folded = fold([news("blue", "End of turn: blue-1 rallies."),
                   news("blue", "End of turn: blue-1 rallies.")], {}, commanding="grey")
    assert folded.hold == {"blue": held("End of turn: blue-1 rallies.")}


async def test_a_three_brigade_assault_is_two_messages_and_none_to_the_enemy(
        tmp_path: Path) -> None:
    """The Union, two players, assaults with three brigades: the player who gave it reads one
    answer, the side-mate one DM; the Confederates hear of it in their next dossier."""
    mate = UNION + 1
    scenario = variant(tmp_path, "three", ('at = "A0504"', 'at = "A0604"'),
                       ('at = "A0506"', 'at = "A0705"'), ('at = "A0208"', 'at = "A0703"'))
    async with Store.open(tmp_path / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(scenario), HOST, game_id="g1", seed=SEED)
        for user, side in ((UNION, "union"), (mate, "union"), (CONFEDERATE, "confederate")):
            await umpire.join("g1", user, side)
        await umpire.start("g1", HOST)
        for _ in range(30):
            state = await umpire.repository.state_for("g1")
            if (state.current.phase.id, state.current.side) == ("movement", "union"):
                break
            for side in state.acting_sides():
                for user in {"union": (UNION, mate), "confederate": (CONFEDERATE,)}[side]:
                    await umpire.handle("g1", user, Done())
        queued = await store.count_deliveries_for("g1", *RECIPIENTS)
        reply = await umpire.handle("g1", UNION, Assault(
            units=("Union Brigade", "Second Union Brigade", "Union Cavalry"),
            target="Rebel Brigade"))
        after = await store.deliveries_for("g1", *RECIPIENTS, offset=queued)
    assert reply.text.startswith("**Assault** on A0704")
    dms = [d for d in after if not (d.status == "sent" and d.attempts == 0)]
    assert [(d.kind, d.target) for d in dms] == [("player", str(mate))]
    assert 1 + len(dms) == 2  # the answer, and the side-mate's copy
    assert dms[0].text in reply.text  # the mate reads what the answer told, in one message
    held = (await _held(tmp_path / "v.db"))["confederate"]
    assert held[0].startswith("**Assaulted** at A0704")


RECIPIENTS = (Recipient("player", str(UNION)), Recipient("player", str(UNION + 1)),
              Recipient("player", str(CONFEDERATE)))


async def _held(db: Path) -> dict[str, list[str]]:
    async with Store.open(db) as store:
        return {side: [h.text for h in news]
                for side, news in (await store.held_news("g1")).items()}


def test_a_dossier_of_several_kinds_is_laid_out_in_sections_in_a_fixed_order() -> None:
    """Whatever order things happened in, the dossier reads: its title (the call's first line,
    with the phase and its deadline), what the troops saw, what happened to the side's units,
    its marches and markers, and what it may do now."""
    orders = Message("side", "blue", "Your orders, please: Blue Movement, turn 3.\nYou may:\n"
                     "- move", piece=Piece.CALL, section=Section.CALL)
    folded = fold([news("blue", "Your march reached A0606.", Section.MARCHES),
                   roll("blue", "Secret roll for morale: 9."),
                   news("blue", "Under fire: blue-1 holds."),
                   news("blue", "Grey cavalry seen at A0304.", Section.SEEN), orders],
                  {"blue": [Held("seen", "Grey infantry lost from sight.")]},
                  commanding="grey")
    [dossier] = folded.messages
    assert dossier.text == (
        "## Your orders, please: Blue Movement, turn 3.\n\n"
        "### What your troops saw\nGrey infantry lost from sight.\n\n"
        "Grey cavalry seen at A0304.\n\n"
        "### What happened to your units\nUnder fire: blue-1 holds.\n\n"
        "Secret roll for morale: 9.\n\n"
        "### Marches and markers\nYour march reached A0606.\n\n"
        "### What you may do now\nYou may:\n- move")
    assert parts_of(dossier.text)[0] == "## Your orders, please: Blue Movement, turn 3."
    assert [p.split("\n")[0] for p in parts_of(dossier.text)[1:]] == [
        "### What your troops saw", "### What happened to your units",
        "### Marches and markers", "### What you may do now"]


def test_held_news_keeps_its_section_for_the_dossier() -> None:
    folded = fold([news("blue", "Grey cavalry seen at A0304.", Section.SEEN),
                   roll("blue", "Secret roll: 4."),
                   news("blue", "Your marker moved.", Section.MARCHES)], {}, commanding="grey")
    assert folded.hold == {"blue": [Held("seen", "Grey cavalry seen at A0304."),
                                    Held("marches", "Your marker moved."),
                                    Held("marches", "Secret roll: 4.")]}


def test_an_answer_of_several_kinds_opens_with_the_acknowledgement() -> None:
    folded = fold([news("blue", "Grey cavalry seen at A0304.", Section.SEEN),
                   news("blue", "Under fire: grey-1 loses 1.")], {}, commanding="blue",
                  acknowledged="Fire: blue-1.")
    assert folded.answer is not None
    assert folded.answer.startswith("Fire: blue-1.\n\n### What your troops saw\n")
    assert "### What happened to your units\nUnder fire: grey-1 loses 1." in folded.answer
