//! What the browser tests share: a browser (or a printed skip), the screenshots' folder, a
//! seat's join link.

use super::cdp::{self, Browser, Page};
use serde_json::{json, Value};
use std::path::PathBuf;

/// A browser, or None (printed) when this machine has none and CI does not demand one.
pub fn browser() -> Option<Browser> {
    let Some(chromium) = cdp::find_chromium() else {
        if std::env::var_os("CI").is_some() {
            panic!("CI is set but chromium is not installed (apt-get install -y chromium)");
        }
        eprintln!("skipped: chromium is not installed (apt-get install -y chromium)");
        return None;
    };
    Some(Browser::launch(&chromium).expect("chromium starts"))
}

pub fn screenshots() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let dir = target.join("browser-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub fn join_link(created: &Value, seat: &str) -> String {
    let seats = created["seats"].as_array().unwrap();
    let entry = seats.iter().find(|s| s["seat"] == seat).unwrap();
    entry["join"].as_str().unwrap().to_string()
}

/// Waits until the page's state is `seq` actions in or more and its seat decides.
pub fn deciding_after(page: &mut Page, seq: u64) {
    page.wait_for(&format!(
        "!!state && state.seq >= {seq} && !!state.decision && !state.outcome"
    ));
}

/// Clicks the action button whose text is `text`.
pub fn click_button(page: &mut Page, text: &str) {
    let index = page
        .eval(&format!("state.decision.options.indexOf({})", json!(text)))
        .unwrap();
    if index.as_i64().unwrap() < 0 {
        let now = page.eval("[state.seq, state.decision.options, state.log.slice(-6)]");
        panic!("no action `{text}`: {}", now.unwrap());
    }
    page.click(&format!("#actions button[data-option=\"{index}\"]"));
}
