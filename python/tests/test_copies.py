"""clone, save and load: a copy is the same game and goes its own way."""

import json
import random

import pytest

import boardscript
from conftest import SCRIPTS


def views(game):
    return [game.view(s) for s in game.seats]


def advance(game, rng, n):
    for _ in range(n):
        deciding = game.deciding()
        if not deciding:
            return
        seat = rng.choice(deciding)
        game.step(seat, rng.choice(game.legal_actions(seat)))


def test_a_clone_is_the_same_game_and_then_its_own():
    game = boardscript.load("fibs", seats=3, seed=6, scripts=SCRIPTS)
    advance(game, random.Random(1), 15)
    copy = game.clone()
    assert copy is not game and copy.seats == game.seats
    assert views(copy) == views(game)
    assert copy.save() == game.save()
    assert [copy.legal_actions(s) for s in copy.seats] == [game.legal_actions(s) for s in game.seats]
    before = views(game)
    advance(copy, random.Random(2), 5)
    assert views(game) == before, "playing the copy leaves the original alone"
    assert views(copy) != before
    # Both go on alike from the same position with the same actions.
    other = game.clone()
    advance(game, random.Random(3), 8)
    advance(other, random.Random(3), 8)
    assert views(game) == views(other)


def test_save_and_load_round_trip():
    game = boardscript.load("virus-war-kr", seed=2, scripts=SCRIPTS)
    advance(game, random.Random(5), 12)
    text = game.save()
    saved = json.loads(text)
    assert saved["game"] == "virus-war-kr" and len(saved["actions"]) == 12
    for save in (text, saved):  # the text, or the text read into a dict
        fresh = boardscript.load("virus-war-kr", seed=99, scripts=SCRIPTS)
        fresh.load(save)
        assert views(fresh) == views(game)
        assert fresh.save() == text
        assert fresh.deciding() == game.deciding()


def test_a_foreign_or_broken_save_is_refused_and_changes_nothing():
    game = boardscript.load("connect-four", seed=1, scripts=SCRIPTS)
    game.step(0, "d")
    before = game.save()
    other = boardscript.load("fibs", seed=1, scripts=SCRIPTS).save()
    for bad in [other, "not json", {"format": "boardscript-save/1"}]:
        with pytest.raises(boardscript.RulesError):
            game.load(bad)
        assert game.save() == before
    bad_move = json.loads(before)
    bad_move["actions"].append({"seat": "o", "action": "z9"})
    with pytest.raises(boardscript.BoardscriptError):
        game.load(bad_move)
    assert game.save() == before


def test_undo_takes_back_actions():
    game = boardscript.load("connect-four", seed=1, scripts=SCRIPTS)
    start = views(game)
    game.step(0, "a")
    game.step(1, "b")
    assert game.undo(5) == 2
    assert views(game) == start


def test_a_clone_carries_the_history_and_the_draws_to_come():
    # Fibs reshuffles its discard pile mid-game: a copy with other draws to come would part
    # from its original given the same actions.
    game = boardscript.load("fibs", seats=3, seed=3, scripts=SCRIPTS)
    advance(game, random.Random(4), 10)
    copy = game.clone()
    played = json.loads(game.save())["actions"]
    assert copy.undo(100) == len(played) == 10, "the copy's undo takes back earlier moves"
    assert len(json.loads(game.save())["actions"]) == 10, "the original keeps them"
    copy = game.clone()
    advance(game, random.Random(5), 400)
    advance(copy, random.Random(5), 400)
    assert game.is_over() and copy.is_over()
    assert views(copy) == views(game) and copy.save() == game.save()
    assert copy.returns() == game.returns()


def test_a_clone_outlives_its_original():
    game = boardscript.load("connect-four", seed=2, scripts=SCRIPTS)
    game.step(0, "d")
    copy = game.clone()
    del game
    assert copy.step(1, "d") == "d"
    assert json.loads(copy.save())["actions"][-1]["action"] == "d"
