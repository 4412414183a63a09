//! `Game::evaluate`: the script's optional estimate of each seat's reward in a game still
//! going (`evaluate(g)`), for searches that cut their playouts short and the greedy bot.

use super::Game;
use crate::game::PlayError;
use crate::state::State;
use rhai::{Array, Dynamic, Map};

/// What `evaluate` must return, said when it returns something else.
const SHAPE: &str =
    "an array of numbers in seat order or a map from seat name to number (each from 0 to 1)";

impl Game {
    /// Whether the script defines `evaluate(g)`.
    pub fn has_evaluate(&self) -> bool {
        self.has_evaluate
    }

    /// Each seat's estimated reward in `state`, in seat order, each clamped to [0, 1]; None
    /// when the script has no `evaluate(g)`.
    pub fn evaluate(&self, state: &State) -> Result<Option<Vec<f64>>, PlayError> {
        if !self.has_evaluate {
            return Ok(None);
        }
        let v = self.rules.call_read(state, "evaluate", &[])?;
        let n = state.seats.len();
        let mut scores = vec![f64::NAN; n];
        if v.is_array() {
            let arr = v.cast::<Array>();
            if arr.len() != n {
                return Err(self
                    .returned_error("evaluate", &format!("{} numbers for {n} seats", arr.len())));
            }
            for (score, d) in scores.iter_mut().zip(arr) {
                *score = self.number(d)?;
            }
        } else if v.is_map() {
            for (name, d) in v.cast::<Map>() {
                let seat = state.seat_index(&name).ok_or_else(|| {
                    self.returned_error("evaluate", &format!("a score for `{name}`, not a seat"))
                })?;
                scores[seat] = self.number(d)?;
            }
            if let Some(missing) = scores.iter().position(|s| s.is_nan()) {
                return Err(self.returned_error(
                    "evaluate",
                    &format!("no score for `{}`", state.seat_name(missing)),
                ));
            }
        } else {
            return Err(self.shape_error("evaluate", SHAPE));
        }
        Ok(Some(scores))
    }

    /// One seat's score: a number, clamped to [0, 1].
    fn number(&self, d: Dynamic) -> Result<f64, PlayError> {
        let x = match d.as_float() {
            Ok(x) => x,
            Err(_) => d
                .as_int()
                .map_err(|_| self.shape_error("evaluate", SHAPE))? as f64,
        };
        if x.is_nan() {
            return Err(self.returned_error("evaluate", "a score that is not a number (NaN)"));
        }
        Ok(x.clamp(0.0, 1.0))
    }
}
