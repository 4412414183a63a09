//! Rhai face of `typed`: `g.parse_action(seat, text)`, an action read against the game's
//! declared shapes, as `apply` and answer functions receive it when they take it parsed.

use super::{Fallible, G};
use crate::shape::Shape;
use crate::typed::Reader;
use rhai::{Dynamic, Engine};
use std::sync::Arc;

/// Registers `parse_action` for a game declaring `shapes` (none until `Rules` knows them).
pub fn register(engine: &mut Engine, shapes: Arc<[Shape]>) {
    engine.register_fn(
        "parse_action",
        move |g: &mut G, seat: &str, text: &str| -> Fallible<Dynamic> {
            let seat = g.seat(seat)?;
            Ok(g.read(|s| Reader::new(s, Some(seat)).read(&shapes, text).to_dynamic()))
        },
    );
}
