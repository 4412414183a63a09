"""A game through the bindings is the engine's game: move for move the same as the
`boardscript` binary's, and tallies the same as `boardscript sim`'s."""

import random
import re
import subprocess

import boardscript
from conftest import SCRIPTS, Protocol, binary


def play_random(game, rng, limit=300):
    """Plays random legal actions (chosen by `rng`) to the end; yields (seat, action)."""
    for _ in range(limit):
        deciding = game.deciding()
        if not deciding:
            return
        seat = rng.choice(deciding)
        action = rng.choice(game.legal_actions(seat))["text"]
        yield seat, game.step(seat, action)


def test_a_random_game_is_the_binarys_move_for_move():
    for game_id, seats, seed in [("connect-four", None, 5), ("fibs", 3, 2), ("virus-war-kr", None, 4)]:
        game = boardscript.load(game_id, seats=seats, seed=seed, scripts=SCRIPTS)
        cli = Protocol(game_id, seed, seats)
        try:
            steps = 0
            for seat, logged in play_random(game, random.Random(seed)):
                reply = cli.ask(f"do @{seat} {logged}")
                assert reply["action"] == logged
                steps += 1
                for s in game.seats:
                    assert game.view(s)["state"] == cli.ask(f"view @{s}")["view"], (game_id, steps, s)
                status = cli.ask("status")
                assert game.deciding() == status["deciding"], (game_id, steps)
            assert steps > 5
            assert game.is_over(), game_id
            status = cli.ask("status")
            assert status["over"]
            assert game.winners() == status["winners"]
        finally:
            cli.close()


def cli_wins(game_id, games, seed):
    out = subprocess.run(
        [binary(), "sim", game_id, "--games", str(games), "--seed", str(seed),
         "--threads", "1", "--quiet", "--scripts", str(SCRIPTS)],
        check=True, capture_output=True, text=True,
    ).stdout
    return {m[1]: int(m[2]) for m in re.finditer(r"^  (\S+)\s+(\d+) wins", out, re.M)}


def test_sim_tallies_as_the_binarys_sim():
    tally = boardscript.sim("connect-four", games=40, seed=3, threads=1, scripts=SCRIPTS)
    assert tally["games"] == 40
    assert tally["wins"] == cli_wins("connect-four", 40, 3)
    assert sum(tally["wins"].values()) + tally["no_winner"] == 40


def without_timing(tally):
    return {k: v for k, v in tally.items() if k not in ("threads", "seconds")}


def test_sim_is_the_same_on_one_and_two_threads():
    for game_id, bots in [("fibs", None), ("connect-four", ("random", boardscript.bot("mcts", iters=20)))]:
        one = boardscript.sim(game_id, games=24, seed=9, bots=bots, threads=1, scripts=SCRIPTS)
        two = boardscript.sim(game_id, games=24, seed=9, bots=bots, threads=2, scripts=SCRIPTS)
        assert two["threads"] == 2
        assert without_timing(one) == without_timing(two), game_id
        assert one["games"] == 24 and one["failed"] == 0


def test_sim_of_a_game_object_uses_its_setup():
    game = boardscript.load("fibs", seats=4, seed=1, scripts=SCRIPTS)
    tally = boardscript.sim(game, games=6, seed=2, threads=1)
    assert tally["seats"] == game.seats and len(tally["seats"]) == 4


def test_a_bad_bot_is_refused():
    for bad in [lambda: boardscript.bot("nobody"), lambda: boardscript.bot("mcts", nonsense=3)]:
        try:
            bad()
        except boardscript.BotError:
            pass
        else:
            raise AssertionError("an unknown bot or setting was accepted")
    try:
        boardscript.sim("connect-four", games=2, bots=["random"], scripts=SCRIPTS)
    except boardscript.BotError as e:
        assert "1 bot(s) for 2 seat(s)" in str(e)
    else:
        raise AssertionError("one bot for two seats was accepted")


def test_returns_and_winners_at_the_end():
    game = boardscript.load("connect-four", seed=11, scripts=SCRIPTS)
    assert game.returns() == [0.0, 0.0] and game.winners() == [] and game.outcome() is None
    for _ in play_random(game, random.Random(11)):
        pass
    winners = game.winners()
    assert winners, "seed 11 has a winner"
    assert game.returns() == [1.0 if s in winners else 0.0 for s in game.seats]
    assert game.outcome()["winners"] == winners


def test_bots_choose_and_play():
    game = boardscript.load("connect-four", seed=1, scripts=SCRIPTS)
    mcts = boardscript.bot("mcts", iters=30)
    before = game.save()
    choice = mcts.choose(game, "x")
    assert game.save() == before, "choose plays nothing"
    assert choice in [a["text"] for a in game.legal_actions("x")]
    assert game.play_bot("x", mcts) == choice, "a bot seeded alike chooses alike"
    legal = [a["text"] for a in game.legal_actions(1)]
    assert mcts.play(game, 1) in legal
    assert len(game.save()) > len(before)
