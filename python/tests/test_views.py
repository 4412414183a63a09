"""A seat's view shows no other seat's hidden card: the rule `tests/tests/facade.rs` checks,
through the bindings, on card games."""

import random

import boardscript
from conftest import SCRIPTS

HIDDEN = 65535


def known_to(state, card, me):
    known = state["cards"][card].get("known_to")
    return known in ("all", "everyone") or (isinstance(known, list) and me in known)


def hidden_from(state, me):
    """Checks `state` (seat `me`'s view) and returns how many cards it shows as hidden."""
    blanks = 0
    for zone in state["zones"]:
        open_zone = zone["visibility"] == "all" or (
            zone["visibility"] == "owner" and zone.get("owner") == me
        )
        for card in zone["cards"]:
            if card == HIDDEN:
                blanks += 1
                continue
            assert open_zone or known_to(state, card, me), (
                f"seat {me} sees card {card} ({state['cards'][card]['name']}) in {zone['name']}"
            )
    return blanks


def test_views_never_show_another_seats_hidden_cards():
    for game_id, seats in [("fibs", 3), ("virus-war-kr", None)]:
        for seed in range(2):
            game = boardscript.load(game_id, seats=seats, seed=seed, scripts=SCRIPTS)
            rng = random.Random(seed)
            blanks = 0
            for _ in range(120):
                for me, name in enumerate(game.seats):
                    view = game.view(name)
                    assert view["seat"] == name
                    blanks += hidden_from(view["state"], me)
                deciding = game.deciding()
                if not deciding:
                    break
                seat = rng.choice(deciding)
                game.step(seat, rng.choice(game.legal_actions(seat)))
            assert blanks > 0, f"{game_id}: some card is hidden from some seat"


def test_a_hand_is_blank_to_the_other_seats():
    game = boardscript.load("fibs", seats=3, seed=4, scripts=SCRIPTS)
    mine = game.view(0)["state"]
    theirs = game.view(1)["state"]
    hand = next(z for z in mine["zones"] if z["visibility"] == "owner" and z.get("owner") == 0)
    seen = next(z for z in theirs["zones"] if z["name"] == hand["name"] and z.get("owner") == 0)
    assert hand["cards"] and HIDDEN not in hand["cards"]
    assert seen["cards"] == [HIDDEN] * len(hand["cards"])
