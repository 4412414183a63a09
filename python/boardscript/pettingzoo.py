"""Any Boardscript game as a PettingZoo AEC environment.

    from boardscript.pettingzoo import env
    e = env("connect-four", scripts="scripts")
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, done, cut, info = e.last()
        e.step(None if done or cut else e.action_space(agent).sample(obs["action_mask"]))

Agents are the seats, by name. An agent's observation is a dict: `view` (the seat's view as
`Game.view` gives it: others' hidden cards blank), `observation` (a flat float32 encoding of
what every view shows in the same place: each grid as one-hot planes per cell value, the
counters, each seat's counters, zone sizes and supplies left; its layout is read from
random probe games when the environment is made, see `Layout`) and `action_mask`. An action is
an index into the seat's legal actions now (`Game.legal_actions`), below `max_actions`.
Rewards are `Game.returns()` when the game ends (so team mates share a win, and a
co-operative win rewards everyone); 0 before. Simultaneous decisions: each deciding seat
acts in turn, its choice held by the engine (not in the others' views) until all have chosen.
"""

from __future__ import annotations

import functools
import random
from typing import Any, Optional

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from . import load

# The action bound of a game that declares none (`[actions] max` in its game.toml) when the
# environment is given none: no shipped game offers more legal actions at once (the
# environment raises, naming `max_actions`, if one ever does).
DEFAULT_MAX_ACTIONS = 1024
# Counters are integers; the observation space bounds them at what float32 keeps exact.
COUNTER_BOUND = float(2**24)
# The probe games that fix the encoding's layout (seeds 0, 1, ...), and the random actions
# each plays from the start at most: enough to meet what a game shows only later (a round
# counter, a zone dealt to mid-game), cheap enough to make an environment in a blink.
PROBE_GAMES = 2
PROBE_ACTIONS = 300


def env(game: str, **options: Any) -> "BoardscriptEnv":
    """The AEC environment of `game` (see `BoardscriptEnv` for the options)."""
    return BoardscriptEnv(game, **options)


class ViewSpace(gymnasium.Space):
    """A seat's view: a dict `{"seat": name, "state": {...}}` of no fixed size, so it is not
    flattened nor sampled meaningfully (its sample is an empty view)."""

    def __init__(self, seat: str):
        super().__init__(None, None)
        self.seat = seat

    def contains(self, x: Any) -> bool:
        return (
            isinstance(x, dict) and x.get("seat") == self.seat and isinstance(x.get("state"), dict)
        )

    def sample(self, mask: Any = None, probability: Any = None) -> dict:
        return {"seat": self.seat, "state": {}}

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ViewSpace) and other.seat == self.seat

    def __repr__(self) -> str:
        return f"ViewSpace({self.seat!r})"


class Layout:
    """Where each thing a view shows goes in the flat encoding: every grid (its cells and
    symbols), counter, seat counter, zone and supply seen in any of `states` (views from
    probe games), each in a place of its own. The encoding of any later view has this one
    length: what a view lacks is 0 (padded), what the probes never met is left out (clipped:
    a counter named after a card drawn only in some games, cells past a grid's probed size)."""

    def __init__(self, states: list):
        grids: dict = {}  # name -> (cells, symbols), the largest seen
        counters, seat_counters, zones, supplies = set(), set(), {}, {}
        self.seats = 0
        for state in states:
            for g in state.get("grids", []):
                cells, values = grids.get(g["name"], (0, 0))
                grids[g["name"]] = (
                    max(cells, len(g["cells"])),
                    max(values, len(g.get("symbols") or [])),
                )
            counters.update(state.get("counters", {}))
            seat_counters.update(k for c in state.get("seat_counters", []) for k in c)
            self.seats = max(self.seats, len(state.get("seats", [])))
            # dicts keep the order first seen: zones and supplies in the views' own order.
            zones.update(((z["name"], z.get("owner")), None) for z in state.get("zones", []))
            supplies.update(((s["name"], s.get("owner")), None) for s in state.get("supplies", []))
        self.grids = [(name, cells, values) for name, (cells, values) in grids.items()]
        self.counters = sorted(counters)
        self.seat_counters = sorted(seat_counters)
        self.zones = list(zones)
        self.supplies = list(supplies)
        self.size = (
            sum(cells * max(values, 1) for _, cells, values in self.grids)
            + len(self.counters)
            + self.seats * len(self.seat_counters)
            + len(self.zones)
            + len(self.supplies)
            + 2 * self.seats  # the observing seat, and the seat whose turn it is, one-hot
        )

    def encode(self, state: dict, me: int) -> np.ndarray:
        out = np.zeros(max(self.size, 1), dtype=np.float32)
        at = 0
        grids = {g["name"]: g for g in state.get("grids", [])}
        for name, cells, values in self.grids:
            grid = grids.get(name)
            if grid is not None and values:
                for i, v in enumerate(grid["cells"][:cells]):
                    if 0 <= v < values:
                        out[at + i * values + v] = 1.0
            at += cells * max(values, 1)
        counters = state.get("counters", {})
        for name in self.counters:
            out[at] = _bounded(counters.get(name, 0))
            at += 1
        seat_counters = state.get("seat_counters", [])
        for seat in range(self.seats):
            mine = seat_counters[seat] if seat < len(seat_counters) else {}
            for name in self.seat_counters:
                out[at] = _bounded(mine.get(name, 0))
                at += 1
        zones = {(z["name"], z.get("owner")): len(z["cards"]) for z in state.get("zones", [])}
        for key in self.zones:
            out[at] = zones.get(key, 0)
            at += 1
        supplies = {
            (s["name"], s.get("owner")): s.get("left", 0) for s in state.get("supplies", [])
        }
        for key in self.supplies:
            out[at] = _bounded(supplies.get(key, 0))
            at += 1
        if self.seats:
            out[at + me] = 1.0
            current = state.get("turn", {}).get("current")
            if isinstance(current, int) and 0 <= current < self.seats:
                out[at + self.seats + current] = 1.0
        return out


def probed_layout(first: Any, load_seed: Any) -> "Layout":
    """The encoding's layout for game `first` (a fresh `boardscript.Game`, left as it is):
    its start and `PROBE_GAMES` random probe games, a clone of it and `load_seed(s)` for
    the seeds after."""
    probes = [first.clone()] + [load_seed(s) for s in range(1, PROBE_GAMES)]
    return Layout(_probe_views(first, probes))


def _probe_views(first: Any, games: list) -> list:
    """Every seat's view of `first` as it starts, then of each of `games` after each of up to
    `PROBE_ACTIONS` random actions (seeded by the game's place in the list)."""
    states = [first.view(seat)["state"] for seat in first.seats]
    for i, game in enumerate(games):
        rng = random.Random(i)
        for _ in range(PROBE_ACTIONS):
            deciding = game.deciding()
            if not deciding:
                break
            seat = deciding[0]
            game.step(seat, rng.randrange(len(game.legal_actions(seat, typed=False))))
            states.append(game.view(seat)["state"])
    return states


def _bounded(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return 0.0
    return float(min(max(value, -COUNTER_BOUND), COUNTER_BOUND))


class BoardscriptEnv(AECEnv):
    """One game of a scripts folder as an AEC environment.

    Options: `variant`, `options` (the game's options by name, as `boardscript.load` takes
    them; any other keyword is one of them too), `seats`, `scripts`, `max_actions` (the size
    of the `Discrete` action space; default the game's `[actions] max`, else
    `DEFAULT_MAX_ACTIONS`), `max_steps` (truncate
    every agent after this many actions; default none) and `render_mode` ("ansi": `render()`
    returns the game's own drawing, a spectator's). The seed is `reset(seed=...)`'s.
    """

    metadata = {"render_modes": ["ansi"], "name": "boardscript_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        variant: Optional[str] = None,
        options: Optional[dict] = None,
        seats: Optional[int] = None,
        scripts: Any = None,
        max_actions: Optional[int] = None,
        max_steps: Optional[int] = None,
        render_mode: Optional[str] = None,
        **more_options: Any,
    ):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: this environment renders only 'ansi'")
        self.render_mode = render_mode
        self._load = functools.partial(
            load,
            game,
            variant=variant,
            options={**(options or {}), **more_options},
            seats=seats,
            scripts=scripts,
        )
        self.max_steps = max_steps
        # A first game, seed 0, fixes the seats and the action bound; random probe games, the
        # encoding's layout.
        probe = self._load(seed=0)
        self.max_actions = int(max_actions or probe.max_actions or DEFAULT_MAX_ACTIONS)
        self.possible_agents = list(probe.seats)
        self._index = {name: i for i, name in enumerate(self.possible_agents)}
        self._layout = probed_layout(probe, lambda s: self._load(seed=s))
        self.metadata = {**self.metadata, "name": f"boardscript_{probe.id.replace('/', '_')}_v0"}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        -COUNTER_BOUND, COUNTER_BOUND, (max(self._layout.size, 1),), np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, (self.max_actions,), np.int8),
                    "view": ViewSpace(agent),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.max_actions) for agent in self.possible_agents
        }
        self.game = probe

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        self.game = self._load(seed=seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.steps = 0
        self._select()

    def _select(self) -> None:
        """The next agent: the first seat still to decide (a seat that has made a
        simultaneous choice is no longer deciding); once over, the first agent left."""
        deciding = self.game.deciding()
        self.agent_selection = deciding[0] if deciding else self.agents[0]

    def legal_actions(self, agent: str, typed: bool = True) -> list:
        """`agent`'s legal actions now, as `Game.legal_actions` gives them (dicts, or texts
        with `typed=False`); action i is the i-th of these."""
        if agent not in self.agents or self.terminations[agent] or self.truncations[agent]:
            return []
        legal = self.game.legal_actions(agent, typed=typed)
        if len(legal) > self.max_actions:
            raise ValueError(
                f"{agent} has {len(legal)} legal actions, more than "
                f"max_actions={self.max_actions}: make the environment with a larger max_actions"
            )
        return legal

    def observe(self, agent: str) -> dict:
        view = self.game.view(agent)
        mask = np.zeros(self.max_actions, dtype=np.int8)
        mask[: len(self.legal_actions(agent, typed=False))] = 1
        return {
            "observation": self._layout.encode(view["state"], self._index[agent]),
            "action_mask": mask,
            "view": view,
        }

    def step(self, action: Optional[int]) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self.legal_actions(agent, typed=False)
        if action is None or not 0 <= int(action) < len(legal):
            raise ValueError(f"{agent} has no legal action {action!r} (it has {len(legal)})")
        self._cumulative_rewards[agent] = 0.0
        self.game.step(agent, int(action))
        self.steps += 1
        self._clear_rewards()
        if self.game.is_over():
            for a, r in zip(self.possible_agents, self.game.returns()):
                if a in self.agents:
                    self.rewards[a] = float(r)
                    self.terminations[a] = True
        elif self.max_steps is not None and self.steps >= self.max_steps:
            self.truncations = {a: True for a in self.agents}
        self._select()
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() without a render_mode: make the environment with render_mode='ansi'"
            )
            return None
        return self.game.render()

    def close(self) -> None:
        pass
