//! The browser tests' driver: headless Chromium through the `headless_chrome` crate, which
//! starts the browser with a throw-away profile, speaks the DevTools protocol with typed
//! methods and kills the browser when dropped. This file only shapes it for the tests: open a
//! page, evaluate JavaScript, wait for a condition, click an element's centre with real mouse
//! events, type, and take a screenshot.

use anyhow::{bail, Context};
use headless_chrome::protocol::cdp::types::Method;
use headless_chrome::protocol::cdp::{Input, Page as Cdp, Runtime};
use headless_chrome::{LaunchOptions, Tab};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// How long one reply may take before the browser counts as stuck (the test then fails
/// instead of hanging).
const PATIENCE: Duration = Duration::from_secs(60);

/// How many times `Page::wait_for` looks, `POLL` apart, before it gives up.
const LOOKS: u32 = 600;
const POLL: Duration = Duration::from_millis(25);

/// Chromium on this machine: `$BOARDSCRIPT_CHROMIUM`, else the first of the usual names on
/// the `PATH`.
pub fn find_chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("BOARDSCRIPT_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Chromium refuses its sandbox to root (as in containers), and only there goes without.
fn running_as_root() -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
    }
    #[cfg(not(unix))]
    false
}

/// A headless Chromium with its own throw-away profile, killed when dropped.
pub struct Browser {
    inner: headless_chrome::Browser,
}

impl Browser {
    pub fn launch(chromium: &Path) -> anyhow::Result<Browser> {
        let options = LaunchOptions {
            path: Some(chromium.to_path_buf()),
            sandbox: !running_as_root(),
            window_size: Some((1280, 900)),
            // Every call, and the browser's silence, is bounded by this.
            idle_browser_timeout: PATIENCE,
            // No crash reports on disk; no first-run pages.
            args: vec![
                OsStr::new("--disable-breakpad"),
                OsStr::new("--no-default-browser-check"),
            ],
            ..LaunchOptions::default()
        };
        let inner = headless_chrome::Browser::new(options)
            .with_context(|| format!("starting {}", chromium.display()))?;
        inner.set_default_timeout(PATIENCE);
        Ok(Browser { inner })
    }

    /// A new tab showing `url`.
    pub fn open(&mut self, url: &str) -> anyhow::Result<Page> {
        let tab = self.inner.new_tab()?;
        tab.set_default_timeout(PATIENCE);
        tab.navigate_to(url)?;
        Ok(Page { tab })
    }
}

/// One tab.
pub struct Page {
    tab: Arc<Tab>,
}

/// The DevTools methods `Page::call` passes on by name, each through the crate's own type
/// (so its parameters are checked against the protocol).
const METHODS: &[(&str, CallTyped)] = &[
    (Runtime::Evaluate::NAME, call_typed::<Runtime::Evaluate>),
    (Cdp::BringToFront::NAME, call_typed::<Cdp::BringToFront>),
    (
        Cdp::CaptureScreenshot::NAME,
        call_typed::<Cdp::CaptureScreenshot>,
    ),
    (Cdp::Reload::NAME, call_typed::<Cdp::Reload>),
    (
        Input::DispatchMouseEvent::NAME,
        call_typed::<Input::DispatchMouseEvent>,
    ),
    (
        Input::DispatchKeyEvent::NAME,
        call_typed::<Input::DispatchKeyEvent>,
    ),
    (Input::InsertText::NAME, call_typed::<Input::InsertText>),
];

type CallTyped = fn(&Tab, Value) -> anyhow::Result<Value>;

fn call_typed<M>(tab: &Tab, params: Value) -> anyhow::Result<Value>
where
    M: Method + Serialize + DeserializeOwned,
    M::ReturnObject: Serialize,
{
    let method: M = serde_json::from_value(params).with_context(|| M::NAME)?;
    let reply = tab.call_method(method).with_context(|| M::NAME)?;
    Ok(serde_json::to_value(reply)?)
}

impl Page {
    /// Calls the DevTools method `method` (one of `METHODS`) with `params`; its result as
    /// JSON.
    pub fn call(&mut self, method: &str, params: Value) -> anyhow::Result<Value> {
        let Some((_, call)) = METHODS.iter().find(|(name, _)| *name == method) else {
            bail!("the browser driver does not pass on {method}: add it to METHODS");
        };
        call(&self.tab, params)
    }

    /// The value of the JavaScript expression `expr` (JSON-able).
    pub fn eval(&mut self, expr: &str) -> anyhow::Result<Value> {
        let reply = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true}),
        )?;
        if let Some(e) = reply.get("exceptionDetails").filter(|e| !e.is_null()) {
            bail!("`{expr}` threw: {e}");
        }
        Ok(reply["result"]["value"].clone())
    }

    /// The text of the element `selector` ("" when there is none).
    pub fn text(&mut self, selector: &str) -> String {
        let expr = format!(
            "(document.querySelector({}) || {{}}).textContent || ''",
            json!(selector)
        );
        self.eval(&expr)
            .unwrap()
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Waits (a bounded number of looks) until `expr` is true; the failure says what the
    /// page showed. An expression that throws (the page still loading) is not true yet.
    pub fn wait_for(&mut self, expr: &str) {
        for _ in 0..LOOKS {
            if self.eval(expr).ok() == Some(Value::Bool(true)) {
                return;
            }
            std::thread::sleep(POLL);
        }
        let shown = self.eval("document.body ? document.body.innerText : ''");
        panic!("the page never came to `{expr}`; it shows:\n{shown:?}");
    }

    /// Clicks the centre of the element `selector` with the mouse, as a person would.
    pub fn click(&mut self, selector: &str) {
        // A tab in the background is not laid out for the mouse.
        self.tab.bring_to_front().unwrap();
        let element = self
            .tab
            .find_element(selector)
            .unwrap_or_else(|e| panic!("no element {selector} to click: {e}"));
        element
            .click()
            .unwrap_or_else(|e| panic!("clicking {selector}: {e}"));
    }

    /// Types `text` into the focused element.
    pub fn type_text(&mut self, text: &str) {
        self.tab.send_character(text).unwrap();
    }

    /// Saves what the tab shows as a PNG.
    pub fn screenshot(&mut self, path: &Path) {
        // A tab in the background is not drawn, and its screenshot never comes.
        self.tab.bring_to_front().unwrap();
        let png = self
            .tab
            .capture_screenshot(Cdp::CaptureScreenshotFormatOption::Png, None, None, true)
            .unwrap();
        std::fs::write(path, png).unwrap();
    }
}
