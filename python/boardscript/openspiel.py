"""Any Boardscript game as an OpenSpiel game, so OpenSpiel's algorithms (MCTS, CFR...) run
on rules written in Rhai.

    import pyspiel
    from boardscript.openspiel import register
    name = register("connect-four", scripts="scripts")  # "python_boardscript_connect_four"
    game = pyspiel.load_game(name)                      # or load_game(name + "(seed=7)")
    state = game.new_initial_state()

How the game is presented:
- dynamics SEQUENTIAL: the player to act is the first deciding seat. A simultaneous decision
  is sequentialised as the engine holds it: each deciding seat chooses in turn, its choice
  held (not in the others' views) until all have chosen; a game that has one is then of
  imperfect information.
- chance SAMPLED_STOCHASTIC: the engine draws from the state's seed (the game's `seed`
  parameter starts a sequence of seeds, one per `new_initial_state`); there are no chance
  nodes. A clone draws what the original would, so a search on clones sees the same
  draws: OpenSpiel's own sampled-stochastic games behave alike. `resample_from_infostate`
  draws a world from one seat's view alone (`Game.resample`), so OpenSpiel's IS-MCTS
  (`open_spiel.python.algorithms.ismcts`) searches what the seat may know, not the truth.
- information PERFECT_INFORMATION unless views hide something: a zone not open to all, a
  card or log line some seat does not see, two seats' views that differ, or a simultaneous
  decision, found in the views of the start and of a random probe game.
- utility: one seat, or one team of every seat, is IDENTICAL (the engine's returns); two
  seats are ZERO_SUM (the engine's returns, winner 1 and loser 0 or a drawn share each,
  less the other seat's: +1/-1 for a win); more seats are GENERAL_SUM (the engine's
  returns: 1.0 to each winner, so a co-operative win rewards everyone).
- actions: action `i` is the `i`-th of the seat's legal actions now (`Game.legal_actions`,
  in the engine's order), below `num_distinct_actions`: the game's `[actions] max`, else
  `DEFAULT_MAX_ACTIONS`; `action_to_string` is its text.
- `information_state_string(seat)` is that seat's view (`Game.view`) as JSON, its log
  included (what the seat has seen, in order: perfect recall); `observation_string` the
  same without the log; `observation_tensor` the view's flat encoding of the PettingZoo
  environment (`boardscript.pettingzoo.Layout`: grids one-hot, counters, zone sizes...,
  laid out from the start and random probe games, one length for a whole game). Never the full state. No information-state tensor: that
  encoding holds no history.
- `clone()` is `Game.clone()`; `returns()` comes from the engine once the game is over.

The game's parameters are `seed` and the game's options (defaults as registered).
"""

from __future__ import annotations

import json
import random
from typing import Any, Optional

import numpy as np
import pyspiel

from . import load
from .pettingzoo import Layout, probed_layout

# The action bound of a game that declares none (`[actions] max`), unless given: no shipped
# game offers more legal actions at once (a state raises, naming it, if one ever does).
DEFAULT_MAX_ACTIONS = 1024
# The longest game, in actions, for algorithms that size buffers by it: the engine's batch
# limit, past which `sim` counts a game as not ending.
MAX_GAME_LENGTH = 100_000
# What a view shows in place of a card its seat does not see.
HIDDEN_CARD = 65535
# Random actions played by the probe game that looks for hidden information.
PROBE_ACTIONS = 200


def register(
    game: str,
    variant: Optional[str] = None,
    options: Optional[dict] = None,
    seats: Optional[int] = None,
    scripts: Any = None,
    name: Optional[str] = None,
    max_actions: Optional[int] = None,
) -> str:
    """Registers `game` (as `boardscript.load` reads it, with these seats) with OpenSpiel and
    returns its short name for `pyspiel.load_game`: `name`, else `python_boardscript_<id>`
    (`-` and `/` as `_`). `options` set the options' defaults (its parameters)."""
    probe = load(game, variant=variant, options=options, seats=seats, seed=0, scripts=scripts)
    short_name = name or "python_boardscript_" + probe.id.replace("-", "_").replace("/", "_")
    layout = probed_layout(
        probe,
        lambda s: load(game, variant=variant, options=options, seats=seats, seed=s, scripts=scripts),
    )
    n = len(probe.seats)
    start = probe.view(0)["state"]
    defaults = {k: v for k, v in start["options"].items() if isinstance(v, (bool, int, float, str))}
    game_type = pyspiel.GameType(
        short_name=short_name,
        long_name=f"Boardscript {probe.id}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hides_anything(probe)
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=_utility(n, start.get("teams", [])),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=n,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"seed": 0, **defaults},
    )
    # A class per game, as OpenSpiel's own Python games register: the registry outlives the
    # interpreter, and a class (unlike a closure) is not freed when the registry lets go.
    factory = type(
        f"BoardscriptGame[{short_name}]",
        (BoardscriptGame,),
        {
            "game_type": game_type,
            "setup": dict(game=game, variant=variant, seats=seats, scripts=scripts),
            "max_actions": int(max_actions or probe.max_actions or DEFAULT_MAX_ACTIONS),
            "layout": layout,
        },
    )
    pyspiel.register_game(game_type, factory)
    return short_name


def _utility(seats: int, teams: list):
    if seats == 1 or any(len(team) == seats for team in teams):
        return pyspiel.GameType.Utility.IDENTICAL
    if seats == 2:
        return pyspiel.GameType.Utility.ZERO_SUM
    return pyspiel.GameType.Utility.GENERAL_SUM


def hides_anything(game) -> bool:
    """Whether some seat's view of `game` (a fresh `boardscript.Game`, played on by a random
    probe) hides anything another seat's shows, or several seats decide at once."""
    rng = random.Random(0)
    for _ in range(PROBE_ACTIONS + 1):
        views = [game.view(seat)["state"] for seat in game.seats]
        if any(_hides(view) or view != views[0] for view in views):
            return True
        deciding = game.deciding()
        if len(deciding) > 1:
            return True
        if not deciding:
            return False
        game.step(deciding[0], rng.randrange(len(game.legal_actions(deciding[0]))))
    return False


def _hides(state: dict) -> bool:
    if any(zone["visibility"] != "all" for zone in state.get("zones", [])):
        return True
    return any(
        card == HIDDEN_CARD for zone in state.get("zones", []) for card in zone["cards"]
    )


class BoardscriptGame(pyspiel.Game):
    """One registered Boardscript game (a subclass per game sets `game_type`, `setup`,
    `max_actions` and `layout`): a factory of states, each a `boardscript.Game`."""

    game_type: Any = None
    setup: dict = {}
    max_actions: int = DEFAULT_MAX_ACTIONS
    layout: Any = None

    def __init__(self, params: Optional[dict] = None):
        params = params or {}
        game_type, setup = self.game_type, self.setup
        seats = game_type.max_num_players
        utility = game_type.utility
        low = -1.0 if utility == pyspiel.GameType.Utility.ZERO_SUM else 0.0
        info = pyspiel.GameInfo(
            num_distinct_actions=self.max_actions,
            max_chance_outcomes=0,
            num_players=seats,
            min_utility=low,
            max_utility=1.0,
            utility_sum=0.0 if utility == pyspiel.GameType.Utility.ZERO_SUM else None,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type, info, params)
        values = {**game_type.parameter_specification, **params}
        self.zero_sum = utility == pyspiel.GameType.Utility.ZERO_SUM
        self._seeds = random.Random(int(values.pop("seed")))
        self._load = lambda seed: load(
            setup["game"],
            variant=setup["variant"],
            options=values,
            seats=setup["seats"],
            seed=seed,
            scripts=setup["scripts"],
        )

    def new_initial_state(self):
        """A new game, its seed the next of the sequence the `seed` parameter starts."""
        return BoardscriptState(self, self._load(self._seeds.getrandbits(53)))

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return ViewObserver(self.layout, with_log=perfect_recall)


class BoardscriptState(pyspiel.State):
    """A position: a `boardscript.Game` (`self.table`). OpenSpiel clones a state by deep
    copy (its history with it), and the game inside by `Game.clone()`."""

    def __init__(self, game: BoardscriptGame, table):
        super().__init__(game)
        self._table = _Held(table)
        self.zero_sum = game.zero_sum
        self.max_actions = game.max_actions

    @property
    def table(self):
        """The `boardscript.Game` this state is."""
        return self._table.game

    def current_player(self):
        deciding = self.table.deciding()
        if not deciding:
            return pyspiel.PlayerId.TERMINAL
        return self.table.seats.index(deciding[0])

    def legal(self, player: int) -> list:
        """`player`'s legal actions now (dicts of `Game.legal_actions`); action i is the i-th."""
        legal = self.table.legal_actions(player)
        if len(legal) > self.max_actions:
            raise ValueError(
                f"seat {player} has {len(legal)} legal actions, more than the game's "
                f"num_distinct_actions={self.max_actions}: register it with a larger max_actions"
            )
        return legal

    def _legal_actions(self, player):
        return list(range(len(self.legal(player))))

    def _apply_action(self, action):
        self.table.step(self.current_player(), int(action))

    def _action_to_string(self, player, action):
        legal = self.table.legal_actions(player) if player >= 0 else []
        if 0 <= action < len(legal):
            return legal[action]["text"]
        return f"action {action}"

    def is_terminal(self):
        return self.table.is_over()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state `player_id` cannot tell from this one, its hidden information drawn anew
        from that seat's view alone (`Game.resample`), seeded by `probability_sampler()`: the
        worlds OpenSpiel's information-set MCTS searches, none of them the true one."""
        seed = int(probability_sampler() * 2**53)
        return BoardscriptState(self.get_game(), self.table.resample(player_id, seed))

    def returns(self):
        r = self.table.returns()
        if self.zero_sum:
            return [r[0] - r[1], r[1] - r[0]]
        return list(r)

    def __str__(self):
        return self.table.render()


class _Held:
    """A `boardscript.Game` inside a state, deep-copied by `Game.clone()`."""

    def __init__(self, game):
        self.game = game

    def __deepcopy__(self, memo):
        return _Held(self.game.clone())


class ViewObserver:
    """A seat's view only: as a string, its JSON, keys sorted, with the seat's log (an
    information state) or without (an observation); as a tensor, its flat encoding."""

    def __init__(self, layout: Layout, with_log: bool):
        self.layout = layout
        self.with_log = with_log
        self.tensor = np.zeros(max(layout.size, 1), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor[:] = self.layout.encode(state.table.view(player)["state"], player)

    def string_from(self, state, player):
        view = state.table.view(player)["state"]
        if not self.with_log:
            view.pop("log", None)
        return json.dumps(view, sort_keys=True, separators=(",", ":"))
