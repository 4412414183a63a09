"""`boardscript.ray`: a sim split in batches over a local Ray cluster (two CPUs) is the
`boardscript sim` binary's, and exactly the single-machine `boardscript.sim`'s."""

import os
import re
import subprocess

import pytest

# The environment `.ci/run` makes has Ray; elsewhere these tests wait for it.
if os.environ.get("CI"):
    import ray
else:
    ray = pytest.importorskip("ray")

import boardscript  # noqa: E402
import boardscript.ray  # noqa: E402
from conftest import SCRIPTS, binary, readme_example, run_example  # noqa: E402


@pytest.fixture(scope="session")
def cluster():
    """One local Ray cluster for every test here: it takes seconds to start."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def without_timing(tally):
    return {k: v for k, v in tally.items() if k not in ("threads", "seconds")}


def cli_sim(game_id, games, seed, skip=0):
    """`boardscript sim`'s printed tally: wins by seat, no winner, endings, length."""
    out = subprocess.run(
        [binary(), "sim", game_id, "--games", str(games), "--seed", str(seed), "--skip",
         str(skip), "--threads", "1", "--quiet", "--scripts", str(SCRIPTS)],
        check=True, capture_output=True, text=True,
    ).stdout
    endings = out.split("  ended by:\n")[1].split("\n  length")[0].split("\n  tallies")[0]
    length = re.search(r"^  length: mean ([\d.]+), max (\d+) actions", out, re.M)
    return {
        "wins": {m[1]: int(m[2]) for m in re.finditer(r"^  (\S+)\s+(\d+) wins", out, re.M)},
        "no_winner": int(re.search(r"^  no winner\s+(\d+)", out, re.M)[1]),
        "endings": {m[1]: int(m[2]) for m in re.finditer(r"^    (.+?)\s+(\d+)\s+[\d.]+%$", endings, re.M)},
        "length": (length[1], int(length[2])),
    }


def printed(tally):
    """A tally's figures as `cli_sim` reads them."""
    mean = f"{tally['total_length'] / tally['games']:.1f}"
    return {
        "wins": tally["wins"],
        "no_winner": tally["no_winner"],
        "endings": tally["endings"],
        "length": (mean, tally["max_length"]),
    }


def test_a_ray_sim_is_the_binarys(cluster):
    for game_id, games, batch in [("connect-four", 60, 7), ("nemesis", 5, 2)]:
        done = []
        tally = boardscript.ray.sim(game_id, games=games, seed=3, batch=batch, scripts=SCRIPTS,
                                    progress=lambda n, of: done.append((n, of)))
        assert tally["games"] == games and tally["failed"] == 0
        assert printed(tally) == cli_sim(game_id, games, 3)
        local = boardscript.sim(game_id, games=games, seed=3, threads=1, scripts=SCRIPTS)
        assert without_timing(tally) == without_timing(local)
        assert tally["threads"] == -(-games // batch)  # one a batch
        # Each batch reported as it came back, the last with every game.
        assert len(done) == -(-games // batch) and done[-1] == (games, games)
        assert [n for n, _ in done] == sorted(n for n, _ in done)


def test_a_ray_sim_with_bots_is_the_local_sims(cluster):
    bots = ["random", boardscript.bot("mcts", iters=10), "random"]
    tally = boardscript.ray.sim("fibs", seats=3, games=10, seed=2, bots=bots, batch=4,
                                scripts=SCRIPTS)
    local = boardscript.sim("fibs", seats=3, games=10, seed=2, bots=bots, threads=1,
                            scripts=SCRIPTS)
    assert tally["bots"] == ["random", "mcts:iters=10", "random"]
    assert without_timing(tally) == without_timing(local)


def test_a_game_objects_setup_goes_to_the_workers(cluster):
    game = boardscript.load("fibs", seats=4, seed=1, scripts=SCRIPTS)
    tally = boardscript.ray.sim(game, games=6, seed=5, batch=4, scripts=SCRIPTS)
    local = boardscript.sim(game, games=6, seed=5, threads=1)
    assert len(tally["seats"]) == 4
    assert without_timing(tally) == without_timing(local)


def test_a_wrong_game_is_refused_before_any_task(cluster):
    with pytest.raises(boardscript.RulesError):
        boardscript.ray.sim("no-such-game", games=4, scripts=SCRIPTS)
    with pytest.raises(ValueError, match="at least one game"):
        boardscript.ray.sim("connect-four", games=4, batch=0, scripts=SCRIPTS)


def test_the_readme_example_runs(cluster, capsys):
    example = readme_example("### Ray")
    assert "games=1_000_000" in example
    example = example.replace("games=1_000_000", "games=30")  # as written, but smaller
    example = example.replace("ray.init()", "ray.is_initialized() or ray.init()")
    run_example(example)
    out = capsys.readouterr().out
    assert "30/30\r" in out and re.search(r"\{'x': \d+, 'o': \d+\} \d+ \d+ games/s\n$", out), out


def cli_arena(game_id, bots, games, seed):
    """`boardscript arena`'s printed pairs: (wins, draws, losses) of each pair's first."""
    out = subprocess.run(
        [binary(), "arena", game_id, "--bots", ",".join(bots), "--games", str(games), "--seed",
         str(seed), "--threads", "1", "--quiet", "--scripts", str(SCRIPTS)],
        check=True, capture_output=True, text=True,
    ).stdout
    return [tuple(map(int, m.groups())) for m in re.finditer(r" vs .*?(\d+)\s+(\d+)\s+(\d+)$", out, re.M)]


def test_a_ray_arena_is_the_binarys(cluster):
    bots = ["random", "mcts:iters=5", "mcts:iters=2"]
    tally = boardscript.ray.arena("connect-four", bots, games=4, seed=3, batch=5, scripts=SCRIPTS)
    local = boardscript.arena("connect-four", bots, games=4, seed=3, threads=1, scripts=SCRIPTS)
    assert without_timing(tally) == without_timing(local)
    assert tally["games"] == 12 and tally["threads"] == 3
    pairs = [(p["wins"], p["draws"], p["losses"]) for p in tally["pairs"]]
    assert pairs == cli_arena("connect-four", bots, 4, 3)
