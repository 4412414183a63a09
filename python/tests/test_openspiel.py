"""`boardscript.openspiel`: a Boardscript game registered with OpenSpiel loads by name, and
OpenSpiel's MCTS plays it legally to the end; information states come from the seat's view
only."""

import json
import os

import numpy as np
import pytest

# The environment `.ci/run` makes has OpenSpiel; elsewhere these tests wait for it.
if os.environ.get("CI"):
    import pyspiel
else:
    pyspiel = pytest.importorskip("pyspiel")

import boardscript  # noqa: E402
from boardscript.openspiel import register  # noqa: E402
from boardscript.pettingzoo import Layout  # noqa: E402
from conftest import SCRIPTS, readme_example, run_example  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from test_views import hidden_from  # noqa: E402


def test_mcts_plays_connect_four_legally_to_the_end():
    name = register("connect-four", scripts=SCRIPTS)
    assert name == "python_boardscript_connect_four"
    game = pyspiel.load_game(name + "(seed=3)")
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_distinct_actions() == 7 and game.num_players() == 2
    rng = np.random.RandomState(5)
    bot = mcts.MCTSBot(game, 2, 12, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    # The same game through the bindings alone, fed the texts OpenSpiel's actions name.
    seed = json.loads(state.table.save())["setup"]["seed"]
    mirror = boardscript.load("connect-four", seed=seed, scripts=SCRIPTS)
    moves = 0
    while not state.is_terminal():
        seat = state.current_player()
        assert mirror.seats.index(mirror.deciding()[0]) == seat
        legal = [a["text"] for a in mirror.legal_actions(seat)]
        assert state.legal_actions(seat) == list(range(len(legal)))
        action = bot.step(state) if seat == 0 else rng.choice(state.legal_actions())
        text = state.action_to_string(seat, action)
        assert text == legal[action]
        state.apply_action(action)
        mirror.step(seat, text)
        moves += 1
    assert mirror.is_over() and 7 <= moves <= 42
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    winners = [mirror.seats.index(w) for w in mirror.winners()]
    returns = state.returns()
    assert sum(returns) == 0
    assert returns == ([1.0, -1.0] if winners == [0] else [-1.0, 1.0] if winners == [1] else [0, 0])
    assert state.history() == state.clone().history() and len(state.history()) == moves


def test_a_clone_goes_its_own_way():
    game = pyspiel.load_game(register("connect-four", scripts=SCRIPTS))
    state = game.new_initial_state()
    state.apply_action(3)
    copy = state.clone()
    copy.apply_action(0)
    assert state.history() == [3] and copy.history() == [3, 0]
    assert state.table.view(0) != copy.table.view(0)


def test_the_observation_tensor_encodes_the_seats_view():
    game = pyspiel.load_game(register("connect-four", scripts=SCRIPTS))
    state = game.new_initial_state()
    cells = 7 * 6
    assert game.observation_tensor_shape() == [cells * 3 + 2 * 2]  # 3 values a cell; 2 seats
    state.apply_action(3)  # x drops a piece: one x on the board
    tensor = np.array(state.observation_tensor(1))
    expected = Layout([state.table.view(1)["state"]]).encode(state.table.view(1)["state"], 1)
    assert (tensor == expected).all()
    board = tensor[: cells * 3].reshape(cells, 3)
    assert (board.sum(axis=1) == 1).all() and board[:, 1].sum() == 1 and board[:, 2].sum() == 0
    assert list(tensor[cells * 3:]) == [0, 1, 0, 1]  # seen by o, o to play


def test_is_mcts_plays_fibs_on_worlds_drawn_from_its_seats_view():
    name = register("fibs", seats=3, scripts=SCRIPTS)
    game = pyspiel.load_game(name + "(seed=4)")
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8, random_state=rng)
    state = game.new_initial_state()
    hands_redrawn = 0
    for _ in range(40):
        if state.is_terminal():
            break
        seat = state.current_player()
        if seat == 0:
            # A drawn world: the same for seat 0 (its information state), another deal for
            # the others (their hands differ in some draw), and the true game unchanged.
            truth = state.table.save()
            world = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert world.information_state_string(0) == state.information_state_string(0)
            hands_redrawn += world.table.view(1) != state.table.view(1)
            assert state.table.save() == truth
            action = bot.step(state)
            assert action in state.legal_actions()
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    assert hands_redrawn > 0


def test_information_states_show_no_other_seats_hidden_card():
    name = register("fibs", seats=3, scripts=SCRIPTS)
    game = pyspiel.load_game(name + "(seed=1)")
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    blanks = 0
    for _ in range(60):
        if state.is_terminal():
            break
        for me in range(3):
            info = json.loads(state.information_state_string(me))
            view = state.table.view(me)["state"]
            assert "rng" not in view
            assert info == view  # the seat's view, and nothing else
            blanks += hidden_from(info, me)
            observation = json.loads(state.observation_string(me))
            assert "log" not in observation and observation["zones"] == view["zones"]
        state.apply_action(rng.choice(state.legal_actions()))
    assert blanks > 0


def test_openspiels_random_simulations_pass():
    for game_id, seats in [("connect-four", None), ("fibs", 3)]:
        game = pyspiel.load_game(register(game_id, seats=seats, scripts=SCRIPTS))
        pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_the_readme_example_runs(capsys):
    example = readme_example("### OpenSpiel")
    run_example(example)
    printed = capsys.readouterr().out
    assert printed in ("[1.0, -1.0]\n", "[-1.0, 1.0]\n", "[0.0, 0.0]\n"), printed
