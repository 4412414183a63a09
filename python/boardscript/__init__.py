"""Boardscript's rules interpreter in Python: every game of a scripts folder, played from
Python through the engine's library facade.

    import boardscript
    game = boardscript.load("connect-four", seed=7, scripts="scripts")
    while not game.is_over():
        seat = game.deciding()[0]
        game.step(seat, game.legal_actions(seat)[0])
    print(game.winners(), game.returns())

Seats are named by index or name; a refused call raises a subclass of `BoardscriptError`
(`IllegalAction`, `RefusedAction`, `NotDeciding`, `GameOver`, `NoSeat`...) and changes
nothing. The engine runs with the GIL released: a game may be used from several threads.
Beside it: `boardscript.pettingzoo` (an AEC environment), `boardscript.openspiel` (any game
registered with OpenSpiel) and `boardscript.ray` (`sim` and `arena` spread over a Ray
cluster), each importing its own framework.
"""

from ._boardscript import (
    ActionError,
    BoardscriptError,
    Bot,
    BotError,
    Game,
    GameOver,
    IllegalAction,
    Interrupted,
    NoSeat,
    NotDeciding,
    RefusedAction,
    RulesError,
    ScriptError,
    TableStopped,
    arena,
    bot,
    load,
    merge,
    sim,
)

__all__ = [
    "ActionError",
    "BoardscriptError",
    "Bot",
    "BotError",
    "Game",
    "GameOver",
    "IllegalAction",
    "Interrupted",
    "NoSeat",
    "NotDeciding",
    "RefusedAction",
    "RulesError",
    "ScriptError",
    "TableStopped",
    "arena",
    "bot",
    "load",
    "merge",
    "sim",
]
