"""The cheap step path: `legal_actions(seat, typed=False)` (texts only) and `step(seat, i)`
(an option by its index) are the typed list's texts and playing that text."""

import random

import pytest

import boardscript
from conftest import SCRIPTS


@pytest.mark.parametrize("game_id,seats", [("connect-four", None), ("fibs", 3), ("virus-war-kr", None)])
def test_an_index_plays_the_option_its_text_names(game_id, seats):
    game = boardscript.load(game_id, seats=seats, seed=5, scripts=SCRIPTS)
    rng = random.Random(5)
    steps = 0
    while game.deciding():
        seat = game.deciding()[0]
        texts = game.legal_actions(seat, typed=False)
        assert texts == [a["text"] for a in game.legal_actions(seat)]
        i = rng.randrange(len(texts))
        by_text = game.clone()
        assert game.step(seat, i) == by_text.step(seat, texts[i])
        assert game.save() == by_text.save()
        assert [game.view(s) for s in game.seats] == [by_text.view(s) for s in game.seats]
        steps += 1
    assert steps > 5 and game.is_over()


def test_an_index_past_the_list_is_refused():
    game = boardscript.load("connect-four", seed=1, scripts=SCRIPTS)
    before = game.save()
    for bad in [7, 100, -1]:
        with pytest.raises(boardscript.IllegalAction):
            game.step(0, bad)
    with pytest.raises(boardscript.NotDeciding):
        game.step(1, 0)
    assert game.legal_actions(1, typed=False) == []
    assert game.save() == before
