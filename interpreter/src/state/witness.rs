//! A recorder of every card move while it is on, for checks that must know what passed
//! through a zone someone sees during one action (a pair turned face up, then shuffled back
//! into a deck before the action ends). Off in play, where it costs one branch per move.

use crate::primitives::zone::CardId;

/// The moves recorded, `(card, zone it went to)`, when recording; bookkeeping, not position:
/// never saved, and two states are equal whatever their witnesses hold.
#[derive(Debug, Clone, Default)]
pub struct Witness(Option<Vec<(CardId, usize)>>);

impl PartialEq for Witness {
    fn eq(&self, _: &Witness) -> bool {
        true
    }
}

impl Witness {
    /// A witness that records from now on.
    pub fn recording() -> Witness {
        Witness(Some(Vec::new()))
    }

    pub(super) fn saw(&mut self, cards: &[CardId], to: usize) {
        if let Some(moves) = &mut self.0 {
            moves.extend(cards.iter().map(|&c| (c, to)));
        }
    }

    /// The moves recorded so far (none when not recording).
    pub fn moves(&self) -> &[(CardId, usize)] {
        self.0.as_deref().unwrap_or(&[])
    }
}
