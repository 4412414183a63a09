"""Several Python threads play at once, each on its own game or sharing one."""

import json
import random
import threading

import boardscript
from conftest import SCRIPTS


def play_out(game, seed):
    rng = random.Random(seed)
    actions = []
    while game.deciding():
        seat = rng.choice(game.deciding())
        actions.append(game.step(seat, rng.choice(game.legal_actions(seat))["text"]))
    return actions, game.winners()


def run_threads(target, n):
    results = [None] * n
    errors = []

    def run(i):
        try:
            results[i] = target(i)
        except BaseException as e:  # reported below, not lost in the thread
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return results


def test_four_threads_play_as_one_thread_does():
    def game(i):
        return boardscript.load("fibs", seats=3, seed=i % 2, scripts=SCRIPTS)

    alone = [play_out(game(i), i % 2) for i in range(4)]
    together = run_threads(lambda i: play_out(game(i), i % 2), 4)
    assert together == alone
    assert alone[0] == alone[2] and alone[0] != alone[1]


def test_threads_sharing_one_game_each_see_a_whole_game():
    game = boardscript.load("connect-four", seed=4, scripts=SCRIPTS)

    def bot_moves(i):
        # Each thread plays its seat whenever that seat decides, until the game ends.
        played = 0
        for _ in range(100_000):
            try:
                game.play_bot(game.seats[i % 2], "random")
                played += 1
            except boardscript.NotDeciding:
                continue
            except boardscript.GameOver:
                break
        return played

    def reader(_):
        for _ in range(60):
            views = [game.view(s) for s in game.seats]
            assert views[0]["state"]["actions_applied"] >= 0

    played = run_threads(lambda i: bot_moves(i) if i < 2 else reader(i), 3)
    # Every move a thread made is in the game, once: no call was lost or half done.
    assert game.is_over()
    assert sum(played[:2]) == len(json.loads(game.save())["actions"]) > 5
