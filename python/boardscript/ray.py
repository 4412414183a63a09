"""`boardscript.sim` scaled out on a Ray cluster: the games split into seeded batches, each
a Ray task on a worker, the tallies streamed back as the batches finish and merged exactly.

    import ray, boardscript.ray
    ray.init()                        # a local cluster; ray.init(address="auto") joins one
    tally = boardscript.ray.sim("connect-four", games=1_000_000, seed=3, scripts="scripts")

Game `i` is seeded from `seed` and `i` alone, and tallies merge exactly
(`boardscript.merge`), so the result is the single-machine `boardscript.sim`'s for the same
seed, whatever the batch size or the number of workers (but for `threads` and `seconds`).
Every node reads the game from `scripts` (made absolute here): the folder must be at that
path on each node (or shipped with Ray's `runtime_env`).
"""

from __future__ import annotations

import json
import math
import os
import time
from typing import Any, Callable, Optional, Sequence

import ray

from . import Game, load, merge
from . import arena as local_arena
from . import sim as local_sim

# Batches per CPU of the cluster when no batch size is given: enough to keep every CPU busy
# to the end while few enough that each is worth a task.
BATCHES_PER_CPU = 4
# The largest default batch, so progress is reported at least this often.
MAX_BATCH = 10_000

# This worker's games, loaded once per process (the game's files read once) by their setup.
_games: dict = {}


def _game(key: str) -> Game:
    if key not in _games:
        setup = json.loads(key)
        _games[key] = load(
            setup["game"],
            options=setup["options"],
            seats=setup["seats"],
            scripts=setup["scripts"],
            seed=0,
        )
    return _games[key]


@ray.remote
def _sim_batch(key: str, first: int, games: int, seed: int, bots, max_actions, threads: int):
    return local_sim(
        _game(key),
        games=games,
        first=first,
        seed=seed,
        bots=bots,
        threads=threads,
        max_actions=max_actions,
    )


@ray.remote
def _arena_batch(key: str, first: int, games: int, seed: int, bots, per_pair: int,
                 max_actions, threads: int):
    return local_arena(
        _game(key),
        bots,
        games=per_pair,
        first=first,
        count=games,
        seed=seed,
        threads=threads,
        max_actions=max_actions,
    )


def sim(
    game: Any,
    games: int = 100,
    seed: int = 0,
    bots: Optional[Sequence[Any]] = None,
    batch: Optional[int] = None,
    variant: Optional[str] = None,
    options: Optional[dict] = None,
    seats: Optional[int] = None,
    scripts: Any = None,
    max_actions: Optional[int] = None,
    threads: int = 1,
    progress: Optional[Callable[[int, int], Any]] = None,
) -> dict:
    """`boardscript.sim(game, games, seed, bots, ...)` played on the Ray cluster (`ray.init`
    first, else Ray starts a local one) in batches of `batch` games (default: the games
    spread as `BATCHES_PER_CPU` batches per CPU of the cluster, at most `MAX_BATCH`), each a
    task of `threads` threads (and CPUs). `progress(done, games)` is called as each batch
    comes back. Returns `boardscript.sim`'s dict, with `seconds` the whole run's and
    `threads` the batches' sum; Ctrl-C cancels the batches still to run."""
    key = _key(game, variant, options, seats, scripts)
    specs = None if bots is None else [str(b) for b in bots]
    # No games, here: a wrong game, option or bot is refused before any task.
    nothing = local_sim(_game(key), games=min(games, 0), seed=seed, bots=specs, threads=1)
    if games <= 0:
        return nothing

    def run(first, n):
        return _sim_batch.options(num_cpus=threads).remote(
            key, first, n, seed, specs, max_actions, threads
        )

    return _spread(run, games, batch, threads, progress)


def arena(
    game: Any,
    bots: Sequence[Any],
    games: int = 10,
    seed: int = 0,
    batch: Optional[int] = None,
    variant: Optional[str] = None,
    options: Optional[dict] = None,
    seats: Optional[int] = None,
    scripts: Any = None,
    max_actions: Optional[int] = None,
    threads: int = 1,
    progress: Optional[Callable[[int, int], Any]] = None,
) -> dict:
    """`boardscript.arena(game, bots, games, seed, ...)` (a round robin, `games` per pair)
    played on the Ray cluster in batches of its games, as `sim` plays its own; returns
    `boardscript.arena`'s dict, `pairs` included."""
    key = _key(game, variant, options, seats, scripts)
    specs = [str(b) for b in bots]
    # No games, here: a wrong game, option or bot is refused before any task.
    nothing = local_arena(_game(key), specs, games=min(games, 0), seed=seed, threads=1)
    if games <= 0:
        return nothing
    pairs = len(specs) * (len(specs) - 1) // 2

    def run(first, n):
        return _arena_batch.options(num_cpus=threads).remote(
            key, first, n, seed, specs, games, max_actions, threads
        )

    return _spread(run, games * pairs, batch, threads, progress)


def _spread(run, games: int, batch: Optional[int], threads: int, progress) -> dict:
    """Games `0..games` in batches, `run(first, n)` starting a task for each; their results
    merged as they come back."""
    size = _default_batch(games, threads) if batch is None else batch
    if size < 1:
        raise ValueError(f"batch={size}: a batch is at least one game")
    started = time.monotonic()
    pending = [run(first, min(size, games - first)) for first in range(0, games, size)]
    parts, done = [], 0
    try:
        while pending:
            finished, pending = ray.wait(pending, num_returns=1)
            part = ray.get(finished[0])
            parts = [merge(parts + [part])] if parts else [part]
            done += part["games"]
            if progress is not None:
                progress(done, games)
    except BaseException:
        for ref in pending:
            ray.cancel(ref)
        raise
    result = parts[0]
    result["seconds"] = time.monotonic() - started
    return result


def _default_batch(games: int, threads: int) -> int:
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)) // max(threads, 1))
    return max(1, min(MAX_BATCH, math.ceil(games / (BATCHES_PER_CPU * cpus))))


def _key(game: Any, variant, options, seats, scripts) -> str:
    """The game and its setup as the text workers load it from (and cache it by). A `Game`
    gives its id, options and seats; its rules are read again from `scripts`."""
    root = os.path.abspath(scripts or os.environ.get("BOARDSCRIPT_SCRIPTS") or "scripts")
    if isinstance(game, Game):
        setup = json.loads(game.save())["setup"]
        game_id, options, seats = game.id, setup["options"], setup["seats"]
    else:
        game_id = game if variant is None else f"{game}/{variant}"
        options = {str(k): v for k, v in (options or {}).items()}
    return json.dumps(
        {"game": game_id, "options": options, "seats": seats, "scripts": root}, sort_keys=True
    )
