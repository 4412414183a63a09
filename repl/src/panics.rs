//! Panics are bugs, but they must not take a session down or write to a stream the protocol
//! owns: the hook prints nothing and keeps the message, and whoever catches the panic reports
//! it once, as an error, where that mode reports errors.

use std::any::Any;
use std::cell::RefCell;

thread_local! {
    /// Message and place of the last panic on this thread, kept by the hook.
    static LAST: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Replaces the default hook (which prints to stderr) with one that only records.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map_or(String::new(), |l| format!(" at {}:{}", l.file(), l.line()));
        let text = format!("{}{place}", payload_text(info.payload()));
        LAST.with(|last| *last.borrow_mut() = Some(text));
    }));
}

/// What a caught panic said: the hook's record if this thread has one, else the payload.
pub fn message(payload: &(dyn Any + Send)) -> String {
    LAST.with(|last| last.borrow_mut().take())
        .unwrap_or_else(|| payload_text(payload))
}

fn payload_text(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "a panic without a message".into())
}
