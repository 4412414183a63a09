//! Whereabouts: the zones each card may lie in as every seat can tell from the public moves,
//! so that a sampler deals an unseen card only where it may be (a weapon stays in the box,
//! not in an event deck).
//!
//! A move everyone sees the card of (from or into a zone everyone sees, or a card shown to
//! everyone) pins it to its new zone; a move out of a zone hidden from someone adds the
//! destination to every card that may be in that zone, since the public cannot tell which
//! one went. Cards in zones everyone sees need no entry; a card with none may be anywhere
//! (as in saves made before this existed).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Per card id, the zone indices it may lie in (sorted); absent: anywhere.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Whereabouts(BTreeMap<u16, Vec<u16>>);

impl Whereabouts {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The zones `card` may lie in; None: anywhere.
    pub fn of(&self, card: u16) -> Option<&[u16]> {
        self.0.get(&card).map(Vec::as_slice)
    }

    pub fn set(&mut self, card: u16, zones: Vec<u16>) {
        self.0.insert(card, zones);
    }

    /// The card is seen by everyone where it went.
    pub fn forget(&mut self, card: u16) {
        self.0.remove(&card);
    }

    /// The card went to `to` in public view.
    pub fn pin(&mut self, card: u16, to: u16) {
        self.0.insert(card, vec![to]);
    }

    /// `card`, if it has an entry, may also be in `zone`.
    pub fn add(&mut self, card: u16, zone: u16) {
        if let Some(zones) = self.0.get_mut(&card) {
            if let Err(i) = zones.binary_search(&zone) {
                zones.insert(i, zone);
            }
        }
    }

    /// Zone `zone` is empty: no card may lie there.
    pub fn leave(&mut self, zone: u16) {
        for zones in self.0.values_mut() {
            if let Ok(i) = zones.binary_search(&zone) {
                zones.remove(i);
            }
        }
    }

    /// Some card of `from` went to `to` unseen: every card that may be in `from` may now be
    /// in `to`.
    pub fn spread(&mut self, from: u16, to: u16) {
        for zones in self.0.values_mut() {
            if zones.binary_search(&from).is_ok() {
                if let Err(i) = zones.binary_search(&to) {
                    zones.insert(i, to);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hidden_move_spreads_to_the_cards_that_may_be_in_its_source_only() {
        let mut w = Whereabouts::default();
        w.pin(1, 0);
        w.pin(2, 0);
        w.pin(3, 5);
        w.spread(0, 2);
        assert_eq!(w.of(1), Some(&[0, 2][..]));
        assert_eq!(w.of(2), Some(&[0, 2][..]));
        assert_eq!(w.of(3), Some(&[5][..]));
        assert_eq!(w.of(4), None, "no entry: anywhere");
        w.forget(1);
        assert_eq!(w.of(1), None);
    }
}
