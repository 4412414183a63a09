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
///
/// Cards that may lie in the same zones share one set (most of a deck does), so that a move
/// out of a hidden zone updates a few sets, not every card, and a copy of the whole (states
/// are copied on write, once per action) is one flat array and a few sets.
#[derive(Debug, Clone, Default)]
pub struct Whereabouts {
    /// Per card id, 1 + the index of its set in `sets`; 0: no entry (anywhere).
    set_of: Vec<u32>,
    /// Distinct zone sets, each sorted; some may be unused until `compact`.
    sets: Vec<Vec<u16>>,
    /// Cards with an entry.
    entries: usize,
}

/// Sets kept before unused ones are dropped.
const COMPACT_AT: usize = 256;

impl Whereabouts {
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// The zones `card` may lie in; None: anywhere.
    pub fn of(&self, card: u16) -> Option<&[u16]> {
        match self.set_of.get(card as usize) {
            Some(&k) if k > 0 => Some(&self.sets[k as usize - 1]),
            _ => None,
        }
    }

    pub fn set(&mut self, card: u16, zones: Vec<u16>) {
        let k = self.intern(zones);
        self.assign(card, k);
    }

    /// The card is seen by everyone where it went.
    pub fn forget(&mut self, card: u16) {
        self.assign(card, 0);
    }

    /// The card went to `to` in public view.
    pub fn pin(&mut self, card: u16, to: u16) {
        self.set(card, vec![to]);
    }

    /// `card`, if it has an entry, may also be in `zone`.
    pub fn add(&mut self, card: u16, zone: u16) {
        let Some(zones) = self.of(card) else {
            return;
        };
        if let Err(i) = zones.binary_search(&zone) {
            let mut more = zones.to_vec();
            more.insert(i, zone);
            self.set(card, more);
        }
    }

    /// Whether some card may lie in `zone`.
    pub fn names_zone(&self, zone: u16) -> bool {
        self.sets.iter().any(|s| s.binary_search(&zone).is_ok())
    }

    /// Zone `zone` is empty: no card may lie there.
    pub fn leave(&mut self, zone: u16) {
        for zones in &mut self.sets {
            if let Ok(i) = zones.binary_search(&zone) {
                zones.remove(i);
            }
        }
    }

    /// Some card of `from` went to `to` unseen: every card that may be in `from` may now be
    /// in `to`.
    pub fn spread(&mut self, from: u16, to: u16) {
        for zones in &mut self.sets {
            if zones.binary_search(&from).is_ok() {
                if let Err(i) = zones.binary_search(&to) {
                    zones.insert(i, to);
                }
            }
        }
    }

    /// 1 + the index of `zones` among the sets, added if new.
    fn intern(&mut self, zones: Vec<u16>) -> u32 {
        if let Some(i) = self.sets.iter().position(|s| *s == zones) {
            return i as u32 + 1;
        }
        if self.sets.len() >= COMPACT_AT {
            self.compact();
        }
        self.sets.push(zones);
        self.sets.len() as u32
    }

    fn assign(&mut self, card: u16, k: u32) {
        let card = card as usize;
        if card >= self.set_of.len() {
            if k == 0 {
                return;
            }
            self.set_of.resize(card + 1, 0);
        }
        let old = std::mem::replace(&mut self.set_of[card], k);
        match (old > 0, k > 0) {
            (false, true) => self.entries += 1,
            (true, false) => self.entries -= 1,
            _ => {}
        }
    }

    /// Drops the sets no card uses (and merges equal ones).
    fn compact(&mut self) {
        let old = std::mem::take(&mut self.sets);
        let mut renumber = vec![0u32; old.len()];
        for k in self.set_of.iter_mut().filter(|k| **k > 0) {
            let i = *k as usize - 1;
            if renumber[i] == 0 {
                let zones = &old[i];
                renumber[i] = match self.sets.iter().position(|s| s == zones) {
                    Some(j) => j as u32 + 1,
                    None => {
                        self.sets.push(zones.clone());
                        self.sets.len() as u32
                    }
                };
            }
            *k = renumber[i];
        }
    }

    /// Every entry, by card.
    fn entries(&self) -> impl Iterator<Item = (u16, &[u16])> {
        (0..self.set_of.len()).filter_map(|c| Some((c as u16, self.of(c as u16)?)))
    }
}

/// Equal when every card may lie in the same zones, however the sets are numbered.
impl PartialEq for Whereabouts {
    fn eq(&self, other: &Whereabouts) -> bool {
        self.entries == other.entries && self.entries().all(|(c, z)| other.of(c) == Some(z))
    }
}

impl Eq for Whereabouts {}

/// Saved as a map from card id to its zones.
impl Serialize for Whereabouts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.entries())
    }
}

impl<'de> Deserialize<'de> for Whereabouts {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Whereabouts, D::Error> {
        let saved = BTreeMap::<u16, Vec<u16>>::deserialize(d)?;
        let mut w = Whereabouts::default();
        for (card, mut zones) in saved {
            zones.sort_unstable();
            zones.dedup();
            w.set(card, zones);
        }
        Ok(w)
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
        w.leave(0);
        assert_eq!(w.of(2), Some(&[2][..]), "an empty zone holds no card");
    }

    #[test]
    fn shared_sets_save_load_and_compare_by_card() {
        let mut a = Whereabouts::default();
        for round in 0..6u16 {
            for card in 0..100u16 {
                a.pin(card, round * 100 + card);
            }
        }
        assert!(a.sets.len() <= COMPACT_AT, "unused sets are dropped");
        for card in 100..600u16 {
            a.pin(card, card % 200);
        }
        let text = serde_json::to_string(&a).unwrap();
        let b: Whereabouts = serde_json::from_str(&text).unwrap();
        assert_eq!(a, b);
        assert_eq!(b.of(301), Some(&[101][..]));
        assert_eq!(b.of(1), Some(&[501][..]));
        let mut c = b.clone();
        c.add(301, 7);
        assert_ne!(b, c);
        assert_eq!(c.of(301), Some(&[7, 101][..]));
        assert_eq!(
            c.of(101),
            Some(&[101][..]),
            "a card sharing the set is left alone"
        );
        for card in 0..600u16 {
            c.forget(card);
        }
        assert!(c.is_empty());
    }
}
