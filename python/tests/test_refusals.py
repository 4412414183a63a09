"""A refused call raises its own exception class and changes nothing."""

import pytest

import boardscript
from conftest import SCRIPTS


def snapshot(game):
    return (
        game.save(),
        [game.view(s) for s in game.seats],
        [game.legal_actions(s) for s in game.seats],
        game.deciding(),
    )


@pytest.fixture
def game():
    game = boardscript.load("connect-four", seed=3, scripts=SCRIPTS)
    for action in ["d", "d", "e"]:
        game.step(game.deciding()[0], action)
    return game


def test_an_illegal_action_raises_and_changes_nothing(game):
    before = snapshot(game)
    seat = game.deciding()[0]
    for bad in ["z9", {"text": "q"}, 7, -1]:
        with pytest.raises(boardscript.IllegalAction):
            game.step(seat, bad)
        assert snapshot(game) == before, bad
    # Not an action's notation at all: the engine reads it as a bad text, not a move.
    with pytest.raises(boardscript.RulesError):
        game.step(seat, "")
    with pytest.raises(TypeError):
        game.step(seat, 1.5)
    assert snapshot(game) == before
    assert issubclass(boardscript.IllegalAction, boardscript.ActionError)


def test_the_seat_not_deciding_is_refused(game):
    before = snapshot(game)
    other = next(s for s in game.seats if s not in game.deciding())
    with pytest.raises(boardscript.NotDeciding):
        game.step(other, "a")
    assert snapshot(game) == before


def test_seats_by_index_and_name_and_none_other(game):
    assert game.view(0) == game.view(game.seats[0])
    assert game.legal_actions(1) == game.legal_actions(game.seats[1])
    before = snapshot(game)
    for bad in [2, -1, 99, "nobody"]:
        with pytest.raises(boardscript.NoSeat):
            game.view(bad)
        with pytest.raises(boardscript.NoSeat):
            game.step(bad, "a")
    with pytest.raises(TypeError):
        game.view(1.5)
    assert snapshot(game) == before


def test_a_finished_game_refuses_actions():
    game = boardscript.load("connect-four", seed=3, scripts=SCRIPTS)
    for action in ["a", "b", "a", "b", "a", "b", "a"]:
        game.step(game.deciding()[0], action)
    assert game.is_over() and game.winners() == ["x"]
    before = game.save()
    with pytest.raises(boardscript.GameOver):
        game.step("o", "c")
    with pytest.raises(boardscript.GameOver):
        game.play_bot("o", "random")
    assert game.save() == before


def test_a_bad_game_or_option_is_refused():
    with pytest.raises(boardscript.RulesError):
        boardscript.load("no-such-game", scripts=SCRIPTS)
    with pytest.raises(boardscript.RulesError):
        boardscript.load("fibs", options={"nonsense": 1}, scripts=SCRIPTS)
    with pytest.raises(boardscript.RulesError):
        boardscript.load("fibs", options={"top": 99}, scripts=SCRIPTS)
    game = boardscript.load("fibs", options={"top": 4, "chips": 3}, seed=1, scripts=SCRIPTS)
    assert game.view(0)["state"]["options"]["top"] == 4
