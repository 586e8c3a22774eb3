"""``/help``: the phase's commands for the player's side and what it can do now, from that side's
view only; the general commands for anyone else. Through the fake Discord, in DMs and in the
game's channel."""

from __future__ import annotations

from pathlib import Path

from rules import commands as cmd
from rules.engine import decide, start
from rules.state import initial_state
from rules.turn.idle import AUTO_PASS
from rules.view import project
from storage.store import Store
from tests.fakediscord import FakeDiscord
from tests.support.botkit import TOKEN, private_answer, started_game, text_of
from tests.support.combat import FIELD, Dice
from umpire.games import catalog
from umpire.reads.helping import (
    GENERAL,
    GUIDE,
    GUIDE_FILE,
    help_text,
    help_text_general,
    phase_commands,
)
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

HOST, UNION, REBEL = 1, 10, 20
FLANK_MARCH = Path(__file__).parents[2] / "scenarios" / "flank-march.toml"


def field(tmp_path: Path, rebel_at: str = "A0704") -> Path:
    """The combat field with every option as its file has it, the Rebel Brigade at
    ``rebel_at``."""
    text = FIELD.read_text(encoding="utf-8").replace(
        'ruleset = "../../scenarios/', f'ruleset = "{FIELD.parent.parent.parent}/scenarios/')
    assert 'at = "A0704"' in text
    text = text.replace('at = "A0704"', f'at = "{rebel_at}"')
    path = tmp_path / f"field-{rebel_at}.toml"
    path.write_text(text, encoding="utf-8")
    return path


async def test_help_names_the_phase_s_commands_and_who_can_act_in_dms_and_the_channel(
        tmp_path: Path) -> None:
    async with FakeDiscord(token=TOKEN) as fake, started_game(
            fake, tmp_path, field(tmp_path), ("union", "confederate")) as (bot, alice, bob):
        # The Union's movement: alice (Union) is called on; bob (Confederates) waits.
        answered = await private_answer(fake, "help", alice, {})
        mine = text_of(answered)
        assert "you command Union" in mine
        assert "Turn 1: Union Movement and Close Combat Phase." in mine
        assert "This phase's commands: /assault, /formation, /move, /rally, /done." in mine
        assert "- move units (/move): " in mine and "Union Brigade" in mine
        assert GUIDE in mine and "/units" in mine
        # With no address for the guides, the guide itself comes with the answer.
        [attached] = answered["attachments"]
        assert attached["filename"] == "playing.md"
        assert fake.world.blobs[int(attached["id"])].data == GUIDE_FILE.read_bytes()
        # With the guides published (VEDETTE_DOCS_URL), a link Discord shows as one.
        bot.umpire.docs_url = "https://example.org/vedette/docs"
        linked_answer = await private_answer(fake, "help", alice, {})
        linked = text_of(linked_answer)
        assert ("The whole guide: [Playing with Vedette]"
                "(https://example.org/vedette/docs/playing.md)") in linked
        assert GUIDE not in linked and not linked_answer["attachments"]
        theirs = text_of(await private_answer(fake, "help", bob, {}))
        assert "you command Confederates" in theirs
        assert "Nothing waits for you in this phase." in theirs
        assert "Union Brigade" not in theirs  # never the other side's units
        # In a server channel the answer is the player's alone too.
        guild = next(iter(fake.world.guilds.values()))
        channel = fake.add_text_channel(guild, "elsewhere")
        handle = await fake.slash("help", {"game": "g1"}, user=alice, channel=channel)
        callback = await handle.response()
        message = (await handle.original_message() if callback.type == 5
                   else handle.original)
        assert message is not None and message["flags"] & 64
        assert "Turn 1: Union Movement and Close Combat Phase." in text_of(message)
        # Someone who plays no side gets the general commands.
        carol = fake.add_user("carol", guild=guild)
        general = text_of(await private_answer(fake, "help", carol, {}))
        assert GENERAL.splitlines()[0] in general and "you command" not in general
        assert bot.umpire is not None


async def test_help_depends_only_on_what_the_side_may_know(tmp_path: Path) -> None:
    """Under the hidden model, the Rebel Brigade in one wood cell or the next, out of the
    Union's sight either way: the Union's help is the same word for word."""
    texts = []
    for n, rebel_at in enumerate(("A1004", "A1005")):
        text = field(tmp_path, rebel_at).read_text(encoding="utf-8").replace(
            'information = "open"', 'information = "hidden"')
        path = tmp_path / f"hidden-{n}.toml"
        path.write_text(text, encoding="utf-8")
        async with Store.open(tmp_path / f"help-{n}.db") as store:
            umpire = Umpire(store, maps=MapMaker(enabled=False))
            await umpire.create_game(str(path), HOST, game_id="g1", seed=bytes(range(32)))
            await umpire.join("g1", UNION, "union")
            await umpire.join("g1", REBEL, "confederate")
            await umpire.start("g1", HOST)
            state = await umpire.repository.state_for("g1")
            assert "c-inf" not in {u.ref for u in project(state, "union").units}
            texts.append((await umpire.help_for("g1", UNION)).text)
    assert texts[0] == texts[1]


def test_help_in_a_phase_played_at_once_lists_orders_then_only_says_finished() -> None:
    """Flank March's Command Phase, played by both sides at once: the Union may send surprise
    orders; once it is done, its help says only that it has finished, never whether the
    Confederates have (ruling INFO-9)."""
    loaded = catalog.with_options(catalog.load_file(FLANK_MARCH), {AUTO_PASS: True})
    state = start(initial_state(loaded), "test", Dice(default=1)).state
    assert state.current.phase.id == "command" and state.current.side is None
    assert "/march order" in phase_commands(state)
    asking = help_text(state, "g1", "union")
    assert "You can now:" in asking and "- send a surprise-move order (/march order)" in asking
    done = decide(state, "union", cmd.Done(), Dice(default=1)).state
    said = help_text(done, "g1", "union")
    assert "Your side has finished this phase." in said
    assert "You can now:" not in said and "Confederate" not in said


def test_help_links_the_guide_under_the_address_set() -> None:
    loaded = catalog.load_file(FLANK_MARCH)
    state = start(initial_state(loaded), "test", Dice(default=1)).state
    link = "[Playing with Vedette](https://example.org/docs/playing.md)"
    assert help_text_general("https://example.org/docs/").endswith(link)
    assert help_text(state, "g1", "union", docs_url="https://example.org/docs").endswith(link)
    assert help_text(state, "g1", None, docs_url="https://example.org/docs").endswith(link)
    # None set: the guide is named by its place in the repository.
    assert help_text_general().endswith(GUIDE)
