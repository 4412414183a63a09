//! A graph game in a real browser: a Nemesis match page drawn by headless Chromium, the ship
//! as a node-link diagram placed from the game's data (bow left, stern right, port up), the
//! seat's own cards face up and the other seat's as backs, and moves played by clicking
//! rooms and buttons. Screenshots under `target/browser-screenshots/`.

#[path = "browser/cdp.rs"]
#[allow(dead_code)]
mod cdp;
mod common;
#[path = "browser/shared.rs"]
#[allow(dead_code)]
mod shared;

use cdp::Page;
use common::Server;
use serde_json::{json, Value};
use shared::{browser, click_button, deciding_after, join_link, screenshots};

/// A drawn node's centre, by node name.
fn centre(page: &mut Page, node: &str) -> (f64, f64) {
    let c = page
        .eval(&format!(
            "(() => {{ const c = document.querySelector('g[data-node=\"{node}\"] circle');
               return [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))]; }})()"
        ))
        .unwrap();
    (c[0].as_f64().unwrap(), c[1].as_f64().unwrap())
}

fn count(page: &mut Page, selector: &str) -> u64 {
    page.eval(&format!(
        "document.querySelectorAll({}).length",
        json!(selector)
    ))
    .unwrap()
    .as_u64()
    .unwrap()
}

/// The actions that name `room` as their one argument (`move 3`, `careful 3`).
fn moves_to(page: &mut Page, room: &str) -> Vec<String> {
    let typed = page.eval("state.decision.typed").unwrap();
    typed
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| {
            let args = t["args"].as_array().unwrap();
            args.len() == 1 && args[0]["kind"] == "node" && args[0]["node"] == room
        })
        .map(|t| t["text"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn nemesis_drawn_as_its_ship_and_played_by_clicking_rooms() {
    let Some(mut browser) = browser() else {
        return;
    };
    let shots = screenshots();
    let server = Server::start();
    let created =
        server.create(json!({"game": "nemesis", "seats": 2, "seed": 4, "bots": {"p2": "random"}}));
    let id = common::id(&created).to_string();
    let mut p1 = browser.open(&join_link(&created, "p1")).unwrap();
    deciding_after(&mut p1, 0);
    assert_eq!(p1.text("#who"), "You play p1");

    // The ship: every room a node, every corridor a link, placed as the printed board.
    let graph = p1.eval("state.view.state.graphs[0]").unwrap();
    assert_eq!(graph["name"], "ship");
    let nodes = graph["nodes"].as_array().unwrap().len() as u64;
    let links: u64 = graph["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|ns| ns.as_array().unwrap().len() as u64)
        .sum::<u64>()
        / 2;
    assert_eq!(nodes, 22, "21 rooms and the technical corridors");
    assert_eq!(
        count(&mut p1, "svg.graph[data-graph=\"ship\"] g[data-node]"),
        nodes
    );
    assert_eq!(count(&mut p1, "svg.graph[data-graph=\"ship\"] line"), links);
    let (cockpit, hibernatorium, engine) = (
        centre(&mut p1, "cockpit"),
        centre(&mut p1, "hibernatorium"),
        centre(&mut p1, "engine-2"),
    );
    assert!(
        cockpit.0 < hibernatorium.0 && hibernatorium.0 < engine.0,
        "bow to stern"
    );
    assert_eq!(cockpit.1, hibernatorium.1, "on the ship's axis");
    assert!(
        centre(&mut p1, "slot-02").1 < centre(&mut p1, "slot-04").1,
        "port above starboard"
    );
    let width: f64 = p1
        .eval("Number(document.querySelector('svg.graph').getAttribute('width'))")
        .unwrap()
        .as_f64()
        .unwrap();
    assert!(
        (hibernatorium.0 - width / 2.0).abs() < 1.0,
        "the hibernatorium at the centre"
    );
    p1.screenshot(&shots.join("nemesis-01-pick.png"));

    // A character by its button; the bot picks the other's.
    let first = p1.eval("state.decision.options[0]").unwrap();
    let first = first.as_str().unwrap().to_string();
    assert!(first.starts_with("pick "), "{first}");
    click_button(&mut p1, &first);
    deciding_after(&mut p1, 1);

    // p1's own cards face up; p2's hand and objectives as backs.
    let mine = count(&mut p1, ".zone[data-owner=\"0\"] .card:not(.back)");
    let theirs = count(
        &mut p1,
        ".zone[data-zone=\"hand\"][data-owner=\"1\"] .card:not(.back)",
    );
    let backs = count(
        &mut p1,
        ".zone[data-zone=\"hand\"][data-owner=\"1\"] .card.back",
    );
    assert!(mine >= 5, "{mine} of p1's cards face up");
    assert_eq!((theirs, backs), (0, 5), "p2's hand, face down");
    p1.screenshot(&shots.join("nemesis-02-hand.png"));

    // Moves by clicking a room: a room two actions name (`move`, `careful`) marks both
    // buttons, one of which plays; a room that one action names plays at once.
    let mut rooms_clicked = 0;
    for turn in 0..6 {
        // The page's own count: the server's may not have reached the page yet.
        deciding_after(&mut p1, 0);
        let seq = p1.eval("state.seq").unwrap().as_u64().unwrap();
        let rooms: Vec<Value> = p1
            .eval("state.decision.typed.filter(t => t.args.length === 1 && t.args[0].kind === 'node').map(t => t.args[0].node)")
            .unwrap()
            .as_array()
            .unwrap()
            .clone();
        let Some(room) = rooms.first().and_then(Value::as_str).map(str::to_string) else {
            // Not a move now (a question): its first button.
            let first = p1.eval("state.decision.options[0]").unwrap();
            click_button(&mut p1, first.as_str().unwrap());
            p1.wait_for(&format!("state.seq > {seq}"));
            continue;
        };
        let named = moves_to(&mut p1, &room);
        p1.click(&format!("g[data-node=\"{room}\"]"));
        if named.len() > 1 {
            p1.wait_for("document.querySelectorAll('#actions button.candidate').length > 0");
            let marked: Vec<String> = serde_json::from_value(
                p1.eval("[...document.querySelectorAll('#actions button.candidate')].map(b => b.textContent)")
                    .unwrap(),
            )
            .unwrap();
            assert_eq!(marked, named, "turn {turn}");
            // p1 still decides (the bot may play meanwhile, where both decide).
            let deciding = server.status(&id)["deciding"].clone();
            assert!(
                deciding.as_array().unwrap().contains(&json!("p1")),
                "nothing played yet: {deciding}"
            );
            p1.screenshot(&shots.join(format!("nemesis-{:02}-picked.png", turn + 3)));
            click_button(&mut p1, &named[0]);
        }
        p1.wait_for(&format!("state.seq > {seq}"));
        assert_eq!(p1.text("#refusal"), "", "turn {turn}");
        let log = p1.eval("state.log.join('\\n')").unwrap();
        assert!(log.as_str().unwrap().contains("p1: "), "{log}");
        rooms_clicked += 1;
    }
    assert!(
        rooms_clicked >= 2,
        "{rooms_clicked} moves by clicking rooms"
    );
    p1.screenshot(&shots.join("nemesis-09-moved.png"));
}
