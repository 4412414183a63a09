//! Layout hints (`[layout]` of game.toml): checked when the game loads, a bad one refused at
//! its place, and a good one passed to clients in `GET /api/games` and the `welcome`.

mod common;

use boardscript_interpreter::GameSource;
use boardscript_server::client::{self, Socket};
use common::{id, Server};
use serde_json::json;

#[test]
fn a_games_layout_reaches_the_games_list_and_the_welcome() {
    let server = Server::start();
    let (status, games) = client::get(server.addr(), "/api/games").unwrap();
    assert_eq!(status, 200);
    let game = |id: &str| {
        games["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .unwrap()
            .clone()
    };
    let red_and_gold = json!({"x": "red", "o": "gold"});
    assert_eq!(
        game("connect-four")["layout"],
        json!({"seats": red_and_gold, "cells": red_and_gold, "cards": {}, "nodes": {}})
    );
    assert_eq!(
        game("fibs")["layout"],
        json!({"seats": {}, "cells": {}, "cards": {}, "nodes": {}})
    );
    let ship = &game("nemesis")["layout"]["nodes"]["ship"];
    assert_eq!(ship["cockpit"], json!([40, 500]));
    assert_eq!(
        ship.as_object().unwrap().len(),
        22,
        "21 rooms and the corridors' node"
    );
    let created = server.create(json!({"game": "connect-four"}));
    let (_, welcome, _) = Socket::join(server.addr(), id(&created), None).unwrap();
    assert_eq!(welcome["layout"]["cells"], red_and_gold);
}

/// A one-seat game in its own folder, with `layout` as its manifest's `[layout]`.
fn game_with(layout: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let manifest =
        format!("title = \"Dots\"\n[seats]\nnames = [\"red\", \"blue\"]\n\n[layout]\n{layout}\n");
    std::fs::write(dir.path().join("game.toml"), manifest).unwrap();
    std::fs::write(
        dir.path().join("rules.rhai"),
        "fn setup(g) {}\nfn legal_actions(g, seat) { [\"pass\"] }\nfn apply(g, seat, a) { g.end_game([seat], \"passed\"); }\n",
    )
    .unwrap();
    dir
}

#[test]
fn a_bad_hint_is_refused_at_load_with_its_place() {
    for (layout, place, why) in [
        (
            "cells = { x = \"red;background:url(http://x)\" }",
            ":6:15:",
            "is not a colour",
        ),
        ("seats = { red = \"#12345\" }", ":6:17:", "is not a colour"),
        ("seats = { green = \"green\" }", ":6:19:", "no seat `green`"),
        (
            "cards = { a = \"expression(1)\" }",
            ":6:15:",
            "is not a colour",
        ),
        (
            "nodes = { ring = { a = [500, 1001] } }",
            ":6:24:",
            "layout.nodes.`ring`.`a`: give `[x, y]`, two whole numbers from 0 to 1000",
        ),
        (
            "[layout.nodes.ring]\nb = [1, 2, 3]",
            ":7:5:",
            "give `[x, y]`",
        ),
        ("[layout.nodes.ring]\nb = [-1, 2]", ":7:5:", "give `[x, y]`"),
        (
            "colours = { a = \"red\" }",
            ":6:1:",
            "unknown field `colours`",
        ),
    ] {
        let dir = game_with(layout);
        let refused = GameSource::read(dir.path(), "dots")
            .err()
            .unwrap_or_else(|| panic!("{layout} was taken"))
            .to_string();
        assert!(
            refused.contains(&format!("game.toml{place}")) && refused.contains(why),
            "{layout}: {refused}"
        );
    }
    let good = game_with(
        "seats = { red = \"#c33\", blue = \"blue\" }\ncards = { \"9\" = \"Gold\" }\n\
         [layout.nodes.ring]\na = [0, 1000]",
    );
    let spec = GameSource::read(good.path(), "dots").unwrap();
    assert_eq!(spec.spec().layout.nodes["ring"]["a"], [0, 1000]);
    assert_eq!(spec.spec().layout.seats["red"], "#c33");
    assert_eq!(spec.spec().layout.cards["9"], "Gold");
}
