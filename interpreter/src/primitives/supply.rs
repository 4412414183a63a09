//! Bounded supplies of identical tokens (doors, markers, coins): a fixed number in all, some
//! placed in play and the rest left to place. What an empty supply means is the rules' to
//! say, so placing more than are left is an answer (no), not an error; taking back more than
//! are out is a mistake in the script.

use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The most tokens one supply holds.
pub const MAX_SUPPLY: u32 = 1_000_000;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "SupplyData")]
pub struct Supply {
    pub name: Arc<str>,
    /// The seat it belongs to (None: shared by the table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<usize>,
    pub size: u32,
    pub left: u32,
}

impl Supply {
    /// A full supply of `size` tokens; `size` up to [`MAX_SUPPLY`].
    pub fn new(name: &str, owner: Option<usize>, size: u32) -> Result<Supply, String> {
        if size > MAX_SUPPLY {
            return Err(format!(
                "supply `{name}`: a size of {size} is over the most a supply holds ({MAX_SUPPLY})"
            ));
        }
        Ok(Supply {
            name: name.into(),
            owner,
            size,
            left: size,
        })
    }

    /// Tokens out of the supply, in play.
    pub fn placed(&self) -> u32 {
        self.size - self.left
    }

    /// Takes `n` tokens out: true, or false (and nothing changes) when fewer are left.
    pub fn place(&mut self, n: u32) -> bool {
        match self.left.checked_sub(n) {
            Some(rest) => {
                self.left = rest;
                true
            }
            None => false,
        }
    }

    /// Puts `n` tokens back; an error, naming the supply and its counts, when fewer are out.
    pub fn take_back(&mut self, n: u32) -> Result<(), String> {
        if n > self.placed() {
            return Err(format!(
                "supply `{}`: cannot take back {n}, only {} of {} are out",
                self.name,
                self.placed(),
                self.size
            ));
        }
        self.left += n;
        Ok(())
    }

    /// About the bytes it holds (`State::weigh`).
    pub fn weight(&self) -> u64 {
        32 + self.name.len() as u64 + 16
    }

    /// One line for people: `doors: 5 of 8 left`.
    pub fn describe(&self, seats: &[String]) -> String {
        let owner = self
            .owner
            .map_or(String::new(), |o| format!("[{}]", seats[o]));
        format!(
            "supply {}{owner}: {} of {} left",
            self.name, self.left, self.size
        )
    }
}

/// A supply as saves hold it, checked on loading so that a bad save is an error.
#[derive(Deserialize)]
struct SupplyData {
    name: String,
    #[serde(default)]
    owner: Option<usize>,
    size: u32,
    left: u32,
}

impl TryFrom<SupplyData> for Supply {
    type Error = String;

    fn try_from(d: SupplyData) -> Result<Supply, String> {
        let mut s = Supply::new(&d.name, d.owner, d.size)?;
        if d.left > d.size {
            return Err(format!(
                "supply `{}`: {} left of {} in all",
                d.name, d.left, d.size
            ));
        }
        s.left = d.left;
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placing_stops_at_empty_and_taking_back_at_full() {
        let mut s = Supply::new("doors", None, 3).unwrap();
        assert!(s.place(2));
        assert!(!s.place(2), "only 1 left");
        assert_eq!((s.left, s.placed()), (1, 2));
        assert_eq!(
            s.take_back(3).unwrap_err(),
            "supply `doors`: cannot take back 3, only 2 of 3 are out"
        );
        s.take_back(2).unwrap();
        assert_eq!(s.left, 3);
        assert!(Supply::new("x", None, MAX_SUPPLY + 1)
            .unwrap_err()
            .contains("over the most"));
    }

    #[test]
    fn a_save_is_checked() {
        let text = r#"{"name":"doors","size":8,"left":5}"#;
        let s: Supply = serde_json::from_str(text).unwrap();
        assert_eq!(serde_json::to_string(&s).unwrap(), text);
        let err = serde_json::from_str::<Supply>(&text.replace("5", "9")).unwrap_err();
        assert!(err.to_string().contains("9 left of 8"), "{err}");
    }
}
