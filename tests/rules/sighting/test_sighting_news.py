"""Sighting reports tell a side what changed since its last report: units newly sighted, units
still in sight that moved or now show otherwise, units lost from sight; never the units still in
sight as they were (hidden model: a side sees enemies only by sighting)."""

from __future__ import annotations

from rules import commands as cmd
from rules.view import project
from tests.support.surprise import Game, load_ground
from umpire.games.routing import messages_for
from umpire.words.events import by_place


def hidden_game() -> Game:
    """Grey's battery and brigade in the open before Blue's column, in sight; Grey moves."""
    game = Game(load_ground(('information = "open"', 'information = "hidden"')))
    game.place(**{"grey-bat": "A0705", "grey-1": "A0706"})
    game.to(1, "movement", "grey")
    return game


def blue_hears(game: Game, command: cmd.Command) -> list[str]:
    """What Blue is told when Grey gives ``command``."""
    before = game.state
    out = game.do("grey", command)
    return [m.text for m in messages_for(before, out.events, game.state)
            if m.kind == "side" and m.target == "blue"]


def test_a_unit_in_sight_that_moves_is_told_as_moved_and_the_others_not_again() -> None:
    game = hidden_game()
    assert {u.name for u in game.state.units.values() if u.id in
            game.state.memory["blue"]} == {"Grey Battery", "Grey Brigade"}
    assert blue_hears(game, cmd.Move(unit="Grey Battery", route="A0704")) == [
        "Still in sight, moved: Grey Battery to A0704"]
    assert blue_hears(game, cmd.Move(unit="Grey Battery", route="A0604")) == [
        "Still in sight, moved: Grey Battery to A0604"]


def test_a_unit_that_only_changes_formation_is_told_as_seen_now() -> None:
    game = hidden_game()
    [news] = blue_hears(game, cmd.SetFormation(unit="Grey Brigade", formation="column"))
    assert news == "Still in sight, now seen as: Grey Brigade (infantry, 7, column)"


def test_lost_and_newly_sighted_units_are_told_and_nothing_else() -> None:
    game = Game(load_ground(('information = "open"', 'information = "hidden"')))
    game.place(**{"grey-cav": "A0905", "grey-1": "A0706"})
    game.to(1, "movement", "grey")
    # Behind the woods the horse is lost from sight where its way was last seen (ruling
    # INFO-18); the brigade, still in sight, is not told.
    assert blue_hears(game, cmd.Move(unit="Grey Horse", route="road A1405")) == [
        "Seen on the way, then lost from sight: Grey Horse (cavalry, 3) moving south-east "
        "from A0905 to A1005"]
    game.to(2, "movement", "grey")
    [again] = blue_hears(game, cmd.Move(unit="Grey Horse", route="road A0905"))
    assert again == "Your troops sight: Grey Horse (cavalry, 3) at A0905"


def test_units_near_several_named_places_are_told_place_by_place() -> None:
    """Sighted units near more than one named place are told a line a place (the nearest
    within three cells), those near none last; near one place or none, in one line."""
    game = Game(load_ground(('name = "Crossroads"\nat = "A1605"',
                             'name = "Crossroads"\nat = "A1605"\n\n[[map.places]]\n'
                             'name = "Mill"\nat = "A0706"')))
    view = project(game.state, "blue")
    cell = view.board.parse
    told = [(cell("A0705"), "Grey Battery at A0705"), (cell("A1604"), "Grey Horse at A1604"),
            (cell("A0606"), "Grey Brigade at A0606"), (cell("A0101"), "Grey Scouts at A0101")]
    assert by_place(view, told) == ("\n- near Mill: Grey Battery at A0705; Grey Brigade at A0606"
                                    "\n- near Crossroads: Grey Horse at A1604"
                                    "\n- elsewhere: Grey Scouts at A0101")
    assert by_place(view, told[:1] + told[2:3]) == (
        " Grey Battery at A0705; Grey Brigade at A0606")
