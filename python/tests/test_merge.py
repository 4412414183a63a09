"""`boardscript.merge` and `sim(first=)`: the tallies of a range's parts, merged, are the
tally of the whole range, failures and endings included."""

import pytest

import boardscript
from conftest import SCRIPTS


def without_timing(tally):
    return {k: v for k, v in tally.items() if k not in ("threads", "seconds")}


def test_parts_merged_are_the_whole():
    for game_id, seats, limit in [("nemesis", None, None), ("fibs", 3, None), ("connect-four", None, 9)]:
        def sim(games, first=0):
            return boardscript.sim(game_id, games=games, first=first, seed=4, seats=seats,
                                   threads=1, max_actions=limit, scripts=SCRIPTS)
        whole = sim(9)
        parts = [sim(4), sim(1, first=4), sim(4, first=5)]
        merged = boardscript.merge(reversed(parts))
        assert without_timing(merged) == without_timing(whole), game_id
        assert merged["threads"] == 3
        assert merged["games"] == 9 and parts[2]["games"] == 4
        assert parts[2] != parts[0]  # the parts are different games
    assert whole["failed"] == whole["at_limit"] > 0  # connect-four stopped at 9 actions
    assert [f["index"] for f in whole["failures"]] == sorted(f["index"] for f in whole["failures"])


def test_a_part_is_its_games_of_the_whole():
    one = boardscript.sim("connect-four", games=1, first=2, seed=2, threads=1, max_actions=3,
                          scripts=SCRIPTS)
    whole = boardscript.sim("connect-four", games=3, seed=2, threads=1, max_actions=3,
                            scripts=SCRIPTS)
    assert one["failures"] == [whole["failures"][2]] and one["failures"][0]["index"] == 2


def test_results_of_other_seeds_or_bots_do_not_merge():
    a = boardscript.sim("connect-four", games=2, seed=1, threads=1, scripts=SCRIPTS)
    b = boardscript.sim("connect-four", games=2, first=2, seed=2, threads=1, scripts=SCRIPTS)
    c = boardscript.sim("connect-four", games=2, first=2, seed=1, threads=1, scripts=SCRIPTS,
                        bots=["random", "random"])
    for other in (b, c):
        with pytest.raises(ValueError, match="different seeds, bots or seats"):
            boardscript.merge([a, other])
    with pytest.raises(ValueError, match="at least one"):
        boardscript.merge([])
    assert without_timing(boardscript.merge([a])) == without_timing(a)


def test_an_arenas_parts_merged_are_the_whole():
    bots = ["random", "mcts:iters=5", boardscript.bot("mcts", iters=2)]

    def arena(**part):
        return boardscript.arena("connect-four", bots, games=4, seed=3, threads=1,
                                 scripts=SCRIPTS, **part)
    whole = arena()
    parts = [arena(first=7, count=10), arena(first=0, count=7)]
    assert [p["games"] for p in parts] == [5, 7]  # the round robin has 3 pairs x 4 games
    merged = boardscript.merge(parts)
    assert without_timing(merged) == without_timing(whole)
    assert [(p["first"], p["second"]) for p in whole["pairs"]] == [
        ("random", "mcts:iters=5"), ("random", "mcts:iters=2"), ("mcts:iters=5", "mcts:iters=2")]
    assert all(p["wins"] + p["draws"] + p["losses"] == 4 for p in whole["pairs"])
    with pytest.raises(boardscript.BotError, match="at least two bots"):
        boardscript.arena("connect-four", ["random"], scripts=SCRIPTS)
