//! Layout hints on the page in a real browser: Connect Four's `[layout]` draws `x` red and
//! `o` yellow (discs and seat swatches). Screenshot under `target/browser-screenshots/`.

#[path = "browser/cdp.rs"]
#[allow(dead_code)]
mod cdp;
mod common;
#[path = "browser/shared.rs"]
#[allow(dead_code)]
mod shared;

use common::Server;
use serde_json::json;
use shared::{browser, join_link, screenshots};

#[test]
fn connect_four_is_drawn_in_its_layouts_colours() {
    let Some(mut browser) = browser() else {
        return;
    };
    let server = Server::start();
    let created =
        server.create(json!({"game": "connect-four", "seed": 1, "bots": {"o": "random"}}));
    let mut x = browser.open(&join_link(&created, "x")).unwrap();
    x.wait_for("!!state && !!state.decision");
    x.click(".cell[data-x=\"3\"][data-y=\"5\"]");
    x.wait_for("state.seq >= 2 && !!state.decision");
    let background = |page: &mut cdp::Page, selector: &str| {
        page.eval(&format!(
            "getComputedStyle(document.querySelector({})).backgroundColor",
            json!(selector)
        ))
        .unwrap()
    };
    assert_eq!(
        background(&mut x, ".cell[data-x=\"3\"][data-y=\"0\"] .disc"),
        "rgb(255, 0, 0)"
    );
    assert_eq!(
        background(&mut x, ".cell[data-symbol=\"o\"] .disc"),
        "rgb(255, 215, 0)"
    );
    assert_eq!(
        background(&mut x, "tr[data-seat=\"x\"] .swatch"),
        "rgb(255, 0, 0)"
    );
    assert_eq!(
        background(&mut x, "tr[data-seat=\"o\"] .swatch"),
        "rgb(255, 215, 0)"
    );
    // An empty cell has no disc: only the symbols the layout names are coloured.
    assert_eq!(
        x.eval("document.querySelectorAll('.cell[data-symbol=\".\"] .disc').length")
            .unwrap(),
        0
    );
    x.screenshot(&screenshots().join("layout-connect-four.png"));
}
