//! The match page in a real browser: headless Chromium opens two seats' join links and
//! plays a game to the end by clicking, the page's content checked after each click and
//! screenshots saved under `target/browser-screenshots/`. Without Chromium the tests skip
//! with a printed reason, except under CI (`CI` set), where they fail.

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
use shared::{browser, join_link, screenshots};

fn turn_is(page: &mut Page, text: &str) {
    page.wait_for(&format!(
        "document.getElementById('turn').textContent === {}",
        json!(text)
    ));
}

/// The symbol the page draws at cell (x, y) of the board.
fn cell(page: &mut Page, x: usize, y: usize) -> String {
    let expr =
        format!("document.querySelector('.cell[data-x=\"{x}\"][data-y=\"{y}\"]').dataset.symbol");
    page.eval(&expr).unwrap().as_str().unwrap().to_string()
}

#[test]
fn connect_four_played_to_the_end_by_clicking_cells() {
    let Some(mut browser) = browser() else {
        return;
    };
    let shots = screenshots();
    let server = Server::start();
    let created = server.create(json!({"game": "connect-four", "seats": 2, "seed": 5}));
    let id = common::id(&created).to_string();
    let mut x = browser.open(&join_link(&created, "x")).unwrap();
    let mut o = browser.open(&join_link(&created, "o")).unwrap();
    turn_is(&mut x, "Your turn (x)");
    turn_is(&mut o, "Waiting for x");
    assert_eq!(x.text("#who"), "You play x");
    assert_eq!(x.text("#title"), "Boardscript: connect-four");
    assert_eq!(
        x.eval("document.querySelectorAll('.cell').length").unwrap(),
        42
    );

    // o clicks out of turn: nothing is sent, the page says so.
    o.click(".cell[data-x=\"3\"][data-y=\"5\"]");
    o.wait_for("document.getElementById('refusal').textContent === 'Nothing to play there.'");
    // x types an action that is no column: the server refuses it, nothing changes.
    x.click("#notation");
    x.type_text("z");
    x.click("#typed button");
    x.wait_for("document.getElementById('refusal').textContent !== ''");
    assert!(x.text("#refusal").contains("z"), "{}", x.text("#refusal"));
    assert_eq!(server.status(&id)["seq"], 0);

    // x stacks column a, o column b: x has four in a row after seven moves.
    let moves = [
        ("x", 0),
        ("o", 1),
        ("x", 0),
        ("o", 1),
        ("x", 0),
        ("o", 1),
        ("x", 0),
    ];
    let mut height = [0usize; 7];
    for (n, &(seat, column)) in moves.iter().enumerate() {
        let (mover, other, other_seat) = if seat == "x" {
            (&mut x, &mut o, "o")
        } else {
            (&mut o, &mut x, "x")
        };
        // The top cell of the column: a click anywhere in a column drops there.
        mover.click(&format!(".cell[data-x=\"{column}\"][data-y=\"5\"]"));
        let row = height[column];
        height[column] += 1;
        let filled = format!(
            "document.querySelector('.cell[data-x=\"{column}\"][data-y=\"{row}\"]').dataset.symbol === '{seat}'"
        );
        mover.wait_for(&filled);
        other.wait_for(&filled);
        assert_eq!(server.status(&id)["seq"], n as u64 + 1);
        if n + 1 < moves.len() {
            turn_is(mover, &format!("Waiting for {other_seat}"));
            turn_is(other, &format!("Your turn ({other_seat})"));
            assert_eq!(cell(other, column, row + 1), ".");
        }
        mover.screenshot(&shots.join(format!("connect-four-{:02}-{seat}.png", n + 1)));
    }

    // The game-over screen on both pages, with the result.
    for page in [&mut x, &mut o] {
        page.wait_for("!document.getElementById('over').hidden");
        assert!(
            page.text("#turn").starts_with("Over: x wins"),
            "{}",
            page.text("#turn")
        );
    }
    assert!(
        x.text("#result").starts_with("You win. x wins"),
        "{}",
        x.text("#result")
    );
    assert!(
        o.text("#result").starts_with("You do not win. x wins"),
        "{}",
        o.text("#result")
    );
    assert_eq!(server.status(&id)["outcome"]["winners"], json!(["x"]));
    x.screenshot(&shots.join("connect-four-over-x.png"));
}

/// One move on `page` by clicking: the cards (or seat) its first clickable action names, in
/// order, else that action's button. Returns the action's text and whether cards were clicked.
fn play_first_action(page: &mut Page) -> (String, bool) {
    let typed = page.eval("state.decision.typed").unwrap();
    let actions = typed.as_array().expect("a decision");
    let clickable = |t: &&Value| {
        let args = t["args"].as_array().unwrap();
        !args.is_empty()
            && args
                .iter()
                .all(|a| a["card"].is_u64() || a["kind"] == "seat")
    };
    match actions.iter().find(clickable) {
        Some(t) => {
            for a in t["args"].as_array().unwrap() {
                if a["kind"] == "seat" {
                    let name = names(page)[a["seat"].as_u64().unwrap() as usize].clone();
                    page.click(&format!("tr[data-seat=\"{name}\"] td"));
                } else {
                    page.click(&format!(".card[data-card=\"{}\"]", a["card"]));
                }
            }
            let cards = t["args"]
                .as_array()
                .unwrap()
                .iter()
                .any(|a| a["card"].is_u64());
            (t["text"].as_str().unwrap().to_string(), cards)
        }
        None => {
            page.click("#actions button[data-option=\"0\"]");
            (actions[0]["text"].as_str().unwrap().to_string(), false)
        }
    }
}

fn names(page: &mut Page) -> Vec<String> {
    serde_json::from_value(page.eval("state.view.state.seats").unwrap()).unwrap()
}

#[test]
fn virus_war_played_to_the_end_by_clicking_cards() {
    let Some(mut browser) = browser() else {
        return;
    };
    let shots = screenshots();
    let server = Server::start();
    let created = server.create(json!({"game": "virus-war-kr", "seed": 3,
        "bots": {"p3": "random", "p4": "random"}}));
    let id = common::id(&created).to_string();
    let mut pages = [
        ("p1", browser.open(&join_link(&created, "p1")).unwrap()),
        ("p2", browser.open(&join_link(&created, "p2")).unwrap()),
    ];
    for (seat, page) in pages.iter_mut() {
        page.wait_for("typeof state === 'object' && state !== null");
        // Its own hand face up, every other hand as backs.
        let index = seat[1..].parse::<usize>().unwrap() - 1;
        let own = format!(
            "document.querySelectorAll('.zone[data-zone=\"hand\"][data-owner=\"{index}\"] .card:not(.back)').length"
        );
        assert_eq!(page.eval(&own).unwrap(), 6, "{seat}");
        let backs = page
            .eval("document.querySelectorAll('.zone[data-zone=\"hand\"] .card.back').length")
            .unwrap();
        assert_eq!(backs, 18, "{seat}");
    }
    let mut moves = 0;
    let mut card_clicks = 0;
    for _ in 0..400 {
        if !server.status(&id)["outcome"].is_null() {
            break;
        }
        let mut moved = false;
        for (seat, page) in pages.iter_mut() {
            let deciding = page
                .eval("!!(state && state.decision) && !state.outcome")
                .unwrap();
            if deciding != Value::Bool(true) {
                continue;
            }
            let seq = page.eval("state.seq").unwrap().as_u64().unwrap();
            let (action, cards) = play_first_action(page);
            // The page moves on: a new state, or this seat no longer deciding.
            page.wait_for(&format!(
                "state.seq > {seq} || !state.decision || !!state.outcome"
            ));
            let refusal = page.text("#refusal");
            if !refusal.is_empty() {
                // A bot's (or the other seat's) move came between choosing the action and
                // its clicks: what was clicked may no longer be legal. Only then may a click
                // name nothing; the next look chooses from the new state.
                let moved_on = page.eval(&format!("state.seq > {seq}")).unwrap();
                assert!(
                    refusal == "Nothing to play there." && moved_on == Value::Bool(true),
                    "{seat} {action}: {refusal}"
                );
                continue;
            }
            card_clicks += cards as usize;
            moves += 1;
            moved = true;
            if moves % 5 == 1 {
                page.screenshot(&shots.join(format!("virus-war-{moves:03}-{seat}.png")));
            }
        }
        if !moved {
            // Bots or the other seat are playing: wait for the next state.
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
    let status = server.status(&id);
    assert!(
        !status["outcome"].is_null(),
        "not over after {moves} moves: {status}"
    );
    assert!(
        card_clicks > 5,
        "{card_clicks} moves by clicking cards of {moves}"
    );
    for (seat, page) in pages.iter_mut() {
        page.wait_for("!document.getElementById('over').hidden");
        let result = page.text("#result");
        assert!(
            result.contains(status["outcome"]["text"].as_str().unwrap()),
            "{seat}: {result}"
        );
        page.screenshot(&shots.join(format!("virus-war-over-{seat}.png")));
    }
}
