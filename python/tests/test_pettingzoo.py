"""`boardscript.pettingzoo`: every shipped game and variant passes PettingZoo's `api_test`,
a game through the environment ends as the bindings end it, observations hide what the
seat may not see, and simultaneous decisions go one seat at a time."""

import os
import random

import numpy as np
import pytest

# The environment `.ci/run` makes has PettingZoo; elsewhere these tests wait for it.
if os.environ.get("CI"):
    import pettingzoo.test as pettingzoo_test
else:
    pettingzoo_test = pytest.importorskip("pettingzoo.test")

import boardscript  # noqa: E402
from boardscript.pettingzoo import DEFAULT_MAX_ACTIONS, env  # noqa: E402
from conftest import SCRIPTS, readme_example, run_example  # noqa: E402
from test_views import HIDDEN, hidden_from  # noqa: E402


def shipped_games():
    """Every game of the scripts folder, and every variant as `(game, variant)`."""
    games = []
    for folder in sorted(SCRIPTS.iterdir()):
        if (folder / "game.toml").is_file():
            games.append((folder.name, None))
            variants = folder / "variants"
            if variants.is_dir():
                games += [
                    (folder.name, v.name)
                    for v in sorted(variants.iterdir())
                    if (v / "game.toml").is_file()
                ]
    return games


def test_the_list_of_games_is_read_from_the_scripts_folder():
    games = shipped_games()
    assert ("connect-four", None) in games
    assert ("virus-wars", "blitz") in games
    assert len(games) >= 10


@pytest.mark.parametrize("game,variant", shipped_games(), ids=lambda g: g or "")
def test_api_test_passes(game, variant):
    e = env(game, variant=variant, scripts=SCRIPTS)
    # A bounded number of cycles keeps the whole list within CI's budget.
    pettingzoo_test.api_test(e, num_cycles=100)


def random_game(e, seed):
    """Plays `e` from `reset(seed)` with actions drawn by a seeded RNG among the legal ones;
    returns the indices played, each with its seat, and every agent's total reward."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    played, totals = [], {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter(max_iter=5000):
        obs, reward, terminated, truncated, _ = e.last()
        totals[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        played.append((agent, action))
        e.step(action)
    assert not e.agents, "the game ended within 5000 actions"
    return played, totals


@pytest.mark.parametrize(
    "game,seats", [("connect-four", None), ("fibs", 3), ("virus-war-kr", None)]
)
def test_a_random_game_ends_as_the_bindings_end_it(game, seats):
    e = env(game, seats=seats, scripts=SCRIPTS)
    for seed in range(2):
        played, totals = random_game(e, seed)
        direct = boardscript.load(game, seats=seats, seed=seed, scripts=SCRIPTS)
        for agent, action in played:
            assert direct.deciding()[0] == agent
            direct.step(agent, action)
        assert direct.is_over()
        assert e.game.winners() == direct.winners()
        assert [totals[a] for a in direct.seats] == direct.returns()
        assert sum(totals.values()) > 0, "someone is rewarded at the end"


def test_team_mates_share_the_reward():
    e = env("virus-war-fr", seats=4, coop=True, scripts=SCRIPTS)
    _, totals = random_game(e, 1)
    game = e.game
    view = game.view(0)["state"]
    assert view["teams"], "the game has teams"
    for team in view["teams"]:
        names = [game.seats[s] if isinstance(s, int) else s for s in team]
        assert len({totals[n] for n in names}) == 1, f"team {names}: {totals}"
    assert [totals[a] for a in game.seats] == game.returns()


@pytest.mark.parametrize("game,seats", [("fibs", 3), ("virus-war-kr", None)])
def test_an_observation_never_shows_another_seats_hidden_card(game, seats):
    e = env(game, seats=seats, scripts=SCRIPTS)
    e.reset(seed=3)
    rng = random.Random(3)
    blanks = 0
    for agent in e.agent_iter(max_iter=150):
        obs, _, terminated, truncated, _ = e.last()
        for me, name in enumerate(e.possible_agents):
            if name in e.agents:
                seen = e.observe(name)
                assert seen["view"]["seat"] == name
                blanks += hidden_from(seen["view"]["state"], me)
        if terminated or truncated:
            e.step(None)
        else:
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert blanks > 0, f"{game}: some card is hidden from some seat"
    assert (
        HIDDEN not in e.observe(e.possible_agents[0])["observation"]
    ), "the encoding holds no card ids"


def test_the_encoding_is_one_hot_planes_of_the_grid():
    e = env("connect-four", scripts=SCRIPTS)
    e.reset(seed=0)
    first = e.observe("x")["observation"]
    e.step(0)
    after = e.observe("x")["observation"]
    cells = 7 * 6
    # Three planes (empty, x, o) per cell, then the observing seat and the turn, one-hot.
    assert first.shape == (cells * 3 + 4,)
    assert first[: cells * 3].reshape(cells, 3)[:, 0].all(), "every cell empty"
    assert after[: cells * 3].reshape(cells, 3)[:, 1].sum() == 1, "one x piece"
    assert list(first[-4:]) == [1, 0, 1, 0] and list(after[-4:]) == [1, 0, 0, 1]


def test_the_action_space_is_the_legal_list_under_a_bound():
    e = env("connect-four", scripts=SCRIPTS, max_actions=10)
    e.reset(seed=0)
    legal = e.game.legal_actions("x")
    assert e.action_space("x").n == 10
    assert e.observe("x")["action_mask"].tolist() == [1] * len(legal) + [0] * (10 - len(legal))
    assert e.observe("o")["action_mask"].sum() == 0, "o is not deciding"
    e.step(len(legal) - 1)
    assert e.game.save() != boardscript.load("connect-four", seed=0, scripts=SCRIPTS).save()
    with pytest.raises(ValueError, match="no legal action 9"):
        e.step(9)
    with pytest.raises(ValueError, match="max_actions=3"):
        small = env("connect-four", scripts=SCRIPTS, max_actions=3)
        small.reset(seed=0)
        small.observe("x")


def test_the_bound_is_the_games_declared_max_else_the_default(tmp_path):
    assert env("connect-four", scripts=SCRIPTS).action_space("x").n == 7
    assert env("virus-wars", variant="blitz", scripts=SCRIPTS).action_space("blue").n == 2574
    assert env("fibs", scripts=SCRIPTS).action_space("p1").n == 86
    duel = write_game(tmp_path, "duel", DUEL_RULES)
    assert boardscript.load("duel", seed=0, scripts=tmp_path).max_actions is None
    assert env(duel, scripts=tmp_path).action_space("north").n == DEFAULT_MAX_ACTIONS


@pytest.mark.parametrize("game", sorted({g for g, _ in shipped_games()}))
def test_the_encoding_keeps_one_length_over_a_whole_game(game):
    # Zones that grow and shrink, counters set mid-game, graphs: every observation of a
    # random game has the space's one shape and lies in it.
    e = env(game, scripts=SCRIPTS)
    space = e.observation_space(e.possible_agents[0])["observation"]
    e.reset(seed=3)
    rng = random.Random(3)
    for agent in e.agent_iter(max_iter=600):
        obs, _, terminated, truncated, _ = e.last()
        assert obs["observation"].shape == space.shape, (game, agent)
        assert space.contains(obs["observation"]), (game, agent)
        if terminated or truncated:
            e.step(None)
        else:
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


LATER_RULES = """
fn setup(g) { }
fn legal_actions(g, seat) { ["go", "stay"] }
fn apply(g, seat, action) { g.add_counter("played", 1); g.next_turn(); }
fn to_decide(g) { if g.counter("played") >= 4 { [] } else { [g.turn()] } }
fn winners(g) { [] }
"""


def test_a_counter_set_only_later_has_its_place_in_the_encoding(tmp_path):
    # `played` is not in the first view: the probe games meet it, so it is encoded.
    e = env(write_game(tmp_path, "later", LATER_RULES), scripts=tmp_path)
    assert "played" in e._layout.counters
    e.reset(seed=0)
    first = e.observe("north")["observation"]
    e.step(0)
    e.step(1)
    after = e.observe("north")["observation"]
    assert first.shape == after.shape
    assert 2.0 in after.tolist() and 2.0 not in first.tolist(), "the counter reads 2"


def test_render_ansi_is_the_engines_drawing():
    e = env("connect-four", scripts=SCRIPTS, render_mode="ansi")
    e.reset(seed=0)
    e.step(2)
    drawing = e.render()
    assert drawing == e.game.render()
    assert "x" in drawing.splitlines()[-2] or "x" in drawing
    with pytest.raises(ValueError, match="ansi"):
        env("connect-four", scripts=SCRIPTS, render_mode="human")


def test_reset_seed_fixes_the_game():
    e = env("fibs", seats=3, scripts=SCRIPTS)
    one, _ = random_game(e, 5)
    two, _ = random_game(e, 5)
    assert one == two
    e.reset(seed=5)
    hand = e.observe("p1")["view"]
    e.reset(seed=6)
    assert e.observe("p1")["view"] != hand


DUEL_RULES = """
fn setup(g) { g.set_counter("round", 1); }
fn to_decide(g) { if g.counter("round") > 2 { [] } else { ["north", "south"] } }
fn legal_actions(g, seat) { ["rock", "paper", "scissors"] }
fn apply(g, seat, action) {
    g.set_counter(seat, action, 1);
    if seat == "south" { g.add_counter("round", 1); }
}
fn winners(g) { if g.counter("round") > 2 { ["north"] } else { [] } }
"""


def write_game(root, name, rules):
    """A two-seat game `name` (seats north and south) with `rules`, in folder `root`."""
    game = root / name
    game.mkdir()
    (game / "game.toml").write_text(f'title = "{name}"\n[seats]\nnames = ["north", "south"]\n')
    (game / "rules.rhai").write_text(rules)
    return name


def test_simultaneous_decisions_go_one_seat_at_a_time_and_leak_nothing(tmp_path):
    e = env(write_game(tmp_path, "duel", DUEL_RULES), scripts=tmp_path)
    pettingzoo_test.api_test(e, num_cycles=10)
    e.reset(seed=0)
    assert e.agent_selection == "north"
    e.step(0)  # rock, held
    assert e.agent_selection == "south", "the other deciding seat acts next"
    south = e.observe("south")["view"]["state"]
    assert south["pending"] == {"0": ""}, "south sees that north chose, not what"
    assert e.observe("north")["view"]["state"]["pending"] == {"0": "rock"}
    assert e.observe("north")["action_mask"].sum() == 0, "north has chosen"
    e.step(1)  # paper: both applied
    assert e.agent_selection == "north"
    e.step(2)
    e.step(2)
    assert all(e.terminations.values())
    assert e.rewards == {"north": 1.0, "south": 0.0}


def test_the_readme_example_plays_a_game_to_the_end():
    example = readme_example("### PettingZoo")
    scope = run_example(example)
    assert scope["e"].game.is_over() and not scope["e"].agents
