//! The lobby (`/`) in a real browser: a match created from the form (a game, an option, a
//! bot's seat), the seat link followed, and a move played on the match's page by clicking.
//! Screenshots under `target/browser-screenshots/`.

#[path = "browser/cdp.rs"]
#[allow(dead_code)]
mod cdp;
mod common;
#[path = "browser/shared.rs"]
#[allow(dead_code)]
mod shared;

use cdp::Page;
use common::Server;
use serde_json::json;
use shared::{browser, screenshots};

/// Sets the form's `<select>` `selector` to `value` as a person's pick would (with its
/// `change` event).
fn choose(page: &mut Page, selector: &str, value: &str) {
    let done = page
        .eval(&format!(
            "(() => {{ const s = document.querySelector({}); s.value = {};
               s.dispatchEvent(new Event('change')); return s.value; }})()",
            json!(selector),
            json!(value)
        ))
        .unwrap();
    assert_eq!(done, value, "{selector} has no choice {value}");
}

#[test]
fn a_match_created_from_the_lobby_is_joined_by_its_link_and_played() {
    let Some(mut browser) = browser() else {
        return;
    };
    let shots = screenshots();
    let server = Server::start();
    let mut page = browser.open(&format!("http://{}/", server.addr())).unwrap();
    page.wait_for("document.querySelectorAll('#game option').length > 1");

    // Hex on a 5-cell side, white played by a bot.
    choose(&mut page, "#game", "hex");
    page.wait_for("!!document.querySelector('#options input[name=\"size\"]')");
    assert_eq!(
        page.eval("document.querySelector('#options input[name=\"size\"]').value")
            .unwrap(),
        "11",
        "the option's default"
    );
    page.click("#options input[name=\"size\"]");
    page.eval("document.querySelector('#options input[name=\"size\"]').select()")
        .unwrap();
    page.type_text("5");
    choose(&mut page, "#bots select[name=\"white\"]", "random");
    page.screenshot(&shots.join("lobby-01-form.png"));
    page.click("#create button[type=\"submit\"]");
    page.wait_for("!document.getElementById('links').hidden");
    assert_eq!(page.text("#refusal"), "");
    let links = page.text("#seat-links");
    assert!(
        links.contains("black: http://") && links.contains("white: bot random"),
        "{links}"
    );
    page.screenshot(&shots.join("lobby-02-links.png"));

    // The match as the server holds it: the option and the bot taken from the form.
    let link = page
        .eval("document.querySelector('#seat-links a').href")
        .unwrap();
    let link = link.as_str().unwrap().to_string();
    let id = link.split("/m/").nth(1).unwrap().split('?').next().unwrap();
    let status = server.status(id);
    assert_eq!(status["game"], "hex");
    assert_eq!(
        status["seats"],
        json!([{"seat": "black", "bot": null}, {"seat": "white", "bot": "random"}])
    );

    // Following black's link opens its page; a click on a cell plays there and the bot
    // answers.
    page.click("#seat-links a");
    page.wait_for("typeof state === 'object' && state !== null && !!state.decision");
    assert_eq!(page.text("#who"), "You play black");
    assert_eq!(
        page.eval("document.querySelectorAll('.cell').length")
            .unwrap(),
        25
    );
    let empty = page
        .eval("document.querySelector('.cell[data-x=\"2\"][data-y=\"2\"]').dataset.symbol")
        .unwrap();
    page.click(".cell[data-x=\"2\"][data-y=\"2\"]");
    page.wait_for("state.seq >= 2 && !!state.decision");
    let now = page
        .eval("document.querySelector('.cell[data-x=\"2\"][data-y=\"2\"]').dataset.symbol")
        .unwrap();
    assert_ne!(now, empty, "the cell clicked holds black's stone");
    assert_eq!(page.text("#refusal"), "");
    assert_eq!(server.status(id)["seq"], 2);
    page.screenshot(&shots.join("lobby-03-played.png"));
}
