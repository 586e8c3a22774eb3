"""The turn's status post through the umpire, on real database files: one post a turn in the
channel, edited as the phases pass; the players called in its first words only; nothing in it
that tells who finished first in a phase played at once (INFO-9); and the report the answer to
a command shows its player is not sent to them again (side-mates still get theirs)."""

from __future__ import annotations

from pathlib import Path

from rules import commands as cmd
from rules.surprise.commands import OrderSurpriseMove
from storage.records import DeliveryRecord, Recipient
from storage.store import Store
from tests.support.surprise import RULESET, SCENARIO
from umpire.reads.maps import MapMaker
from umpire.service import Umpire
from umpire.words.status_post import status_key

HOST, BLUE, BLUE_2, GREY = 1, 10, 11, 20
SEED = bytes(range(32))


def scenario_file(tmp_path: Path) -> Path:
    text = SCENARIO.read_text(encoding="utf-8").replace(
        'ruleset = "surprise.ruleset.toml"', f'ruleset = "{RULESET}"')
    path = tmp_path / "ground.toml"
    path.write_text(text, encoding="utf-8")
    return path


async def new_game(store: Store, scenario: Path, **options: str | int | bool) -> Umpire:
    """Blue with two players (BLUE and BLUE_2), Grey with one, started."""
    umpire = Umpire(store, maps=MapMaker(enabled=False))
    await umpire.create_game(str(scenario), HOST, game_id="g1", seed=SEED,
                             options=options or None)
    await umpire.join("g1", BLUE, "blue")
    await umpire.join("g1", BLUE_2, "blue")
    await umpire.join("g1", GREY, "grey")
    await umpire.start("g1", HOST)
    return umpire


async def to_players(store: Store) -> list[DeliveryRecord]:
    """Every delivery to a player, whatever its status."""
    return await store.deliveries_for("g1", *(Recipient("player", str(u))
                                              for u in (BLUE, BLUE_2, GREY)), limit=10_000)


async def public(store: Store) -> list[DeliveryRecord]:
    return [d for d in await store.pending_deliveries("g1", limit=10_000) if d.kind == "public"]


async def play_turns(umpire: Umpire, turns: int) -> None:
    # Blue is shared: its step ends when both its players are done (ruling FLOW-1).
    users = {"blue": (BLUE, BLUE_2), "grey": (GREY,)}
    while ((state := await umpire.repository.state_for("g1")).turn <= turns
           and state.status == "active"):
        for side in state.acting_sides():
            for user in users[side]:
                await umpire.handle("g1", user, cmd.Done())


def posts(deliveries: list[DeliveryRecord]) -> list[DeliveryRecord]:
    """The public deliveries that post a message (the first of each edit key, and every one
    without a key); the others edit a post."""
    seen: set[str] = set()
    out = []
    for d in deliveries:
        if d.edit_key and d.edit_key in seen:
            continue
        seen.add(d.edit_key)
        out.append(d)
    return out


async def test_one_post_per_turn_edited_as_the_phases_pass(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store, scenario_file(tmp_path))
        start = len(await public(store))
        await play_turns(umpire, 3)
        played = (await public(store))[start - 1:]  # from turn 1's status post on
        # Every public delivery of play is a status edit: one post a turn, no other post.
        assert {d.edit_key for d in played} == {status_key(t) for t in (1, 2, 3, 4)}
        assert [d.edit_key for d in posts(played)] == [status_key(t) for t in (1, 2, 3, 4)]
        turn_1 = [d.text for d in played if d.edit_key == status_key(1)]
        assert turn_1[0].startswith("**Turn 1 - ")
        assert "Command Phase: now; every side gives its orders at once" in turn_1[0]
        assert "Blue Army Movement and Close Combat Phase: to come" in turn_1[0]
        # Its last words are the turn's record: every phase done.
        assert "Blue Army Movement and Close Combat Phase: done" in turn_1[-1]
        assert "now" not in turn_1[-1] and "to come" not in turn_1[-1]


async def test_the_turns_first_post_calls_every_player_and_edits_call_nobody(
        tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store, scenario_file(tmp_path))
        await play_turns(umpire, 2)
        played = [d for d in await public(store) if d.edit_key]
        first = posts(played)
        for d in first:  # the Command Phase, which every side plays: every seated player
            assert d.mentions == (BLUE, BLUE_2, GREY)
            assert d.text.endswith(f"\nTo act: <@{BLUE}> <@{BLUE_2}> <@{GREY}>")
        for d in played:
            if d not in first:
                assert d.mentions == () and "<@" not in d.text


async def test_mention_players_off_calls_nobody(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store, scenario_file(tmp_path), mention_players=False)
        await play_turns(umpire, 2)
        for d in await public(store):
            assert d.mentions == () and "To act" not in d.text


async def test_who_finished_first_never_shows_in_the_status(tmp_path: Path) -> None:
    """INFO-9: the side that finishes the Command Phase first changes nothing in the channel
    (not even an edit, whose time would tell); once both have finished, the post reads the
    same whichever finished first."""
    heard = []
    for n, order in enumerate(((BLUE, GREY), (GREY, BLUE))):
        async with Store.open(tmp_path / f"{n}.db") as store:
            umpire = await new_game(store, scenario_file(tmp_path))
            before = await public(store)
            await umpire.handle("g1", order[0], cmd.Done())
            assert await public(store) == before
            await umpire.handle("g1", order[1], cmd.Done())
            heard.append([(d.text, d.edit_key, d.mentions) for d in await public(store)])
    assert heard[0] == heard[1]


async def test_announce_finished_edits_the_post_with_the_finish(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store, scenario_file(tmp_path), announce_finished=True)
        await umpire.handle("g1", GREY, cmd.Done())
        last = (await public(store))[-1]
        assert last.edit_key == status_key(1) and last.mentions == ()
        assert "Command Phase: now; Grey Army has finished; waiting for Blue Army" in last.text


async def test_the_answered_report_is_kept_not_sent_again(tmp_path: Path) -> None:
    """Blue's march order: the answer shows the module's report to the player who gave it;
    their copy is stored as sent (it is in their inbox), their side-mate's waits to be sent,
    and what the answer does not show (nothing else here) is sent as usual."""
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store, scenario_file(tmp_path))
        mark = max(d.id for d in await store.pending_deliveries("g1", limit=10_000))
        reply = await umpire.handle("g1", BLUE, OrderSurpriseMove(
            force="1st Division, Blue Horse", route="road A2005"))
        new = [d for d in await to_players(store) if d.id > mark]
        mine = [d for d in new if d.target == str(BLUE)]
        mate = [d for d in new if d.target == str(BLUE_2)]
        assert [d.text for d in mine] == [d.text for d in mate]  # the same words for both
        [answered] = [d for d in mine if d.text == reply.text]
        assert answered.status == "sent" and answered.sent_at is not None
        assert all(d.status == "pending" for d in mine if d is not answered)
        assert all(d.status == "pending" for d in mate)
        assert answered.id in reply.delivery_ids


async def test_an_answer_that_shows_no_report_keeps_every_copy_pending(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store, scenario_file(tmp_path))
        await umpire.handle("g1", BLUE, cmd.Done())  # ready; Blue waits for BLUE_2
        reply = await umpire.handle("g1", BLUE_2, cmd.Done())
        assert reply.text == "Noted: your side has finished this phase."
        await umpire.handle("g1", GREY, cmd.Done())
        assert all(d.status == "pending" for d in await to_players(store))


async def test_with_side_threads_the_answered_report_still_reaches_the_thread(
        tmp_path: Path) -> None:
    """A side's private thread posts its first seated player's copy for the whole side: when
    that player's answer showed the report, the copy must still go out, or the side-mate never
    sees it in the thread."""
    async with Store.open(tmp_path / "v.db") as store:
        await new_game(store, scenario_file(tmp_path))
        record = await store.get_game("g1")
        assert record is not None
        await store.update_game("g1", options={**record.options, "delivery": "threads"})
        umpire = Umpire(store, maps=MapMaker(enabled=False))  # reads the options afresh
        mark = max(d.id for d in await store.pending_deliveries("g1", limit=10_000))
        reply = await umpire.handle("g1", BLUE, OrderSurpriseMove(
            force="1st Division, Blue Horse", route="road A2005"))
        new = [d for d in await to_players(store) if d.id > mark]
        assert any(d.text == reply.text and d.target == str(BLUE) for d in new)
        assert all(d.status == "pending" for d in new)
