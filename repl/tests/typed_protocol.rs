//! Issue 24: the protocol's `actions` and `status` replies carry, next to the plain action
//! strings, each action typed (`typed`: `{seat: [{text, verb, args: [{kind, text, ...}]}]}`),
//! for a grid game, a graph game and a card game; a card another seat holds stays unnamed.

mod common;

use common::*;
use serde_json::{json, Value};

/// The typed form `reply` gives `seat` for `action`.
fn typed<'a>(reply: &'a Value, seat: &str, action: &str) -> &'a Value {
    reply["typed"][seat]
        .as_array()
        .unwrap_or_else(|| panic!("no typed actions for {seat}: {reply}"))
        .iter()
        .find(|t| t["text"] == action)
        .unwrap_or_else(|| panic!("{action} not typed for {seat}: {reply}"))
}

#[test]
fn hex_cells_are_typed_in_actions_and_status() {
    let mut p = Proc::start_in("hex", &scripts_dir(), &["--seed", "1", "-o", "size=5"]);
    let actions = p.ok("actions");
    let listed = strings(&actions["deciding"]["black"]);
    let all = actions["typed"]["black"].as_array().unwrap();
    assert_eq!(all.len(), listed.len(), "one typed action per action");
    assert_eq!(
        typed(&actions, "black", "c2"),
        &json!({"text": "c2", "verb": "", "shape": "{cell}",
                "args": [{"kind": "cell", "text": "c2", "grid": "board", "x": 2, "y": 1}]})
    );
    let status = p.ok("status");
    assert_eq!(status["typed"]["black"], actions["typed"]["black"]);
    p.finish();
}

#[test]
fn nemesis_moves_name_rooms_of_the_ship_graph() {
    let mut p = Proc::start_in("nemesis", &scripts_dir(), &["--seed", "1", "--seats", "1"]);
    // Past the draft: the bot plays until a move is listed.
    let mut reply = p.ok("actions");
    for _ in 0..20 {
        if strings(&reply["deciding"]["p1"])
            .iter()
            .any(|a| a.starts_with("move "))
        {
            break;
        }
        p.ok("bot");
        reply = p.ok("actions");
    }
    let moves: Vec<String> = strings(&reply["deciding"]["p1"])
        .into_iter()
        .filter(|a| a.starts_with("move "))
        .collect();
    assert!(!moves.is_empty(), "no move listed: {reply}");
    for m in &moves {
        let t = typed(&reply, "p1", m);
        assert_eq!(t["verb"], "move");
        assert_eq!(t["shape"], "move {node:ship.number}");
        let arg = &t["args"][0];
        assert_eq!(
            (&arg["kind"], &arg["graph"]),
            (&json!("node"), &json!("ship"))
        );
        // The room number names a room node of the graph (`slot-05`, `cockpit`...).
        assert!(arg["node"].as_str().is_some_and(|n| !n.is_empty()), "{t}");
    }
    let status = p.ok("status");
    assert_eq!(status["typed"]["p1"], reply["typed"]["p1"]);
    p.finish();
}

const MANIFEST: &str = r#"[seats]
names = ["red", "blue"]

[zones.hand]
per_seat = true
visible_to = "owner"

[actions]
shapes = ["eat {card}", "pass"]
"#;

/// Each seat may eat its own fruit or the other's (as an action names a card).
const RULES: &str = r#"
fn setup(g) {
    g.zone("hand", "red").put(g.new_card("apple", #{}));
    g.zone("hand", "blue").put(g.new_card("plum", #{}));
}
fn to_decide(g) { ["red", "blue"] }
fn legal_actions(g, seat) { ["eat apple", "eat plum", "pass"] }
fn apply(g, seat, action) { g.end_game([], "eaten"); }
"#;

/// A card game: `actions` reads each seat's actions from its own view, so the card in the
/// other seat's hand is a card slot with no id, name or zone; with `--seat`, the client's.
#[test]
fn a_card_argument_names_only_a_card_the_seat_sees() {
    let dir = tempfile::tempdir().unwrap();
    write_game(dir.path(), "fruit", MANIFEST, RULES);
    let mut p = Proc::start_in("fruit", dir.path(), &["--seed", "1"]);
    let actions = p.ok("actions");
    let own = &typed(&actions, "red", "eat apple")["args"][0];
    assert_eq!(
        (&own["kind"], &own["name"], &own["zone"], &own["seat"]),
        (&json!("card"), &json!("apple"), &json!("hand"), &json!(0))
    );
    assert!(own["card"].is_u64(), "{own}");
    assert_eq!(
        typed(&actions, "red", "eat plum")["args"][0],
        json!({"kind": "card", "text": "plum"})
    );
    assert_eq!(
        typed(&actions, "blue", "eat apple")["args"][0],
        json!({"kind": "card", "text": "apple"})
    );
    assert_eq!(
        typed(&actions, "blue", "eat plum")["args"][0]["name"],
        "plum"
    );
    p.finish();

    // A client playing blue: its replies type its own actions only.
    let mut p = Proc::start_in("fruit", dir.path(), &["--seed", "1", "--seat", "blue"]);
    for command in ["actions", "status"] {
        let reply = p.ok(command);
        assert_eq!(reply["typed"].as_object().unwrap().len(), 1, "{reply}");
        assert_eq!(
            typed(&reply, "blue", "eat apple")["args"][0],
            json!({"kind": "card", "text": "apple"})
        );
    }
    p.finish();
}
