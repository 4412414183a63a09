//! The designer's page in headless Chromium: each seat's column is played by clicking,
//! undone, then the rules file is saved twice (a change, then a syntax error) and the page
//! shows each reload by itself. Screenshots under `target/browser-screenshots/`. Without
//! Chromium the test skips with a printed reason, except under CI (`CI` set): it fails.

#[path = "browser/cdp.rs"]
#[allow(dead_code)]
mod cdp;
mod common;
#[path = "browser/shared.rs"]
#[allow(dead_code)]
mod shared;

use boardscript_server::client;
use cdp::Page;
use serde_json::{json, Value};
use shared::{browser, screenshots};

/// The document of `seat`'s column, as a JavaScript expression.
fn frame(seat: &str) -> String {
    format!("document.querySelector('[data-seat=\"{seat}\"] iframe').contentDocument")
}

/// Clicks the centre of `selector` inside `seat`'s column with the mouse.
fn click_in(page: &mut Page, seat: &str, selector: &str) {
    page.call("Page.bringToFront", json!({})).unwrap();
    let expr = format!(
        "(() => {{ const f = document.querySelector('[data-seat=\"{seat}\"] iframe');
           const e = f.contentDocument.querySelector({sel}); if (!e) return null;
           f.scrollIntoView({{block: 'nearest', inline: 'nearest'}});
           e.scrollIntoView({{block: 'nearest'}});
           const fr = f.getBoundingClientRect(), r = e.getBoundingClientRect();
           return [fr.x + f.clientLeft + r.x + r.width / 2, fr.y + f.clientTop + r.y + r.height / 2]; }})()",
        sel = json!(selector)
    );
    let at = page.eval(&expr).unwrap();
    let (x, y) = match (at[0].as_f64(), at[1].as_f64()) {
        (Some(x), Some(y)) => (x, y),
        _ => panic!("no element {selector} in {seat}'s column"),
    };
    for kind in ["mousePressed", "mouseReleased"] {
        page.call(
            "Input.dispatchMouseEvent",
            json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
        )
        .unwrap();
    }
}

/// Waits until `seat`'s column says `text` in its turn line.
fn turn_in(page: &mut Page, seat: &str, text: &str) {
    page.wait_for(&format!(
        "{}.getElementById('turn').textContent === {}",
        frame(seat),
        json!(text)
    ));
}

fn cell_in(seat: &str, x: usize, y: usize) -> String {
    format!(
        "{}.querySelector('.cell[data-x=\"{x}\"][data-y=\"{y}\"]')",
        frame(seat)
    )
}

/// Scrolls the page back to its top (clicks in a column may have scrolled it).
fn top(page: &mut Page) {
    page.eval("window.scrollTo(0, 0)").unwrap();
}

fn status_is(page: &mut Page, text: &str) {
    page.wait_for(&format!(
        "document.getElementById('status').textContent === {}",
        json!(text)
    ));
}

#[test]
fn connect_four_designed_played_undone_and_reloaded_in_the_browser() {
    let Some(mut browser) = browser() else {
        return;
    };
    let shots = screenshots();
    let (scripts, game) = common::connect_four_copy();
    // The rules' own grid colours are what a save changes below: without the manifest's
    // layout hints, which a page draws over them.
    let manifest = std::fs::read_to_string(game.join("game.toml")).unwrap();
    let plain = manifest.split("\n[layout]").next().unwrap();
    std::fs::write(game.join("game.toml"), plain).unwrap();
    let rules = game.join("rules.rhai");
    let original = std::fs::read_to_string(&rules).unwrap();
    let data = tempfile::tempdir().unwrap();
    let server = boardscript_server::spawn(boardscript_server::Config {
        addr: "127.0.0.1:0".into(),
        data: data.path().to_path_buf(),
        scripts: vec![scripts.path().to_path_buf()],
        designer: true,
        watch: true,
        ..Default::default()
    })
    .unwrap();

    // The lobby offers the designer's page on such a server.
    let mut lobby = browser.open(&format!("http://{}/", server.addr)).unwrap();
    lobby.wait_for("!document.getElementById('designer-pick').hidden");
    let (status, created) = client::post(
        server.addr,
        "/api/matches",
        &json!({"game": "connect-four", "seed": 4, "designer": true}),
    )
    .unwrap();
    assert_eq!(status, 201, "{created}");
    let link = created["designer"].as_str().unwrap();

    let mut page = browser.open(link).unwrap();
    status_is(&mut page, "0 action(s); deciding: x");
    assert_eq!(page.text("#title"), "Boardscript designer: connect-four");
    assert_eq!(page.text("#setup"), "seed 4");
    assert_eq!(
        page.eval("[...document.querySelectorAll('.seat-column')].map(c => c.dataset.seat)")
            .unwrap(),
        json!(["x", "o", ""])
    );
    turn_in(&mut page, "x", "Your turn (x)");
    turn_in(&mut page, "o", "Waiting for x");
    assert!(
        page.eval("document.getElementById('undo').disabled")
            .unwrap()
            == Value::Bool(true)
    );

    // A move from each seat's own column.
    click_in(&mut page, "x", ".cell[data-x=\"3\"][data-y=\"5\"]");
    status_is(&mut page, "1 action(s); deciding: o");
    turn_in(&mut page, "o", "Your turn (o)");
    click_in(&mut page, "o", ".cell[data-x=\"4\"][data-y=\"5\"]");
    status_is(&mut page, "2 action(s); deciding: x");
    for seat in ["x", "o", ""] {
        page.wait_for(&format!("{}.dataset.symbol === 'o'", cell_in(seat, 4, 0)));
        page.wait_for(&format!("{}.dataset.symbol === 'x'", cell_in(seat, 3, 0)));
    }
    assert_eq!(
        page.eval("[...document.querySelectorAll('#actions li')].map(l => l.textContent)")
            .unwrap(),
        json!(["x: d", "o: e"])
    );
    let state = page
        .eval("JSON.parse(document.getElementById('state').textContent)")
        .unwrap();
    assert!(state.is_object(), "{state}");
    top(&mut page);
    page.screenshot(&shots.join("designer-01-two-moves.png"));

    // Undo: o's move is gone from every column, and o decides again.
    page.click("#undo");
    status_is(&mut page, "1 action(s); deciding: o");
    for seat in ["x", "o", ""] {
        page.wait_for(&format!("{}.dataset.symbol === '.'", cell_in(seat, 4, 0)));
    }
    turn_in(&mut page, "o", "Your turn (o)");
    assert_eq!(
        page.eval("document.querySelectorAll('#actions li').length")
            .unwrap(),
        1
    );
    top(&mut page);
    page.screenshot(&shots.join("designer-02-undone.png"));

    // A save: the page shows the reload, and x's disc is drawn in the new colour.
    std::fs::write(&rules, original.replace("\"red\"", "\"green\"")).unwrap();
    page.wait_for(
        "document.getElementById('reload').className === 'ok' && \
         document.getElementById('reload').textContent === 'reloaded: 1 action(s) replayed'",
    );
    page.wait_for(&format!(
        "{}.querySelector('.disc').style.background === 'green'",
        cell_in("x", 3, 0)
    ));
    status_is(&mut page, "1 action(s); deciding: o");
    top(&mut page);
    page.screenshot(&shots.join("designer-03-reloaded.png"));

    // A syntax error: shown with its file and line; the match is unchanged.
    let broken = original.replace("\"red\"", "\"green\"") + "\nfn broken( {\n";
    std::fs::write(&rules, broken).unwrap();
    let line = original.lines().count() + 2;
    page.wait_for(&format!(
        "document.getElementById('reload').className === 'failed' && \
         document.getElementById('reload').textContent.includes('rules.rhai:{line}:12: syntax error')"
    ));
    status_is(&mut page, "1 action(s); deciding: o");
    turn_in(&mut page, "o", "Your turn (o)");
    // Still playable on the rules kept: o types its move in its column's notation box.
    click_in(&mut page, "o", "#notation");
    page.type_text("e");
    click_in(&mut page, "o", "#typed button");
    status_is(&mut page, "2 action(s); deciding: x");
    page.wait_for(&format!("{}.dataset.symbol === 'o'", cell_in("x", 4, 0)));
    top(&mut page);
    page.screenshot(&shots.join("designer-04-syntax-error.png"));
}
